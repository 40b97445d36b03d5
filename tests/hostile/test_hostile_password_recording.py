"""A password typed in control is never recorded, even when the keys are (`--record-input`).

The attack: the agent asks for a secret (`read -s`, as sudo, ssh and git do); the person in control
types it; the recording is later shared. Before the fix every key went into the file as an ``"i"``
event, and the file was mode 0644. Now the server tells clients when the PTY's echo goes off, the
recording policy writes a marker instead of those keys, and recordings are created 0600.
"""

from __future__ import annotations

import asyncio
import secrets
import stat
import sys
from pathlib import Path

import pytest

from observer.auth.tokens import Authenticator, TokenDigests
from observer.credentials.store import Secret
from observer.recording.castfiles import open_cast
from observer.server import Server
from observer.transport.settings import ConnectionSettings
from tests.client_support import live_link
from tests.waiting import until

pytestmark = pytest.mark.timeout(60)

PASSWORD = "correct-horse-" + secrets.token_hex(4)
PROMPT = (
    "import getpass, sys\n"
    "print('user: ', end='', flush=True); user = sys.stdin.readline().strip()\n"
    "secret = getpass.getpass('Password: ')\n"
    "print(f'hello {user}, {len(secret)} characters', flush=True)\n"
    "sys.stdin.readline()\n"
)


async def test_a_password_typed_in_control_is_not_in_the_recording(tmp_path: Path) -> None:
    token = secrets.token_urlsafe(16)
    server = Server(
        [sys.executable, "-c", PROMPT],
        auth=Authenticator(TokenDigests.from_tokens([("control", token)])),
        identifiers=("agent",),
        size=(80, 24),
    )
    await server.start()
    cast = tmp_path / "session.cast"
    settings = ConnectionSettings(f"ws://127.0.0.1:{server.port}/", identifier="agent")
    link = live_link(settings, Secret(token), record=cast, record_input=True)
    session = link.session
    runner = asyncio.create_task(link.run())
    try:

        def screen() -> str:
            while session.pending:  # parse what arrived, as the app's feeder does
                session.feed(1 << 20, 0.0)
            return "".join(session.model.text())

        await until(lambda: session.status(0).connection == "connected", "the connection")
        assert session.take(0.0)
        await until(lambda: session.in_control, "control")
        await until(lambda: "user:" in screen(), "the user prompt")
        session.type(b"alice\r", 0.0)
        await until(lambda: not session.status(0).echo, "echo off at the password prompt")
        for character in PASSWORD + "\r":
            session.type(character.encode(), 0.0)
        await until(lambda: "characters" in screen(), "the program's answer")
        assert f"hello alice, {len(PASSWORD)} characters" in screen()
        await until(lambda: session.status(0).echo, "echo back on")
        session.type(b"bye\r", 0.0)
        await until(lambda: session.status(0).exited, "the program's exit after bye")
    finally:
        await link.close()
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)
        await server.stop()
    text = cast.read_text()
    assert PASSWORD not in text
    assert PASSWORD[:6] not in text
    with open_cast(cast) as reader:
        events = list(reader)
    typed = "".join(e.data for e in events if e.code == "i")
    assert typed == "alice\rbye\r"  # the keys around the prompt, none of the secret
    assert "input hidden: echo was off" in [e.data for e in events if e.code == "m"]
    assert stat.S_IMODE(cast.stat().st_mode) == 0o600
