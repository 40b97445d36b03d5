"""The app under an agent's output flood, against a real ``observer.v1`` server and a real PTY.

The program in the PTY writes numbered lines as fast as it can (far faster than the client can
parse them), logging every byte it reads on stdin to a file, then prints an end marker and waits.
"""

from __future__ import annotations

import asyncio
import secrets
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual import events

from observer.app.app import ObserverApp
from observer.auth.tokens import Authenticator, TokenDigests
from observer.credentials.store import Secret
from observer.server import Server
from observer.terminal import TerminalModel
from observer.transport.connection import Connection
from observer.transport.settings import ConnectionSettings
from tests.client_support import Client, live_link
from tests.waiting import until

LINES = 400_000
SIZE = (80, 24)
FLOODER = """
import os, sys, threading, time, tty
tty.setraw(0)
log, go, lines = open(sys.argv[1], "ab", buffering=0), sys.argv[2], int(sys.argv[3])
def keep_input():
    while data := os.read(0, 1024):
        log.write(data)
threading.Thread(target=keep_input, daemon=True).start()
out = os.fdopen(1, "wb")
out.write(b"ready> "); out.flush()
while not os.path.exists(go):
    time.sleep(0.005)
for start in range(0, lines, 2000):
    out.write(b"".join(b"line %07d of the flood\\r\\n" % n for n in range(start, start + 2000)))
    out.flush()
out.write(b"END-OF-FLOOD"); out.flush()
threading.Event().wait()
"""


def flood_bytes() -> bytes:
    body = b"".join(b"line %07d of the flood\r\n" % n for n in range(LINES))
    return b"ready> " + body + b"END-OF-FLOOD"


class Flood:
    def __init__(self, server: Server, token: str, folder: Path) -> None:
        self.server, self.token, self.folder = server, token, folder

    def settings(self) -> ConnectionSettings:
        url = f"ws://127.0.0.1:{self.server.port}/"
        return ConnectionSettings(url=url, identifier="t", protocol="observer")

    def source(self) -> Connection:
        return live_link(self.settings(), Secret(self.token))

    def go(self) -> None:
        (self.folder / "go").touch()

    def received(self) -> bytes:
        keys = self.folder / "keys"
        return keys.read_bytes() if keys.exists() else b""


@pytest.fixture
async def flood(tmp_path: Path) -> AsyncIterator[Flood]:
    token = secrets.token_urlsafe(16)
    command = [sys.executable, "-c", FLOODER, str(tmp_path / "keys"), str(tmp_path / "go")]
    server = Server(
        [*command, str(LINES)],
        auth=Authenticator(TokenDigests.from_tokens([("control", token)])),
        identifiers=("t",),
        size=SIZE,
    )
    await server.start()
    try:
        yield Flood(server, token, tmp_path)
    finally:
        await server.stop()


async def test_a_flood_ends_on_the_exact_final_screen_with_no_gap(flood: Flood) -> None:
    """Whether the client keeps up or resyncs depends on the machine's load; either way the
    final screen is exact and a resync's snapshot is not reported as output lost in transit.
    (When it resyncs is checked, deterministically, by the pump's own tests.)"""
    app = ObserverApp([flood.source()])
    async with app.run_test(size=(SIZE[0] + 2, SIZE[1] + 3)):
        session = app.links[0].session
        await until(lambda: "ready>" in "".join(session.model.text()), "the prompt")
        flood.go()
        await until(lambda: "END-OF-FLOOD" in "".join(session.model.text()), "the end marker", 60)
        reference = TerminalModel(*SIZE)
        reference.feed(flood_bytes())
        assert session.model.text() == reference.text()
        assert session.status(0).gaps == 0  # a resync's snapshot is not output lost in transit


async def test_keys_typed_in_control_reach_the_pty_during_a_flood(flood: Flood) -> None:
    app = ObserverApp([flood.source()])
    async with app.run_test(size=(SIZE[0] + 2, SIZE[1] + 3)) as pilot:
        session = app.links[0].session
        await until(lambda: "ready>" in "".join(session.model.text()), "the prompt")
        await pilot.press("ctrl+t", "y")
        await until(lambda: session.in_control, "control")
        flood.go()
        typed = b""
        for character in "abcdefghij":
            # As the driver delivers a key: posted to the app, routed to the focused view.
            app.post_message(events.Key(character, character))
            typed += character.encode()
            await asyncio.sleep(0.02)  # typing at a person's pace while the flood runs
        await until(lambda: flood.received() == typed, "the keys at the PTY", 60)
        await until(lambda: "END-OF-FLOOD" in "".join(session.model.text()), "the end marker", 60)


async def test_the_session_counts_output_received_but_not_yet_parsed(flood: Flood) -> None:
    """One inbox, one counter: what the connection received waits in the core until fed."""
    client = Client(flood.settings(), Secret(flood.token))
    session = client.session
    events = client.events()
    try:
        await anext(events)  # connected: the receive loop runs from now on
        flood.go()
        await until(lambda: session.backlog > 100_000, "output piling up unparsed")
        while "END-OF-FLOOD" not in "".join(session.model.text()):
            if session.pending:
                session.feed(1 << 20, 0.0)
            else:
                await asyncio.sleep(0.01)  # until more of the flood arrives
        assert session.backlog == 0 and not session.pending
    finally:
        await client.close()
        await events.aclose()
