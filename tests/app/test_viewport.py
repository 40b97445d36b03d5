"""The visible part of a remote terminal: centred when smaller, cropped around the cursor when
larger, moved where the user scrolled or panned it, and what a crop hides."""

from __future__ import annotations

from observer.app.widgets.scrolling import Scroll
from observer.app.widgets.viewport import Crop, Geometry, Window, bottom, crop, window
from observer.terminal import Cell


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
    assert window(geometry(width=100, height=30)) == Window(0, 24, 3, -10)


def test_a_larger_remote_screen_is_cropped_to_keep_the_cursor_in_view() -> None:
    shown = window(geometry(cols=200, rows=60, cursor_x=150, cursor_y=50, width=80, height=24))
    assert shown == Window(27, 24, 0, 71)
    assert shown.first <= 50 < shown.first + shown.count
    assert shown.left <= 150 < shown.left + 80


def test_with_the_cursor_near_the_origin_the_crop_starts_there() -> None:
    assert window(geometry(cols=200, rows=60, width=80, height=24)) == Window(0, 24, 0, 0)


def test_the_crop_depends_on_the_cursor_alone() -> None:
    g = geometry(rows=60, cursor_y=30, height=20)
    assert window(g) == window(g) == Window(11, 20, 0, 0)


def test_a_chosen_top_shows_lines_above_a_bar_row_within_what_there_is() -> None:
    g = geometry(history=100, height=24)
    assert window(g, top=91) == Window(91, 23, 0, 0)
    assert window(g, top=-5).first == 0
    assert window(g, top=1000) == Window(bottom(g), 23, 0, 0) == Window(101, 23, 0, 0)


def test_a_chosen_left_pans_a_wide_screen_and_means_nothing_on_a_narrow_one() -> None:
    wide = geometry(cols=200, width=80)
    assert window(wide, left=50).left == 50
    assert window(wide, left=500).left == 120  # the last 80 columns
    assert window(geometry(cols=60, width=80), left=30).left == -10  # still centred


def test_the_crop_says_the_sizes_and_which_sides_are_hidden() -> None:
    g = geometry(cols=120, rows=40, cursor_x=119, cursor_y=39, width=98, height=27)
    hidden = crop(g, window(g))
    assert hidden == Crop(120, 40, 98, 27, left=True, right=False, up=True, down=False)
    assert hidden.cropped
    assert hidden.describe() == "cropped 120x40 → 98x27 ◀▲"
    assert not crop(geometry(), window(geometry())).cropped


def row(text: str) -> tuple[Cell, ...]:
    return tuple(Cell(char) for char in text)


def test_scrolling_up_from_live_moves_by_the_lines_asked_and_back_down_to_live() -> None:
    g = geometry(rows=10, height=11, history=30)  # the screen fits: the bar row is the 11th
    scroll, history = Scroll(), [row(f"line {n}") for n in range(30)]
    scroll.scroll(3, g, history)
    assert scroll.top == 27 and scroll.scrolled
    scroll.scroll(-2, g, history)
    assert scroll.top == 29
    scroll.scroll(-1, g, history)
    assert not scroll.scrolled  # at the bottom again: live


def test_scrolling_with_nothing_to_scroll_to_stays_live() -> None:
    scroll = Scroll()
    scroll.scroll(5, geometry(rows=10, height=20), [])
    assert not scroll.scrolled


def test_panning_a_tall_screen_continues_from_where_the_cursor_had_it() -> None:
    g = geometry(rows=40, height=20, cursor_y=2)  # following the cursor shows rows 0..19
    scroll = Scroll()
    scroll.scroll(-5, g, [])
    assert window(g, scroll.top).first == 5


def test_while_scrolled_new_lines_keep_the_view_still_and_are_counted() -> None:
    g = geometry(rows=5, height=6, history=10)
    history = [row(f"line {n}") for n in range(10)]
    scroll = Scroll()
    scroll.follow(history)
    scroll.scroll(4, g, history)
    top = scroll.top
    history += [row("new 1"), row("new 2")]  # the scrollback grows: indexes stay
    scroll.follow(history)
    assert scroll.top == top and scroll.new_lines == 2
    full = [*history[3:], row("new 3"), row("new 4"), row("new 5")]  # full: 3 in, 3 out
    scroll.follow(full)
    assert scroll.new_lines == 5
    assert scroll.top is not None and top is not None and full[scroll.top] == history[top]
