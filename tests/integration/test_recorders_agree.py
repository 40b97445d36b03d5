"""Both recorders (the app's ``watch --record`` and the headless ``observer record``) write what
``export`` and ``render --at-marker`` read: the same takeover, the same vocabulary.

A real server runs a program that asks a question; the headless recorder watches while the app's
session (recording too) takes control, answers and hands back; the program then exits.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest

from observer.auth.tokens import Authenticator, TokenDigests
from observer.credentials.store import Secret
from observer.server import Server
from observer.transport.settings import ConnectionSettings
from tests.client_support import live_link
from tests.waiting import until

pytestmark = pytest.mark.timeout(90)

QUESTION = (
    "import sys, time\n"
    "print('Proceed? [y/N] ', end='', flush=True)\n"
    "answer = sys.stdin.readline().strip()\n"
    "print(f'answered {answer}', flush=True)\n"
    "time.sleep(0.5)\n"
)


def observer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "observer", *args], capture_output=True, text=True, timeout=60
    )


async def test_a_takeover_is_exported_and_rendered_from_both_recorders(tmp_path: Path) -> None:
    token = secrets.token_urlsafe(16)
    server = Server(
        [sys.executable, "-c", QUESTION],
        auth=Authenticator(TokenDigests.from_tokens([("control", token)])),
        identifiers=("agent",),
        size=(60, 10),
    )
    await server.start()
    headless, app_side = tmp_path / "headless.cast", tmp_path / "app.cast"
    url = f"ws://127.0.0.1:{server.port}/"
    recorder = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "observer", "record", url, "--identifier", "agent", "-o", str(headless)),
        *("--duration", "40"),
        env={**os.environ, "OBSERVER_TOKEN": token},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    settings = ConnectionSettings(url, identifier="agent", protocol="observer")
    link = live_link(settings, Secret(token), record=app_side, record_input=True)
    session = link.session
    runner = asyncio.create_task(link.run())
    try:
        await until(lambda: headless.exists(), "the headless recording", 30)
        await until(lambda: session.status(0).connection == "connected", "the connection", 30)
        assert session.take(time.monotonic())
        await until(lambda: session.in_control, "control", 30)
        session.type(b"y\r", time.monotonic())
        ring = server.sessions["agent"].ring
        await until(lambda: b"answered y" in ring.since(ring.start), "the agent's answer", 30)
        session.release(time.monotonic())
        await until(lambda: session.status(0).exited, "the program's exit", 30)
        _, err = await asyncio.wait_for(recorder.communicate(), 30)
        assert recorder.returncode == 0, err
    finally:
        await link.close()
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)
        if recorder.returncode is None:
            recorder.kill()
        await server.stop()
    for cast, who in ((headless, "another client"), (app_side, "")):
        exported = observer("export", str(cast))
        assert exported.returncode == 0, exported.stderr
        assert "1 takeover(s)" in exported.stdout, (cast.name, exported.stdout)
        rendered = observer("render", str(cast), "--at-marker", "takeover", "--format", "text")
        assert rendered.returncode == 0, rendered.stderr
        assert "Proceed?" in rendered.stdout
        markers = observer("export", str(cast)).stdout
        assert f"takeover start{': ' + who if who else ''}" in markers
    assert "typed: y⏎" in observer("export", str(app_side)).stdout
