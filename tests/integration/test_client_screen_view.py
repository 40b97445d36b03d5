"""A tile's session against a real server on 127.0.0.1: the screen view end to end.

The real transport (:class:`~observer.transport.connection.Connection`) drives the session core
and the app's feeder parses what it receives, as on a dashboard. The agent ticks until the test
tells it (through files) to stop or to ask for permission with OSC 9.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from observer.app.feeder import feed
from observer.client.events import PeerEventApplied, ScreenChanged, SessionEvent
from observer.client.watched import WatchedSession
from observer.credentials.store import Secret
from observer.protocol.events import OutputReceived, ScreenReceived, SnapshotReceived
from observer.recording.file_policy import recording_policy
from observer.server import Server
from observer.transport.connection import Connection
from observer.transport.settings import ConnectionSettings
from tests.integration.server_support import CONTROL_TOKEN, model_text, running_server, wait_for

pytestmark = pytest.mark.timeout(60)

AGENT = """
import os, sys, time
folder = sys.argv[1]
n = 0
while not os.path.exists(os.path.join(folder, "stop")):
    n += 1
    sys.stdout.write(f"tick {n}\\r\\n"); sys.stdout.flush(); time.sleep(0.02)
sys.stdout.write("$ "); sys.stdout.flush()
while not os.path.exists(os.path.join(folder, "notify")):
    time.sleep(0.02)
sys.stdout.write("\\x1b]9;Claude needs your permission to use Bash\\x07"); sys.stdout.flush()
time.sleep(60)
"""


class Tile:
    """A session as a dashboard tile holds it, with everything it saw."""

    def __init__(self, server: Server, session: WatchedSession) -> None:
        self.session = session
        self.events: list[object] = []
        settings = ConnectionSettings(
            url=f"ws://127.0.0.1:{server.port}/", identifier="default", protocol="observer"
        )
        self.connection = Connection(settings, session, Secret(CONTROL_TOKEN))
        self.texts: list[list[str]] = []

    def drain(self, events: list[SessionEvent]) -> None:
        """What the core queued: the peer's events in order, and the screen at each change."""
        for event in events:
            if isinstance(event, PeerEventApplied):
                self.events.append(event.event)
            elif isinstance(event, ScreenChanged):
                self.texts.append(self.session.model.text())

    def of(self, kind: type, since: int = 0) -> list[object]:
        return [e for e in self.events[since:] if isinstance(e, kind)]


@contextlib.asynccontextmanager
async def tile_of(server: Server, session: WatchedSession) -> AsyncIterator[Tile]:
    tile = Tile(server, session)
    ended = asyncio.Event()
    running = asyncio.create_task(tile.connection.run())
    feeding = asyncio.create_task(
        feed(tile.connection, clock=time.monotonic, ended=ended, drain=tile.drain)
    )
    try:
        yield tile
    finally:
        await tile.connection.close()
        ended.set()
        tile.connection.received.set()
        await asyncio.gather(running, feeding, return_exceptions=True)


def viewers(server: Server) -> int:
    return sum(c.screen is not None for c in server.sessions["default"].clients)


async def test_a_tile_gets_frames_opening_it_continues_the_stream_and_back_again(
    tmp_path: Path,
) -> None:
    command = [sys.executable, "-c", AGENT, str(tmp_path)]
    async with running_server(command, size=(60, 12)) as server:
        session = WatchedSession(identifier="default", scrollback=0, log_peer_events=True)
        session.choose_view("screen")
        async with tile_of(server, session) as tile:
            await wait_for(lambda: len(tile.of(ScreenReceived)) >= 3 and viewers(server) == 1)
            first = tile.events.index(tile.of(ScreenReceived)[0])
            assert not tile.of(OutputReceived, first + 1)  # no bytes in the screen view
            assert any(line.startswith("tick ") for line in session.model.text())

            # Open the tile: the stream goes on from the last frame, the screen never blank.
            mark, shown = len(tile.events), len(tile.texts)
            session.choose_view("stream")
            await wait_for(lambda: bool(tile.of(SnapshotReceived, mark)))
            await wait_for(lambda: len(tile.of(OutputReceived, mark)) >= 5)
            later = tile.events[mark:]
            snapshot = tile.of(SnapshotReceived, mark)[0]
            before = [e for e in later[: later.index(snapshot)] if isinstance(e, ScreenReceived)]
            assert isinstance(snapshot, SnapshotReceived)
            if before:  # the server's last frame stands where the snapshot does
                assert before[-1].offset == snapshot.offset  # type: ignore[attr-defined]
            assert not snapshot.gap and session.status(time.monotonic()).gaps == 0
            assert viewers(server) == 0 and session.view == "stream"
            assert all(any(r.startswith("tick ") for r in text) for text in tile.texts[shown:])
            (tmp_path / "stop").touch()
            await wait_for(lambda: session.model.text() == model_text(server))

            # Back on the dashboard: the screen again, and the agent's notification still
            # reaches the tile although it changes nothing on the screen.
            mark = len(tile.events)
            session.choose_view("screen")
            await wait_for(lambda: viewers(server) == 1 and bool(tile.of(ScreenReceived, mark)))
            await wait_for(lambda: session.model.text() == model_text(server))  # once parsed
            (tmp_path / "notify").touch()
            await wait_for(lambda: session.status(time.monotonic()).attention is not None)
            attention = session.status(time.monotonic()).attention
            assert attention is not None
            assert attention.text == "Claude needs your permission to use Bash"
            assert not tile.of(OutputReceived, mark + 1)


async def test_a_recorded_session_keeps_the_stream_whatever_its_view_asks(
    tmp_path: Path,
) -> None:
    command = [sys.executable, "-c", AGENT, str(tmp_path)]
    async with running_server(command, size=(60, 12)) as server:
        policy = recording_policy(tmp_path / "tile.cast", identifier="default", endpoint="ws://x")
        session = WatchedSession(
            identifier="default", scrollback=0, recording=policy, log_peer_events=True
        )
        session.choose_view("screen")
        async with tile_of(server, session) as tile:
            await wait_for(lambda: len(tile.of(OutputReceived)) >= 20)
            assert viewers(server) == 0 and not tile.of(ScreenReceived)
            assert session.view == "stream"
        assert "tick 1" in (tmp_path / "tile.cast").read_text()
