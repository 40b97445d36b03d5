"""The tile view on its own: which view is asked, and rows painted when they are read."""

from __future__ import annotations

import json

from observer.client.attention import AttentionTracker
from observer.client.events import Outlet
from observer.client.parse_queue import ParseQueue
from observer.client.tile_view import TILE_FPS, TileView
from observer.protocol.adapters.native import NativeAdapter
from observer.protocol.events import ScreenReceived
from tests.unit.client.drive import lifecycle

ROWS = 6


def tile(*, recorded: bool = False) -> tuple[TileView, ParseQueue, Outlet]:
    outlet = Outlet()
    life = lifecycle(outlet, (10, ROWS))
    queue = ParseQueue(
        life, outlet, AttentionTracker(), None, size=(10, ROWS), scrollback=0, show=True
    )
    view = TileView(life, queue, outlet, recorded=recorded)
    life.opened(NativeAdapter(), 0.0)
    view.connection_opened()
    return view, queue, outlet


def frame(rows: dict[int, str], *, full: bool = False) -> ScreenReceived:
    lines = tuple((y, f"\x1b[{y + 1};1H{text}") for y, text in rows.items())
    return ScreenReceived(0, 10, ROWS, full, lines, (0, ROWS - 1), True, "")


def feed(queue: ParseQueue) -> None:
    while queue.pending:
        queue.feed(1 << 20, 0.0)


def test_a_tile_asks_for_the_screen_and_the_full_view_for_the_stream() -> None:
    view, _, outlet = tile()
    view.choose("screen", TILE_FPS)
    view.choose("stream", TILE_FPS)
    asked = [json.loads(str(m)) for m in outlet.data_to_send()]
    assert asked == [
        {"type": "view", "view": "screen", "fps": TILE_FPS},
        {"type": "view", "view": "stream"},
    ]


def test_a_recorded_session_never_asks_for_the_screen() -> None:
    view, _, outlet = tile(recorded=True)
    view.choose("screen", TILE_FPS)
    assert not view.allowed() and outlet.data_to_send() == [] and view.asked == "stream"


def test_rows_outside_the_crop_wait_until_they_are_shown() -> None:
    view, queue, _ = tile()
    view.choose("screen", TILE_FPS)
    view.show_rows(lambda cols, rows, x, y: range(rows - 2, rows))  # the bottom two rows
    view.frame(frame({y: f"row {y}" for y in range(ROWS)}, full=True))
    feed(queue)
    view.frame(frame({0: "top", 5: "bottom"}))
    feed(queue)
    assert queue.model.text()[5] == "bottom" and queue.model.text()[0] == "row 0"
    view.show_rows(None)  # the whole screen is shown now: the waiting row is painted
    assert queue.model.text()[0] == "top"
