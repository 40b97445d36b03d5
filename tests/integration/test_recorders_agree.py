"""Both recorders (the app's ``watch --record``, which ``demo --record`` shares, and the headless
``observer record``) write the same markers, and what ``export`` and ``render --at-marker`` read.

A real server runs a program that notifies (OSC 9) and asks a question; the headless recorder
watches while the app's session (recording too, parsed by the app's feeder) takes control, which
resizes the terminal to its view, answers and hands back; the program then exits.
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

from observer.app.feeder import feed
from observer.asciicast import CastReader
from observer.asciicast.markers import kind_of
from observer.auth.tokens import Authenticator, TokenDigests
from observer.commands.watch import build_link
from observer.credentials.store import Secret
from observer.runtime.config import Profile
from observer.server import Server
from tests.waiting import until

pytestmark = pytest.mark.timeout(90)

QUESTION = (
    "import os, sys, time\n"
    "while not os.path.exists(sys.argv[1]):\n"
    "    time.sleep(0.02)\n"
    "print('\\x1b]9;needs you\\x07Proceed? [y/N] ', end='', flush=True)\n"
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
        [sys.executable, "-c", QUESTION, str(tmp_path / "go")],
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
    profile = Profile(name="", url=url, identifier="agent", protocol="observer")
    link = build_link(profile, record=app_side, record_input=True, token=Secret(token))
    session = link.session
    runner = asyncio.create_task(link.run())
    ended = asyncio.Event()
    feeder = asyncio.create_task(feed(link, clock=time.monotonic, ended=ended))
    try:
        await until(lambda: headless.exists(), "the headless recording", 30)
        await until(lambda: session.status(0).connection == "connected", "the connection", 30)
        await until(lambda: len(server.sessions["agent"].clients) == 2, "both recorders", 30)
        (tmp_path / "go").touch()  # the program notifies and asks once both watch
        await until(lambda: "Proceed?" in "\n".join(session.model.text()), "the question", 30)
        assert session.take(time.monotonic())
        await until(lambda: session.in_control, "control", 30)
        session.view_resized(72, 12, time.monotonic())  # in control, the PTY follows the view
        await until(lambda: session.model.cols == 72, "the resize", 30)
        session.type(b"y\r", time.monotonic())
        ring = server.sessions["agent"].ring
        await until(lambda: b"answered y" in ring.since(ring.start), "the agent's answer", 30)
        session.release(time.monotonic())
        await until(lambda: session.status(0).exited, "the program's exit", 30)
        _, err = await asyncio.wait_for(recorder.communicate(), 30)
        assert recorder.returncode == 0, err
    finally:
        ended.set()
        link.received.set()
        await asyncio.wait_for(feeder, 10)
        await link.close()
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)
        if recorder.returncode is None:
            recorder.kill()
        await server.stop()
    headless_markers, app_markers = markers(headless), markers(app_side)
    assert [kind for kind, _ in headless_markers] == [kind for kind, _ in app_markers]
    assert ("notification", "notification: needs you") in headless_markers
    assert ("notification", "notification: needs you") in app_markers
    assert resizes(headless) == resizes(app_side) == ["72x12"]
    for cast, who in ((headless, "another client"), (app_side, "")):
        exported = observer("export", str(cast))
        assert exported.returncode == 0, exported.stderr
        assert "1 takeover(s)" in exported.stdout, (cast.name, exported.stdout)
        rendered = observer("render", str(cast), "--at-marker", "takeover", "--format", "text")
        assert rendered.returncode == 0, rendered.stderr
        assert "Proceed?" in rendered.stdout
        exported_markers = observer("export", str(cast)).stdout
        assert f"takeover start{': ' + who if who else ''}" in exported_markers
    assert "typed: y⏎" in observer("export", str(app_side)).stdout


def events(path: Path) -> list[tuple[str, str]]:
    with path.open(encoding="utf-8") as stream:
        return [(event.code, event.data) for event in CastReader(stream)]


def markers(path: Path) -> list[tuple[str, str]]:
    """Each marker's kind and label, in order."""
    found = [data for code, data in events(path) if code == "m"]
    return [(getattr(kind_of(label), "value", ""), label) for label in found]


def resizes(path: Path) -> list[str]:
    return [data for code, data in events(path) if code == "r"]
