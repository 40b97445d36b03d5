"""What ``observer record`` and ``watch --record`` write (a real server, a real PTY) is what
``observer export`` reads back: the screen at ``connect``, the size and title at the start, and
what each takeover typed, or that its keys were not recorded."""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from observer.auth.tokens import Authenticator, TokenDigests
from observer.server import Server
from tests.integration.recorders_scenario import record_both
from tests.waiting import until

pytestmark = pytest.mark.timeout(90)

FULL_SCREEN = (
    "import os, sys, time\n"
    "print('\\x1b]2;agent: running tests\\x07', end='')\n"
    "for n in range(30): print(f'test {n} passed', flush=True)\n"
    "while not os.path.exists(sys.argv[1]): time.sleep(0.02)\n"
    "print('\\x1b]2;agent: done\\x07all passed', flush=True)\n"
    "time.sleep(0.3)\n"
)


def export(cast: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "observer", "export", str(cast)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def section(transcript: str, heading: str) -> list[str]:
    """The screen rows under the first heading that contains ``heading``."""
    block = transcript.split(heading, 1)[1].split("──\n", 1)[1].split("\n\n", maxsplit=1)[0]
    return block.splitlines()


async def test_a_recording_joined_on_a_full_screen_exports_it_at_connect(tmp_path: Path) -> None:
    token = secrets.token_urlsafe(16)
    server = Server(
        [sys.executable, "-c", FULL_SCREEN, str(tmp_path / "go")],
        auth=Authenticator(TokenDigests.from_tokens([("control", token)])),
        identifiers=("agent",),
        size=(40, 6),
    )
    await server.start()
    cast = tmp_path / "full.cast"
    try:
        session = await until(lambda: server.sessions.get("agent"), "the session", 30)
        await until(
            lambda: b"test 29 passed" in session.ring.since(session.ring.start),
            "the full screen",
            30,
        )
        recorder = await asyncio.create_subprocess_exec(
            sys.executable,
            *("-m", "observer", "record", f"ws://127.0.0.1:{server.port}/"),
            *("--identifier", "agent", "-o", str(cast), "--duration", "40"),
            env={**os.environ, "OBSERVER_TOKEN": token},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        await until(lambda: cast.exists() and "connect" in cast.read_text(), "the connect", 30)
        (tmp_path / "go").touch()
        _, err = await asyncio.wait_for(recorder.communicate(), 30)
        assert recorder.returncode == 0, err
    finally:
        await server.stop()
    transcript = export(cast)
    assert transcript.startswith(f"observer transcript of {cast.name} — agent: running tests\n40x6")
    assert section(transcript, "marker 'connect'") == [f"│ test {n} passed" for n in range(25, 30)]
    assert section(transcript, "end (exited")[-1] == "│ all passed"


async def test_takeovers_say_what_was_typed_or_that_the_keys_were_not_recorded(
    tmp_path: Path,
) -> None:
    headless, app_side = await record_both(tmp_path)
    by_headless, by_app = export(headless), export(app_side)
    for transcript in (by_headless, by_app):
        assert transcript.splitlines()[1].startswith("60x10, later 72x12 · ")
    takeover = "takeovers (a person held the keyboard):\n"
    assert by_app.split(takeover)[1].splitlines()[0].endswith(", typed: y⏎")
    # One unlabelled token for both: the server names its holder "token" and six hex digits of its digest.
    first = by_headless.split(takeover)[1].splitlines()[0]
    assert ", by token " in first and first.endswith(", keys not recorded")
