"""One session recorded by both recorders: the headless ``observer record`` (a subprocess) and
the app's ``watch --record`` (its link built by ``observer watch``'s own builder, parsed by the
app's feeder), which ``demo --record`` shares.

A real server runs a program that notifies (OSC 9) and asks a question once both watch; the app's
session takes control, which resizes the terminal to its view (72x12), answers and hands back;
the program then exits.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, cast

from observer.app.feeder import feed
from observer.auth.tokens import Authenticator, TokenDigests
from observer.commands.watch import build_link
from observer.credentials.store import Secret
from observer.runtime.config import Profile
from observer.server import Server
from tests.waiting import until

if TYPE_CHECKING:
    from observer.asciicast import CastFormat

QUESTION = (
    "import os, sys, time\n"
    "while not os.path.exists(sys.argv[1]):\n"
    "    time.sleep(0.02)\n"
    "print('\\x1b]9;needs you\\x07Proceed? [y/N] ', end='', flush=True)\n"
    "answer = sys.stdin.readline().strip()\n"
    "print(f'answered {answer}', flush=True)\n"
    "time.sleep(0.5)\n"
)


async def record_both(folder: Path, *, format: str = "v2") -> tuple[Path, Path]:
    """Record one session with both recorders into ``folder``: (headless, app side)."""
    token = secrets.token_urlsafe(16)
    server = Server(
        [sys.executable, "-c", QUESTION, str(folder / "go")],
        auth=Authenticator(TokenDigests.from_tokens([("control", token)])),
        identifiers=("agent",),
        size=(60, 10),
    )
    await server.start()
    headless, app_side = folder / "headless.cast", folder / "app.cast"
    url = f"ws://127.0.0.1:{server.port}/"
    recorder = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "observer", "record", url, "--identifier", "agent", "-o", str(headless)),
        *("--duration", "40", "--format", format),
        env={**os.environ, "OBSERVER_TOKEN": token},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    profile = Profile(name="", url=url, identifier="agent", protocol="observer")
    link = build_link(
        profile, record=app_side, record_input=True, format=cast("CastFormat", format),
        token=Secret(token),
    )  # fmt: skip
    session = link.session
    runner = asyncio.create_task(link.run())
    ended = asyncio.Event()
    feeder = asyncio.create_task(feed(link, clock=time.monotonic, ended=ended))
    try:
        await until(lambda: headless.exists(), "the headless recording", 30)
        await until(lambda: session.status(0).connection == "connected", "the connection", 30)
        await until(lambda: len(server.sessions["agent"].clients) == 2, "both recorders", 30)
        (folder / "go").touch()  # the program notifies and asks once both watch
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
    return headless, app_side
