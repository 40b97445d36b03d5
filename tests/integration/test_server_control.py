"""One keyboard holder at a time; watchers' input and resizes never reach the PTY."""

from __future__ import annotations

import fcntl
import struct
import termios
import textwrap
from pathlib import Path

from observer.protocol import frames
from observer.protocol.events import Resized
from tests.integration.server_support import (
    PY,
    WATCH_TOKEN,
    observe,
    running_server,
    wait_for,
)


def pty_size(server: object) -> tuple[int, int]:
    fd = server.sessions["default"].pty.fd  # type: ignore[attr-defined]
    rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8))
    return cols, rows


def pty_saw(server: object, text: bytes) -> bool:
    ring = server.sessions["default"].ring  # type: ignore[attr-defined]
    return text in ring.since(ring.start)


async def test_watcher_input_is_dropped_and_reported_and_the_holder_types() -> None:
    async with (
        running_server(["cat"]) as server,
        observe(server) as watcher,
        observe(server) as holder,
    ):
        await watcher.ws.send(b"secret-from-watcher\r")
        await watcher.until(lambda c: frames.NOT_HOLDER in c.errors())
        await holder.send(holder.session.encode_take())
        await holder.until(lambda c: c.mode == "control")
        await holder.send(holder.session.encode_input(b"typed-by-holder\r"))
        await watcher.until(lambda c: b"typed-by-holder" in c.stream)
        assert not pty_saw(server, b"secret-from-watcher")


async def test_only_one_holder_at_a_time_and_release_lets_another_take() -> None:
    async with (
        running_server(["cat"]) as server,
        observe(server, control=True) as a,
        observe(server) as b,
    ):
        assert a.mode == "control"
        await b.send(b.session.encode_take())
        await b.until(lambda c: frames.CONTROL_HELD in c.errors())
        assert b.mode == "watch"
        await a.send(a.session.encode_release())
        await b.until(lambda c: c.holders()[-1:] == ["none"])
        await b.send(b.session.encode_take())
        await b.until(lambda c: c.mode == "control")
        await a.until(lambda c: c.holders()[-1:] == ["other"])
        await a.send(a.session.encode_take())
        await a.until(lambda c: frames.CONTROL_HELD in c.errors())
        await b.send(b.session.encode_release())
        await a.until(lambda c: c.holders()[-1:] == ["none"])
        await a.send(a.session.encode_take())
        await a.until(lambda c: c.mode == "control")


async def test_the_holder_disconnecting_releases_control() -> None:
    async with running_server(["cat"]) as server, observe(server) as watcher:
        async with observe(server, control=True) as holder:
            assert holder.mode == "control"
            await watcher.until(lambda c: c.holders()[-1:] == ["other"])
        await watcher.until(lambda c: c.holders()[-1:] == ["none"])
        assert server.sessions["default"].arbiter.holder is None


async def test_a_watcher_resize_is_refused_and_the_holder_resize_reaches_everyone() -> None:
    async with (
        running_server(["cat"], size=(100, 30)) as server,
        observe(server) as watcher,
        observe(server, control=True) as holder,
    ):
        await watcher.ws.send(frames.encode(frames.Resize(50, 10)))
        await watcher.until(lambda c: frames.NOT_HOLDER in c.errors())
        assert pty_size(server) == (100, 30)
        await holder.send(holder.session.encode_resize(90, 20))
        await watcher.until(lambda c: Resized(90, 20) in c.events)
        assert pty_size(server) == (90, 20)


async def test_a_watch_only_token_cannot_take_control_over_the_socket() -> None:
    async with running_server(["cat"]) as server, observe(server, token=WATCH_TOKEN) as client:
        await client.send(client.session.encode_take())
        await client.until(lambda c: frames.WATCH_ONLY in c.errors())
        await client.ws.send(b"x")
        await client.until(lambda c: c.errors().count(frames.NOT_HOLDER) == 1)


QUERY = textwrap.dedent(
    """
    import os, sys, termios, tty, time
    while not os.path.exists(sys.argv[1]):  # the test makes it once the watchers are connected
        time.sleep(0.01)
    tty.setraw(0)
    os.write(1, b"\\x1b[6n")  # DSR: report the cursor position
    time.sleep(0.5)  # time for a watcher's answer, which must not come
    answer = os.read(0, 1024)
    os.write(1, b"\\r\\nanswer=" + answer.replace(b"\\x1b", b"ESC") + b"\\r\\n")
    time.sleep(60)
    """
)


async def test_terminal_queries_are_answered_once_by_the_server_not_by_watchers(
    tmp_path: Path,
) -> None:
    script, ready = tmp_path / "query.py", tmp_path / "watchers-connected"
    script.write_text(QUERY)
    async with (
        running_server([PY, str(script), str(ready)]) as server,
        observe(server) as first,
        observe(server),
    ):
        ready.touch()
        ring = server.sessions["default"].ring
        await wait_for(lambda: b"answer=" in ring.since(0) and ring.since(0).endswith(b"\r\n"))
        # One reply, from the server's model: watchers connected meanwhile added none.
        assert b"answer=ESC[1;1R\r\n" in ring.since(0)
        assert first.mode == "watch"


async def test_the_exit_status_reaches_clients_and_the_session_stays_inspectable() -> None:
    async with running_server(["sh", "-c", "echo bye; exit 3"]) as server:
        session = server.sessions["default"]
        await wait_for(lambda: session.exited)
        async with observe(server) as late:
            await late.until(lambda c: c.exited())
            assert session.exit_status == 3
            assert any("bye" in line for line in late.text())
            await late.ws.send(b"x")
            await late.until(
                lambda c: frames.EXITED in c.errors() or frames.NOT_HOLDER in c.errors()
            )


async def test_a_holder_that_asked_for_a_snapshot_keeps_typing_while_it_waits() -> None:
    """A controller catching up with a flood asks for snapshots; the server sends at most one a
    second per client, and the keys typed meanwhile still reach the PTY at once."""
    import time

    async with running_server(["cat"]) as server, observe(server) as holder:
        await holder.send(holder.session.encode_take())
        await holder.until(lambda c: c.mode == "control")
        await holder.send(holder.session.encode_resync())  # answered now: a snapshot
        await holder.send(holder.session.encode_resync())  # within the interval: pending
        started = time.monotonic()
        await holder.send(holder.session.encode_input(b"typed-while-waiting\r"))
        await wait_for(lambda: pty_saw(server, b"typed-while-waiting"), timeout=5)
        assert time.monotonic() - started < 0.5  # not held until the pending snapshot went out
