"""Late joiners see the current screen; reconnects get exactly the missing bytes or a snapshot."""

from __future__ import annotations

import hashlib
import textwrap
import time
from pathlib import Path

from observer.protocol.events import OutputReceived, SnapshotReceived
from observer.terminal import TerminalModel
from tests.integration.server_support import (
    PY,
    model_text,
    observe,
    running_server,
    wait_for,
)

# A full-screen program: alternate screen, colours, a box, a title, the cursor parked mid-screen.
FULL_SCREEN_UI = textwrap.dedent(
    r"""
    import sys, time
    w = sys.stdout.write
    w("\x1b]0;editor - main.py\x07\x1b[?1049h\x1b[H\x1b[2J")
    w("\x1b[1;44;97m" + " main.py ".ljust(80) + "\x1b[0m")
    for row in range(2, 22):
        w(f"\x1b[{row};1H\x1b[33m{row:3d}\x1b[0m  def step_{row}(x): return x * {row}")
    w("\x1b[23;1H\x1b[7m-- INSERT --\x1b[0m  READY")
    w("\x1b[10;20H")
    sys.stdout.flush()
    time.sleep(60)
    """
)


def ui_command(tmp_path: Path, before: str = "") -> list[str]:
    script = tmp_path / "ui.py"
    script.write_text(FULL_SCREEN_UI)
    return ["sh", "-c", f"{before}exec {PY} {script}"]


def ready(server: object) -> bool:
    """The server's model holds the whole UI, up to the cursor parked last."""
    model = server.sessions["default"].model  # type: ignore[attr-defined]
    drawn = any("READY" in line for line in model_text(server))  # type: ignore[arg-type]
    return drawn and (model.cursor_x, model.cursor_y) == (19, 9)


async def test_a_late_joiner_sees_the_exact_full_screen_ui(tmp_path: Path) -> None:
    async with running_server(ui_command(tmp_path), size=(80, 24)) as server:
        await wait_for(lambda: ready(server))
        async with observe(server) as client:
            await client.until(lambda c: any(isinstance(e, SnapshotReceived) for e in c.events))
            assert client.text() == model_text(server)
            server_model = server.sessions["default"].model
            for y in range(24):  # colours and attributes too, cell by cell
                assert list(client.screen.line(y)) == list(server_model.line(y)), f"row {y}"  # type: ignore[attr-defined]
            assert client.screen.alternate
            assert client.screen.title == "editor - main.py"
            assert (client.screen.cursor_x, client.screen.cursor_y) == (19, 9)
            assert client.text()[22].startswith("-- INSERT --")


async def test_a_late_joiner_after_100_mb_of_output_sees_the_screen_as_a_snapshot(
    tmp_path: Path,
) -> None:
    flood = "head -c 100000000 /dev/zero | tr '\\0' x; "
    async with running_server(ui_command(tmp_path, before=flood), size=(80, 24)) as server:
        session = server.sessions["default"]
        await wait_for(lambda: session.ring.end > 100_000_000 and ready(server), timeout=60)
        async with observe(server) as client:
            await client.until(lambda c: any(isinstance(e, SnapshotReceived) for e in c.events))
            assert client.text() == model_text(server)
            # The client got a repaint, not 100 MB: at most the model's backlog follows it.
            received = sum(len(e.data) for e in client.events if isinstance(e, OutputReceived))
            assert received <= session.model_backlog


# Prints numbered lines in bursts; the test reconnects in between.
COUNTER = textwrap.dedent(
    """
    import sys, time
    if sys.argv[1:] == ["wait"]:
        input()  # start when the first client presses Enter, whatever the machine's load
    for i in range(3000):
        sys.stdout.write(f"line {i:05d} " + "." * 40 + "\\n")
        if i % 100 == 99:
            sys.stdout.flush(); time.sleep(0.02)
    sys.stdout.write("END\\n"); sys.stdout.flush()
    time.sleep(60)
    """
)


async def test_a_reconnect_inside_the_ring_gets_exactly_the_missing_bytes(tmp_path: Path) -> None:
    script = tmp_path / "counter.py"
    script.write_text(COUNTER)
    async with running_server([PY, str(script), "wait"]) as server:
        session = server.sessions["default"]
        async with observe(server, control=True) as first:
            start = first.stream_start
            await first.send(first.session.encode_input(b"\r"))
            await first.until(lambda c: b"line 00500" in c.stream)
            part_one = bytes(first.stream)
            resume_at = first.session.offset
        assert start is not None and resume_at is not None
        await wait_for(lambda: b"line 01500" in session.ring.since(resume_at))
        async with observe(server, since=resume_at) as second:
            await second.until(lambda c: b"END" in c.stream)
            await wait_for(lambda: session.ring.end == resume_at + len(second.stream))
            assert not any(isinstance(e, SnapshotReceived) for e in second.events)
            stream = part_one + bytes(second.stream)
        pty_stream = session.ring.since(start)
        assert hashlib.sha256(stream).hexdigest() == hashlib.sha256(pty_stream).hexdigest()
        expected = "".join(f"line {i:05d} {'.' * 40}\r\n" for i in range(3000)) + "END\r\n"
        assert stream.decode() == "\r\n" + expected  # the echo of Enter, then the program


async def test_a_reconnect_outside_the_ring_gets_a_snapshot_marked_as_a_gap(tmp_path: Path) -> None:
    script = tmp_path / "counter.py"
    script.write_text(COUNTER)
    async with running_server([PY, str(script)], ring_size=64 * 1024) as server:
        session = server.sessions["default"]
        await wait_for(
            lambda: session.ring.start > 0 and b"END" in session.ring.since(session.ring.start)
        )
        async with observe(server, since=10) as client:
            await client.until(lambda c: any(isinstance(e, SnapshotReceived) for e in c.events))
            [snapshot] = [e for e in client.events if isinstance(e, SnapshotReceived)]
            assert snapshot.gap
            await wait_for(lambda: session.model_offset == session.ring.end)
            await client.until(lambda c: c.session.offset == session.ring.end)
            assert client.text() == model_text(server)


# Each row is written once, between bulky output that leaves the screen alone (window titles):
# a model that skipped any of it would lose a row for good.
ROWS_BETWEEN_TITLES = textwrap.dedent(
    r"""
    import sys
    out = sys.stdout.buffer
    for row in range(2, 24):
        out.write(b"\x1b[%d;1Hrow %02d" % (row, row))
        for _ in range(50):
            out.write(b"\x1b]2;" + b"t" * 3000 + b"\x07")
    out.write(b"\x1b[24;1Hdone")
    out.flush()
    """
)


class SlowModel(TerminalModel):
    """A model slower than the agent (about 2 MB/s), so that it must fall behind."""

    def feed(self, data: bytes) -> set[int]:
        time.sleep(0.002)
        return super().feed(data)


async def test_the_servers_screen_is_the_true_screen_when_the_agent_outruns_its_model(
    tmp_path: Path,
) -> None:
    """The model never skips output: the program waits for it, as in any terminal."""
    script = tmp_path / "rows.py"
    script.write_text(ROWS_BETWEEN_TITLES)
    async with running_server([PY, str(script)], size=(80, 24), model_factory=SlowModel) as server:
        session = server.sessions["default"]
        await wait_for(
            lambda: session.exited and session.model_offset == session.ring.end, timeout=60
        )
        assert session.ring.end > 3_000_000  # three times the model's backlog bound
        screen = model_text(server)
        assert screen[1:23] == [f"row {row:02d}" for row in range(2, 24)]
        assert screen[23] == "done"
