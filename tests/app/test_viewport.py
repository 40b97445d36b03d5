"""The visible part of a remote terminal: centred when smaller, cropped around the cursor when larger."""

from __future__ import annotations

from observer.app.widgets.viewport import Geometry, Window, clamp_back, window


def geometry(**changes: int) -> Geometry:
    base = {
        "cols": 80,
        "rows": 24,
        "cursor_x": 0,
        "cursor_y": 0,
        "history": 0,
        "width": 80,
        "height": 24,
    }
    return Geometry(**{**base, **changes})


def test_a_smaller_remote_screen_is_centred() -> None:
    assert window(geometry(width=100, height=30), 0) == Window(0, 24, 3, -10)


def test_a_larger_remote_screen_is_cropped_to_keep_the_cursor_in_view() -> None:
    shown = window(geometry(cols=200, rows=60, cursor_x=150, cursor_y=50, width=80, height=24), 0)
    assert shown == Window(27, 24, 0, 71)
    assert shown.first <= 50 < shown.first + shown.count
    assert shown.left <= 150 < shown.left + 80


def test_with_the_cursor_near_the_origin_the_crop_starts_there() -> None:
    assert window(geometry(cols=200, rows=60, width=80, height=24), 0) == Window(0, 24, 0, 0)


def test_the_crop_depends_on_the_cursor_alone() -> None:
    g = geometry(rows=60, cursor_y=30, height=20)
    assert window(g, 0) == window(g, 0) == Window(11, 20, 0, 0)


def test_scrolled_back_shows_history_above_a_bar_row() -> None:
    g = geometry(history=100, height=24)
    assert window(g, 10) == Window(91, 23, 0, 0)


def test_scrolling_back_stops_at_the_oldest_line() -> None:
    g = geometry(history=100, height=24)
    assert clamp_back(g, 1000) == 101
    assert window(g, clamp_back(g, 1000)).first == 0
    assert clamp_back(g, -3) == 0
