"""The client against the real ttyd 1.7.7 (built from source): takeover, exit, watch-only silence.

ttyd arbitrates nothing (``-W`` takes input from any client), starts a new process for every
connection, and closes the socket without a close frame when that process ends.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

import pytest

from observer.recording.castfiles import open_cast
from observer.transport.settings import ConnectionSettings
from tests.client_support import Client, Disconnected, Reconnecting
from tests.integration.client_peers import collect_until, text_of
from tests.integration.peer_screen import check_takeover_resize_and_hand_back
from tests.integration.ttyd_peer import needs_ttyd, running_ttyd

pytestmark = pytest.mark.timeout(60)

ECHO = "import sys\nprint('ready', flush=True)\nfor line in sys.stdin: print('got', line.strip(), flush=True)"


async def test_ctrl_t_takes_and_ctrl_bracket_hands_back_on_a_writable_ttyd() -> None:
    with running_ttyd([sys.executable, "-c", ECHO], "-W") as url:
        client = Client(ConnectionSettings(url, protocol="ttyd"))
        stream = client.events()
        await collect_until(stream, lambda s, out: b"ready" in out)
        assert await client.send_input(b"before\r") is False  # watching: nothing leaves
        status = client.session.status(time.monotonic())
        assert status.may_take and status.arbitration == "none"
        await client.take()
        assert client.session.in_control
        assert await client.send_input(b"typed\r") is True
        seen = await collect_until(stream, lambda s, out: b"got typed" in out)
        await client.release()
        assert await client.send_input(b"after\r") is False
        await client.take()  # and again: nothing on the peer stops it
        assert await client.send_input(b"again\r") is True
        seen += await collect_until(stream, lambda s, out: b"got again" in out)
        await client.close()
        await stream.aclose()
    assert b"got before" not in text_of(seen) and b"got after" not in text_of(seen)


async def test_a_ttyd_program_that_exits_is_an_exit_and_is_not_started_again(
    tmp_path: Path,
) -> None:
    starts = tmp_path / "starts"
    program = (
        f"import time; open({str(starts)!r}, 'a').write('x'); print('working', flush=True); "
        "time.sleep(0.5)"  # ttyd 1.7.7 may drop what a program prints just as it exits
    )
    with running_ttyd([sys.executable, "-c", program]) as url:
        settings = ConnectionSettings(url, protocol="ttyd", initial_delay=0.05, max_delay=0.1)
        client = Client(settings)
        seen = [event async for event in client.events()]  # ends by itself: the program ended
        await asyncio.sleep(1.0)  # a reconnect, had there been one, would have started it again
    assert b"working" in text_of(seen)
    assert not any(isinstance(e, Reconnecting) for e in seen)
    assert isinstance(seen[-1], Disconnected)
    assert "a new connection would start a new program" in seen[-1].reason
    assert client.session.status(0).exited
    assert starts.read_text() == "x"


def test_recording_a_ttyd_program_runs_it_once_and_ends_with_exit(tmp_path: Path) -> None:
    needs_ttyd()
    starts, cast = tmp_path / "starts", tmp_path / "ttyd.cast"
    program = (
        f"import time; open({str(starts)!r}, 'a').write('x'); print('step', flush=True); "
        "time.sleep(2); print('done', flush=True); time.sleep(0.5)"
    )  # ttyd 1.7.7 may close before sending what a program prints just as it exits: not here
    with running_ttyd([sys.executable, "-c", program]) as url:
        started = time.monotonic()
        command = ["record", url, "--protocol", "ttyd", "-o", str(cast), "--duration", "12"]
        result = subprocess.run(
            [sys.executable, "-m", "observer", *command],
            capture_output=True,
            text=True,
            timeout=40,
        )
        took = time.monotonic() - started
    assert result.returncode == 0, result.stderr
    assert starts.read_text() == "x"  # started once, not again and again
    assert took < 10  # it ended with the program, not at --duration
    with open_cast(cast) as reader:
        events = list(reader)
    markers = [e.data for e in events if e.code == "m"]
    assert markers[0] == "connect" and markers[-1] == "exit"
    assert "done" in "".join(e.data for e in events if e.code == "o")
    assert "reconnect" not in markers and "disconnect" not in markers


async def test_a_ttyd_screen_takes_the_size_sent_in_control_and_keeps_it_after_hand_back() -> None:
    with running_ttyd(["bash", "--norc", "--noprofile"], "-W") as url:
        client = Client(ConnectionSettings(url, protocol="ttyd"))
        stream = client.events()
        await collect_until(stream, lambda s, out: b"bash-" in out)
        await check_takeover_resize_and_hand_back(client, stream)
        await client.close()
        await stream.aclose()
