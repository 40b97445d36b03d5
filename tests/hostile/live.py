"""The live path for the hostile suite: a real server, a PTY agent that prints a payload file,
a real client ``Connection`` and the app in ``App.run_test`` with a driver that keeps every byte
the app writes for the host terminal.

The agent puts its terminal in raw mode and appends every byte it reads to a log, so "what reached
the PTY" is checked on the server's side, byte for byte.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

from textual.drivers.headless_driver import HeadlessDriver

from observer.app.app import ObserverApp
from observer.app.widgets.status_bar import StatusBar
from observer.app.widgets.terminal_view import TerminalView
from observer.auth.tokens import Authenticator, TokenDigests
from observer.credentials.store import Secret
from observer.server import Server
from observer.transport.connection import Connection
from observer.transport.settings import ConnectionSettings
from tests import waiting
from tests.client_support import live_link

HOSTILE_AGENT = """
import os, sys, threading, time, tty
tty.setraw(0)
log, payload, trigger = open(sys.argv[1], "ab", buffering=0), sys.argv[2], sys.argv[3]
def keep_input():
    while data := os.read(0, 1024):
        log.write(data)
threading.Thread(target=keep_input, daemon=True).start()
out = os.fdopen(1, "wb")
out.write(b"ready> "); out.flush()
while not os.path.exists(trigger):
    time.sleep(0.02)
with open(payload, "rb") as f:
    out.write(f.read()); out.flush()
threading.Event().wait()
"""
SIZE = (80, 24)


class CapturingDriver(HeadlessDriver):
    """Textual's headless driver, except that the app renders and every write is kept.

    The headless driver makes the app skip rendering altogether; claiming not to be headless makes
    it produce exactly the output it would write to a real terminal.
    """

    written: list[str] = []

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        CapturingDriver.written.append(data)

    def flush(self) -> None:
        pass


@dataclass
class HostileAgent:
    server: Server
    token: str
    folder: Path
    payload: bytes
    port: int = 0
    triggered: bool = field(default=False)

    @property
    def keys(self) -> Path:
        return self.folder / "pty-input"

    def pty_input(self) -> bytes:
        return self.keys.read_bytes() if self.keys.exists() else b""

    def start_payload(self) -> None:
        (self.folder / "go").touch()

    def source(self) -> Connection:
        url = f"ws://127.0.0.1:{self.server.port}/"
        settings = ConnectionSettings(url=url, identifier="agent", protocol="observer")
        return live_link(settings, Secret(self.token), label=url)

    def server_text(self) -> list[str]:
        return self.server.sessions["agent"].model.text()  # type: ignore[attr-defined,no-any-return]


async def hostile_agent(folder: Path, payload: bytes) -> AsyncIterator[HostileAgent]:
    """A server whose only session runs the hostile agent (fixture body)."""
    token = secrets.token_urlsafe(16)
    (folder / "payload").write_bytes(payload)
    command = [
        sys.executable,
        "-c",
        HOSTILE_AGENT,
        str(folder / "pty-input"),
        str(folder / "payload"),
        str(folder / "go"),
    ]
    server = Server(
        command,
        auth=Authenticator(TokenDigests.from_tokens([("control", token)])),
        identifiers=("agent",),
        size=SIZE,
    )
    await server.start()
    try:
        yield HostileAgent(server, token, folder, payload)
    finally:
        await server.stop()


def capturing_app(agent: HostileAgent) -> ObserverApp:
    CapturingDriver.written = []
    app = ObserverApp([agent.source()])
    app.driver_class = CapturingDriver
    return app


def host_output() -> str:
    return "".join(CapturingDriver.written)


def screen_text(app: ObserverApp) -> str:
    view = app.screen.query_one(TerminalView)
    return "\n".join(view.render_line(y).text for y in range(view.size.height))


def status(app: ObserverApp) -> str:
    return app.screen.query_one(StatusBar).render().plain


async def until(condition: Callable[[], bool], what: str, timeout: float = 90.0) -> None:
    """Wait for ``condition``; the bound is generous because a busy machine can be very slow."""
    await waiting.until(condition, what, timeout, poll=0.05)


_barriers = 0


async def pty_barrier(agent: HostileAgent) -> bytes:
    """Write a marker to the PTY after everything the server has queued for it; wait until the
    agent logged it. Returns the marker: what the log holds before it is all that reached the PTY
    so far (input is written in order), however slow the machine is."""
    global _barriers
    _barriers += 1
    marker = b"\x00barrier %d\x00" % _barriers
    agent.server.sessions["agent"].write_input(marker)  # type: ignore[attr-defined]
    await until(lambda: agent.pty_input().endswith(marker), "the PTY barrier")
    return marker


async def server_barrier(app: ObserverApp) -> None:
    """Ask the server for a snapshot and wait for it: the server has then handled everything
    this client sent before (a connection's messages are handled in order)."""
    session = app.links[0].session
    before = session.snapshots
    assert session.resync()
    await until(lambda: session.snapshots > before, "the server's answer to a resync")


async def server_parsed_everything(agent: HostileAgent) -> None:
    """The server's own model has parsed the whole payload (so its answers are all queued)."""
    await until(lambda: "END-OF-HOSTILE" in "\n".join(agent.server_text()), "the server's model")
