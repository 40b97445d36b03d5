"""A real ``observer serve`` whose agent, when told, prints a payload (a dialog, a notification),
watched by the app with a notify command that keeps its standard input, its environment and the
time it ran (for the notify command's tests and its hostile test)."""

from __future__ import annotations

import json
import os
import secrets
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from observer.app.app import ObserverApp
from observer.app.notify_command import NotifyTarget
from observer.app.widgets.status_bar import StatusBar
from observer.auth.tokens import Authenticator, TokenDigests
from observer.credentials.store import Secret
from observer.server import Server
from observer.transport.settings import ConnectionSettings
from tests.client_support import live_link
from tests.waiting import until

AGENT = """
import os, sys, threading, time
payload, trigger, printed = sys.argv[1:4]
while not os.path.exists(trigger):
    time.sleep(0.01)
with open(payload, "rb") as f:
    os.write(1, f.read())
with open(printed, "w") as f:
    f.write(repr(time.time()))
threading.Event().wait()
"""
KEEP = 'cat > "$OUT/stdin.json"; env | grep ^OBSERVER_NOTIFY_ > "$OUT/env"; date +%s.%N > "$OUT/at"'
NOTIFICATION = "\x1b]9;Claude needs your permission to use Bash\x07"


@dataclass
class Agent:
    server: Server
    token: str
    folder: Path

    def go(self) -> None:
        (self.folder / "go").touch()

    def told(self) -> dict[str, object] | None:
        at = self.folder / "at"
        if not at.exists() or not at.read_text().strip():
            return None
        data: dict[str, object] = json.loads((self.folder / "stdin.json").read_text())
        data["delay"] = float(at.read_text()) - float((self.folder / "printed").read_text())
        return data

    def app(self, command: str = KEEP) -> ObserverApp:
        url = f"ws://127.0.0.1:{self.server.port}/"
        settings = ConnectionSettings(url=url, identifier="agent", protocol="observer")
        link = live_link(settings, Secret(self.token), label="build")
        target = NotifyTarget(command, "build", "agent", url)
        return ObserverApp(
            [link], notify={id(link): target}, environ={**os.environ, "OUT": str(self.folder)}
        )


async def running_agent(folder: Path, payload: str) -> AsyncIterator[Agent]:
    token = secrets.token_urlsafe(16)
    (folder / "payload").write_bytes(payload.encode())
    files = [str(folder / name) for name in ("payload", "go", "printed")]
    server = Server(
        [sys.executable, "-c", AGENT, *files],
        auth=Authenticator(TokenDigests.from_tokens([("control", token)])),
        identifiers=("agent",),
        size=(80, 24),
    )
    await server.start()
    try:
        yield Agent(server, token, folder)
    finally:
        await server.stop()


async def told_after_going(agent: Agent, command: str = KEEP) -> dict[str, object]:
    """Watch ``agent``, tell it to print, and return what the notify command was told."""
    app = agent.app(command)
    async with app.run_test(size=(80, 24)):
        bar = app.screen.query_one(StatusBar)
        await until(lambda: "connected" in bar.render().plain, "the connection")
        agent.go()
        told = await until(agent.told, "the notify command", timeout=60)
        assert told is not None
        return told
