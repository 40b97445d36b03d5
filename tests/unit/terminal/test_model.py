"""The public API of TerminalModel, with byte literals."""

from __future__ import annotations

import pytest

from observer.terminal import COLOUR_NAMES, Cell, TerminalModel
from tests.unit.terminal.conftest import screen


def test_text_is_the_rows_with_trailing_blanks_trimmed() -> None:
    m = screen(b"hello  \r\n  world")
    assert m.text() == ["hello", "  world", "", "", ""]


def test_line_has_exactly_cols_cells_and_marks_the_stub_of_a_wide_character() -> None:
    m = screen("a一b".encode())
    row = m.line(0)
    assert len(row) == 20
    assert [c.data for c in row[:4]] == ["a", "一", "", "b"]
    assert m.cursor_x == 4


def test_line_outside_the_screen_raises_index_error() -> None:
    with pytest.raises(IndexError):
        TerminalModel(10, 3).line(3)


def test_feed_returns_the_rows_that_changed() -> None:
    m = TerminalModel(20, 5)
    assert m.feed(b"\x1b[3;1Hx") == {2}
    assert m.feed(b"\x1b[1;1H") == set()
    assert m.feed(b"a\r\nb") == {0, 1}


def test_cells_carry_colours_and_attributes() -> None:
    m = screen(b"\x1b[1;3;4;7;9;5;31;42mX\x1b[0m\x1b[38;5;196;48;2;1;2;3mY\x1b[95mZ")
    x, y, z = m.line(0)[:3]
    assert x == Cell("X", "red", "green", True, True, True, True, True, True)
    assert (y.fg, y.bg) == ("ff0000", "010203")
    assert z.fg == "brightmagenta"
    assert set(COLOUR_NAMES) >= {"black", "white", "brightblack", "brightwhite"}


def test_bright_magenta_background_has_its_proper_name() -> None:
    # pyte 0.8.2 spells this colour "bfightmagenta".
    assert screen(b"\x1b[105mX").line(0)[0].bg == "brightmagenta"


def test_title_is_set_by_osc_0_and_2_and_sanitized() -> None:
    assert screen(b"\x1b]0;first\x07").title == "first"
    assert screen(b"\x1b]2;second\x1b\\").title == "second"
    assert screen("\x1b]2;a\u202eb\x7fc\x07".encode()).title == "a\ufffdb\ufffdc"
    assert len(screen(b"\x1b]2;" + b"t" * 5000 + b"\x07").title) == 256


def test_cursor_visibility_follows_dectcem() -> None:
    m = screen(b"\x1b[?25l")
    assert not m.cursor_visible
    m.feed(b"\x1b[?25h")
    assert m.cursor_visible


def test_input_modes_are_reported() -> None:
    m = screen(b"\x1b[?1h\x1b[?2004h")
    assert m.application_cursor and m.bracketed_paste
    m.feed(b"\x1b[?1l\x1b[?2004l")
    assert not m.application_cursor and not m.bracketed_paste


def test_synchronized_update_is_open_between_2026_set_and_reset() -> None:
    m = screen(b"\x1b[?2026h")
    assert m.synchronized
    m.feed(b"frame\x1b[?2026l")
    assert not m.synchronized


def test_bells_are_counted() -> None:
    assert screen(b"\x07a\x07\x1b]0;t\x07").bells == 2


def test_replies_answer_da1_da2_and_dsr_once() -> None:
    m = screen(b"ab\x1b[c\x1b[>c\x1b[5n\x1b[6n")
    assert m.take_replies() == b"\x1b[?1;2c\x1b[>1;10;0c\x1b[0n\x1b[1;3R"
    assert m.take_replies() == b""


def test_cursor_position_report_is_relative_to_the_region_in_origin_mode() -> None:
    m = screen(b"\x1b[2;4r\x1b[?6h\x1b[2;3H\x1b[6n")
    assert m.take_replies() == b"\x1b[2;3R"


def test_resize_is_clamped() -> None:
    m = TerminalModel(0, -3)
    assert (m.cols, m.rows) == (2, 1)
    m.resize(10**9, 10**9)
    assert (m.cols, m.rows) == (1000, 1000)


def test_scrollback_keeps_rows_that_scroll_off_the_main_screen() -> None:
    m = screen(b"1\r\n2\r\n3\r\n4", cols=5, rows=2, scrollback=2)
    assert [c.data for c in m.history[0]][:1] == ["1"]
    assert [r[0].data for r in m.history] == ["1", "2"]
    assert m.text() == ["3", "4"]


def test_scrollback_is_bounded_by_its_setting() -> None:
    m = screen(b"x\n" * 100, rows=2, scrollback=10)
    assert len(m.history) == 10
    assert len(screen(b"x\n" * 100, rows=2, scrollback=0).history) == 0


def test_erase_saved_lines_clears_the_scrollback_only() -> None:
    m = screen(b"1\r\n2\r\n3", rows=2)
    m.feed(b"\x1b[3J")
    assert len(m.history) == 0
    assert m.text() == ["2", "3"]


def test_snapshot_restore_returns_to_the_exact_state_and_stays_reusable() -> None:
    m = screen(b"\x1b[31mred\x1b]2;T\x07\x1b[?1049halt", rows=3)
    snap = m.snapshot()
    before = ([list(m.line(y)) for y in range(3)], m.cursor_x, m.title, m.alternate)
    for _ in range(2):
        m.feed(b"\x1b[?1049l\x1b[0mchanged\x1b]2;U\x07\r\n\r\n\r\nmore")
        m.restore(snap)
        assert ([list(m.line(y)) for y in range(3)], m.cursor_x, m.title, m.alternate) == before
    m.feed(b"\x1b[?1049l")
    assert m.text()[0] == "red"


def test_snapshot_keeps_a_sequence_split_across_feeds() -> None:
    m = TerminalModel(10, 2)
    m.feed(b"\x1b[3")
    snap = m.snapshot()
    m.feed(b"1mA")
    m.restore(snap)
    m.feed(b"2mB")
    assert m.line(0)[0] == Cell("B", fg="green")


def test_to_ansi_repaints_cells_cursor_title_and_modes_into_a_fresh_model() -> None:
    source = (
        b"\x1b[1;34mblue\x1b[0m \xe4\xb8\x80\x1b[3;2H\x1b[44m  \x1b[?25l\x1b[?2004h\x1b]2;T\x07"
    )
    a = screen(source)
    b = screen(a.to_ansi().encode())
    assert [list(a.line(y)) for y in range(5)] == [list(b.line(y)) for y in range(5)]
    assert (b.cursor_x, b.cursor_y, b.cursor_visible, b.title) == (
        a.cursor_x,
        a.cursor_y,
        False,
        "T",
    )
    assert b.bracketed_paste


def test_to_ansi_keeps_the_main_screen_behind_the_alternate_one() -> None:
    a = screen(b"shell$ \x1b[?1049h\x1b[Hvim")
    b = screen(a.to_ansi().encode())
    assert b.alternate and b.text()[0] == "vim"
    b.feed(b"\x1b[?1049l")
    assert b.text()[0] == "shell$" and (b.cursor_x, b.cursor_y) == (7, 0)


def test_to_ansi_keeps_a_pending_wrap() -> None:
    a = screen(b"x" * 20, rows=2)
    b = screen(a.to_ansi().encode(), rows=2)
    a.feed(b"y")
    b.feed(b"y")
    assert a.text() == b.text() == ["x" * 20, "y"]


def test_to_ansi_works_after_a_resize_behind_the_alternate_screen() -> None:
    a = screen(b"shell$ \x1b[?1049hvim", cols=20, rows=5)
    a.resize(10, 3)
    b = TerminalModel(10, 3)
    b.feed(a.to_ansi().encode())
    assert b.alternate and b.text() == a.text()
    b.feed(b"\x1b[?1049l")
    assert b.text()[0] == "shell$"


def test_to_ansi_keeps_a_cursor_saved_by_1049_after_leaving_with_47() -> None:
    a = screen(b"abc\x1b[?1049h\x1b[?47l\x1b[3;1H")
    b = screen(a.to_ansi().encode())
    for m in (a, b):
        m.feed(b"\x1b[?1049l")
    assert (b.cursor_x, b.cursor_y) == (a.cursor_x, a.cursor_y) == (3, 0)


def test_to_ansi_keeps_the_origin_mode_of_a_saved_cursor() -> None:
    # DECRC restores origin mode with the cursor; with the margins set next, a CUP home
    # then goes to the top of the region, not of the screen.
    for saved in (b"\x1b[?6h\x1b7\x1b[?6l", b"\x1b[?6h\x1b[?1049h\x1b[?6l"):
        a = screen(saved, cols=2, rows=3)
        b = screen(a.to_ansi().encode(), cols=2, rows=3)
        for m in (a, b):
            m.feed(b"\x1b8\x1b[?1049l\x1b[2;0r\x1b[H")
        assert (b.cursor_x, b.cursor_y) == (a.cursor_x, a.cursor_y) == (0, 1)
