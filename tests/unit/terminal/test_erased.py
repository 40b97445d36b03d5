"""Frames that the next frame's erase empties are not drawn, and nobody can tell.

A model fed several frames of a UI that redraws by erasing its last frame (as Ink does) skips
the draws the erases after them empty (``observer.terminal.erased``). Every test compares it
with the same bytes fed one at a time, where nothing can be skipped: screen, cursor, pen, the
character a REP repeats, the rows' wrap flags, the scrollback and the repaint must all be the
same, whatever state came before and whatever comes after.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from observer.terminal import TerminalModel
from observer.terminal import erased as erased_module
from tests.unit.terminal.test_properties import FAST, _continuation, _screen_ops
from tests.unit.terminal.test_scrolled import (
    _modes,
    _one_at_a_time,
    _parsed,
    _same_as_every_byte,
    _state,
)

WORDS = [b"\x1b[38;2;%d;90;200mword%d" % (n * 20, n) for n in range(12)]


def _frame(n: int, rows: int = 10, first: bool = False) -> bytes:
    """An Ink-like frame of ``rows`` rows (the last without a line end), erasing the last."""
    erase = b"" if first else b"\x1b[2K\x1b[1A" * (rows - 1) + b"\x1b[2K\x1b[G"
    lines = [b" ".join(WORDS[(n + r + k) % 12] for k in range(5)) + b"\x1b[0m" for r in range(rows)]
    return erase + b"\r\n".join(lines)


def _frames(count: int, rows: int = 10) -> bytes:
    return b"".join(_frame(n, rows, first=n == 0) for n in range(count))


def _skipping() -> mock._patch[Any]:
    """Any feed may skip, however short and however little it draws (the defaults spare the
    scan on small ones)."""
    return mock.patch.multiple(erased_module, MIN_SKIPPED=0, MIN_FEED=0)


# -- random input: any state before, draws and erases, anything after --------------------------

_text = st.text(
    st.sampled_from([*"abc xyz|-_", "─", "\t", "一", "😀", "\u0301", "\ufe0f", "é", "\x85"]),
    max_size=30,
)
_sgr = st.sampled_from(["\x1b[0m", "\x1b[m", "\x1b[1m", "\x1b[31m", "\x1b[44m", "\x1b[0;7m",
                        "\x1b[48;2;1;2;3m", "\x1b[22;39m"])  # fmt: skip
_line = st.lists(st.one_of(_text, _sgr), max_size=5).map("".join)
_draw = st.tuples(
    st.lists(_line, max_size=8), st.lists(st.sampled_from(["\r\n", "\r\n", "\n", "\r"]), max_size=8)
).map(lambda parts: "".join(a + b for a, b in zip(parts[0], [*parts[1], ""], strict=False)))
_part = st.sampled_from(["\x1b[2K", "\x1b[1A", "\x1b[A", "\x1b[G", "\x1b[1G"])


@st.composite
def _erase(draw: st.DrawFn, text: str) -> str:
    """Ink's erase of ``text``'s rows (one more or fewer at times), or any erase parts."""
    if draw(st.booleans()):
        return "".join(draw(st.lists(_part, max_size=12)))
    rows = text.count("\n") + 1 + draw(st.sampled_from([0, 0, 0, 1, -1]))
    return (
        "\x1b[2K\x1b[1A" * max(rows - 1, 0)
        + "\x1b[2K"
        + draw(st.sampled_from(["\x1b[G", "\x1b[1G", ""]))
    )


@st.composite
def _redraws(draw: st.DrawFn) -> bytes:
    out = []
    for _ in range(draw(st.integers(1, 4))):
        text = draw(_draw)
        out.append(text + draw(_erase(text)))
    out.append(draw(_draw))
    return "".join(out).encode()


_sizes = (st.integers(2, 30), st.integers(1, 12), st.sampled_from([0, 0, 20]))


@settings(FAST, max_examples=300)
@given(_screen_ops, _modes, _redraws(), _continuation, *_sizes)
def test_skipping_the_draws_that_erases_empty_changes_nothing(
    before: bytes, mode: bytes, redraws: bytes, after: bytes, cols: int, rows: int, scrollback: int
) -> None:
    with _skipping():
        _same_as_every_byte(before + mode, redraws, after, cols, rows, scrollback)


@pytest.mark.slow
@settings(deadline=None, max_examples=5000, suppress_health_check=list(HealthCheck))
@given(_screen_ops, _modes, _redraws(), _continuation, *_sizes)
def test_skipping_the_draws_that_erases_empty_changes_nothing_thorough(
    before: bytes, mode: bytes, redraws: bytes, after: bytes, cols: int, rows: int, scrollback: int
) -> None:
    with _skipping():
        _same_as_every_byte(before + mode, redraws, after, cols, rows, scrollback)


@settings(deadline=None, max_examples=30, suppress_health_check=list(HealthCheck))
@given(_screen_ops, _modes, _continuation, st.integers(40, 120), st.integers(12, 40))
def test_ink_like_frames_fed_together_are_the_screen_every_byte_gives(
    before: bytes, mode: bytes, after: bytes, cols: int, rows: int
) -> None:
    _same_as_every_byte(before + mode, _frames(6), after, cols, rows, 100)


# -- what is skipped, and what is not -------------------------------------------------------


def test_frames_fed_together_cost_about_the_last_frame_s_parse() -> None:
    m = TerminalModel(120, 40)
    m.feed(b"$ agent\r\n")
    parsed = _parsed(m)
    frames = _frames(8)
    m.feed(frames)
    last = _frame(7)
    assert parsed[0] < 2 * len(last)
    reference = TerminalModel(120, 40)
    reference.feed(b"$ agent\r\n")
    _one_at_a_time(frames, reference)
    assert m.text() == reference.text()
    assert m.text()[1].startswith("word7 word8")


def test_a_row_drawn_to_the_last_column_is_skipped_too_its_wrap_only_pending() -> None:
    frames = _frames(8).replace(b"\x1b[0m\r\n", b"-" * 91 + b"\x1b[0m\r\n", 1)  # 120 columns
    m = TerminalModel(120, 40)
    parsed = _parsed(m)
    m.feed(frames)
    assert parsed[0] < 2 * len(_frame(7))
    reference = TerminalModel(120, 40)
    _one_at_a_time(frames, reference)
    assert _state(m) == _state(reference)


_ALL = len(_frames(8)) - 200  # (the last frame's erase of 8 frames is all that is left out)
_FIRST = len(_frame(0, first=True))  # the first frame: the frames after it may be skipped


@pytest.mark.parametrize(
    ("first", "frames", "drawn"),
    [
        (b"", _frames(8).replace(b"\x1b[0m\r\n", b"-" * 92 + b"\x1b[0m\r\n", 1), _FIRST),  # wraps
        (b"\x1b[35H", _frames(8), _FIRST),  # its line feeds scroll
        (b"", _frames(8).replace(b"\x1b[2K\x1b[1A", b"\x1b[1A", 1), _FIRST),  # a row left drawn
        (b"", _frames(8).replace(b"\x1b[G", b""), _ALL),  # the erase leaves the column
        (b"", _frames(8).replace(b" \x1b[", b"\t\x1b["), _ALL),  # a tab
        (b"", _frames(8).replace(b"word3", b"word3\x07"), _ALL),  # a bell
        (b"\x1b(0", _frames(8), _ALL),  # the line-drawing character set
        (b"\x1b[", _frames(8), _FIRST),  # a sequence unfinished
    ],
    ids=["wraps", "scrolls", "row left", "column left", "tab", "bell", "graphics", "unfinished"],
)
def test_draws_are_all_drawn_where_their_cells_may_be_seen_or_they_do_more_than_draw(
    first: bytes, frames: bytes, drawn: int
) -> None:
    """What cannot be skipped is parsed (the frames after an erase that follows it may still
    be skipped), and the screen is the one every byte gives."""
    m = TerminalModel(120, 40)
    m.feed(first)
    parsed = _parsed(m)
    m.feed(frames)
    assert parsed[0] >= drawn
    reference = TerminalModel(120, 40)
    _one_at_a_time(first + frames, reference)
    assert _state(m) == _state(reference)


def test_a_bell_in_a_frame_is_still_heard() -> None:
    m = TerminalModel(120, 40)
    m.feed(_frames(8).replace(b"word3", b"word3\x07", 1))
    assert m.bells == 1


def test_the_erase_empties_rows_in_the_background_the_draw_left() -> None:
    m = TerminalModel(20, 6)
    with _skipping():
        m.feed(b"a\r\nb\x1b[44m" + b"\x1b[2K\x1b[1A\x1b[2K\x1b[G" + b"c")
    assert [m.line(y)[5].bg for y in range(3)] == ["blue", "blue", "default"]
    assert m.text()[:2] == ["c", ""]


def test_an_erase_stops_at_the_top_margin_as_the_cursor_does() -> None:
    # The region starts below a title: the erase climbs to its top margin and empties that
    # row again rather than the title.
    m = TerminalModel(20, 6)
    m.feed(b"title\x1b[2;6r\x1b[2H")
    with _skipping():
        m.feed(b"x\r\ny\r\nz" + b"\x1b[2K\x1b[1A" * 3 + b"\x1b[2K\x1b[G" + b"new")
    assert m.text() == ["title", "new", "", "", "", ""]
    m = TerminalModel(20, 6)
    m.feed(b"\x1b[4;6r\x1b[H")  # above the region the cursor climbs to the top row
    parsed = _parsed(m)
    with _skipping():
        m.feed(b"x\r\ny" + b"\x1b[2K\x1b[1A" * 2 + b"\x1b[2K\x1b[G" + b"new")
    assert m.text() == ["new", "", "", "", "", ""]
    assert parsed[0] < len(b"x\r\ny") + 3 * 4 + 2 * 4 + 3 + 3  # the draw was not parsed
    m = TerminalModel(20, 6)
    m.feed(b"\x1b[3;6r\x1b[2H")  # but once in the region, it stops at its top margin
    with _skipping():
        m.feed(b"x\r\ny" + b"\x1b[2K\x1b[1A" * 2 + b"\x1b[2K\x1b[G" + b"new")
    assert m.text() == ["", "x", "new", "", "", ""]


@settings(deadline=None, max_examples=60, suppress_health_check=list(HealthCheck))
@given(st.integers(1, len(_frames(8)) - 1), st.integers(40, 120), st.integers(12, 40))
def test_frames_read_from_inside_a_frame_or_a_sequence_are_the_screen_every_byte_gives(
    cut: int, cols: int, rows: int
) -> None:
    """A read may start anywhere: the frames after the first erase in it are still skipped,
    and the screen is the one every byte gives."""
    data = _frames(8)
    whole = TerminalModel(cols, rows, scrollback=100)
    single = TerminalModel(cols, rows, scrollback=100)
    with _skipping():
        whole.feed(data[:cut])
        whole.feed(data[cut:])
    _one_at_a_time(data, single)
    assert _state(whole) == _state(single)


def test_a_read_that_starts_inside_a_sequence_still_skips_the_frames_after_it() -> None:
    data = _frames(8)
    cut = data.index(b"\x1b[38;2;", len(data) // 8) + 4  # inside an SGR of the second frame
    m = TerminalModel(120, 40)
    m.feed(data[:cut])
    parsed = _parsed(m)
    m.feed(data[cut:])
    assert parsed[0] < len(data[cut:]) / 2  # the rest of that frame, and the last one
    reference = TerminalModel(120, 40)
    _one_at_a_time(data, reference)
    assert _state(m) == _state(reference)


def test_a_read_that_starts_inside_a_sequence_skips_the_rest_of_its_frame() -> None:
    """A PTY read ends anywhere, mostly inside a sequence of a frame: the read after it is
    parsed up to its first line end, and the rest of that frame, up to the next frame's erase,
    is not drawn (it is the part of a 4 KiB read that a frame larger than the read shows
    least)."""
    data = _frames(3)
    second = data.index(b"\x1b[2K")  # the erase that starts the second frame
    start = data.index(b"\x1b[38;2;", second) + 4  # inside an SGR of its first row
    line_end = data.index(b"\n", start) + 1
    erase = data.index(b"\x1b[2K", line_end)  # the third frame's erase
    m = TerminalModel(120, 40)
    m.feed(data[:start])
    parsed = _parsed(m)
    with _skipping():
        m.feed(data[start:])
    assert parsed[0] <= (line_end - start) + (len(data) - erase)
    reference = TerminalModel(120, 40)
    _one_at_a_time(data, reference)
    assert _state(m) == _state(reference)
