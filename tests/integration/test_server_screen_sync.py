"""Screen-sync on a real server: a tile's cost is bounded by its frame rate, not the agent's rate;
switching back to the stream continues it with no gap.
"""

from __future__ import annotations

import time

import pytest

from observer.protocol.events import OutputReceived, ScreenReceived, SnapshotReceived
from observer.protocol.screen_view import ScreenView
from observer.terminal import TerminalModel
from tests.integration.server_support import (
    Observer,
    close_draining,
    model_text,
    observe,
    running_server,
    wait_for,
)

pytestmark = pytest.mark.timeout(60)
FLOOD = ["sh", "-c", 'i=0; while true; do i=$((i+1)); echo "line $i of a busy build log"; done']
TICKER = ["sh", "-c", 'i=0; while true; do i=$((i+1)); echo "tick $i"; sleep 0.01; done']


def screens(client: Observer) -> list[ScreenReceived]:
    return [e for e in client.events if isinstance(e, ScreenReceived)]


async def test_a_tile_gets_at_most_fps_frames_a_second_whatever_the_agent_prints() -> None:
    async with running_server(FLOOD, size=(80, 24)) as server, observe(server) as tile:
        await tile.send(tile.session.encode_view("screen", 5))
        await tile.until(lambda c: bool(screens(c)))
        count, received = len(tile.events), len(tile.stream)
        began = time.monotonic()
        await tile.until(lambda c: time.monotonic() - began > 2.0, timeout=10)
        elapsed = time.monotonic() - began
        later = tile.events[count:]
        frames = [e for e in later if isinstance(e, ScreenReceived)]
        assert 2 <= len(frames) <= 5 * elapsed + 1, len(frames)
        assert not any(isinstance(e, OutputReceived) for e in later)  # no bytes in this view
        assert len(tile.stream) == received
        produced = server.sessions["default"].ring.end
        assert produced > 1_000_000  # the agent printed megabytes meanwhile...
        size = sum(len(t) for e in frames for _, t in e.lines)
        assert size < 5 * elapsed * 24 * 200  # ...the tile got at most its rows per frame
        await close_draining(tile.ws)


async def test_the_tile_shows_the_servers_screen() -> None:
    command = [
        "sh",
        "-c",
        "printf '\\033[1;32mgreen\\033[0m\\r\\nwide \\344\\275\\240\\r\\n'; sleep 30",
    ]
    async with running_server(command, size=(60, 10)) as server, observe(server) as tile:
        await wait_for(lambda: "wide" in "".join(model_text(server)))
        await tile.send(tile.session.encode_view("screen", 10))
        view, model = ScreenView(), TerminalModel(60, 10, scrollback=0)
        await tile.until(lambda c: bool(screens(c)))
        for event in screens(tile):
            model.feed(view.repaint(view.apply(event)))
        assert model.text() == model_text(server)
        server_model = server.sessions["default"].model
        assert model.line(0) == server_model.line(0)  # type: ignore[attr-defined]


async def test_switching_back_to_the_stream_continues_it_with_no_gap() -> None:
    async with running_server(TICKER, size=(80, 24)) as server, observe(server) as tile:
        await tile.send(tile.session.encode_view("screen", 10))
        await tile.until(lambda c: len(screens(c)) >= 3)
        mark = len(tile.events)
        await tile.send(tile.session.encode_view("stream"))
        await tile.until(
            lambda c: (
                any(isinstance(e, SnapshotReceived) for e in c.events[mark:])
                and len(c.stream) > 200
            )
        )
        later = tile.events[mark:]
        snapshot_at = next(i for i, e in enumerate(later) if isinstance(e, SnapshotReceived))
        last_screen = [e for e in later[:snapshot_at] if isinstance(e, ScreenReceived)][-1]
        snapshot = later[snapshot_at]
        assert isinstance(snapshot, SnapshotReceived)
        assert snapshot.offset == last_screen.offset and not snapshot.gap
        # From the snapshot on, exactly the server's bytes, in order.
        ring = server.sessions["default"].ring
        assert tile.stream_start == snapshot.offset
        assert bytes(tile.stream) == ring.since(snapshot.offset)[: len(tile.stream)]


async def test_a_stalled_tile_costs_at_most_its_frame_rate_and_never_slows_a_watcher() -> None:
    async with (
        running_server(FLOOD, size=(200, 60)) as server,
        observe(server) as tile,
        observe(server) as watcher,
    ):
        await tile.send(tile.session.encode_view("screen", 30))
        await wait_for(
            lambda: any(c.screen is not None for c in server.sessions["default"].clients)
        )
        began = time.monotonic()
        before = len(watcher.stream)
        await watcher.until(lambda c: len(c.stream) > before + 200_000)  # the tile reads nothing
        stalled = time.monotonic() - began
        feed = next(c.screen for c in server.sessions["default"].clients if c.screen is not None)
        assert feed.frames <= 30 * stalled + 2
        await tile.until(lambda c: len(screens(c)) >= 2)  # reading again, it gets frames
        offsets = [e.offset for e in screens(tile)]
        assert offsets == sorted(offsets)
        tile.ws.transport.abort()
        await close_draining(watcher.ws)
