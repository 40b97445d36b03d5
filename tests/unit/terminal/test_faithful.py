"""Sequences pyte 0.8.2 gets wrong, checked against tmux 3.3a (expected screens were taken
with ``tmux capture-pane -p`` after feeding the same bytes)."""

from __future__ import annotations

from observer.terminal import Cell
from tests.unit.terminal.conftest import screen


def test_dec_line_drawing_works_in_utf8_mode() -> None:
    assert screen(b"\x1b(0lqqk\x1b(Bq").text()[0] == "┌──┐q"


def test_shift_out_selects_the_g1_set_once_designated() -> None:
    assert screen(b"a\x0eq\x1b)0q\x0fq").text()[0] == "aq─q"


def test_rep_repeats_the_character_printed_just_before() -> None:
    assert screen(b"abc\x1b[3b").text()[0] == "abcccc"
    # tmux: only directly after printing; a control, SGR or REP in between cancels it
    assert screen(b"abc\x1b[1b\x1b[5b").text()[0] == "abcc"
    assert screen(b"ab\x1b[31m\x1b[2b").text()[0] == "ab"
    assert screen(b"ab\r\x1b[2b").text()[0] == "ab"


def test_hpa_and_vpa_move_to_absolute_positions() -> None:
    m = screen(b"ab\x1b[2;5`Q\x1b[3dR")
    assert m.text()[:3] == ["aQ", "", "  R"]


def test_scosc_and_scorc_save_and_restore_the_cursor() -> None:
    assert screen(b"abc\x1b[s\x1b[3;3Hxy\x1b[uZ").text()[:3] == ["abcZ", "", "  xy"]


def test_su_and_sd_scroll_the_screen() -> None:
    assert screen(b"1\r\n2\r\n3\r\n4\r\n5\x1b[2S").text() == ["3", "4", "5", "", ""]
    assert screen(b"1\r\n2\r\n3\r\n4\r\n5\x1b[2T").text() == ["", "", "1", "2", "3"]
    assert screen(b"1\r\n2\r\n3\r\n4\r\n5\x1b[2;4r\x1b[S").text() == ["1", "3", "4", "", "5"]


def test_scrolled_up_rows_go_to_the_scrollback() -> None:
    m = screen(b"1\r\n2\r\n3\r\n4\r\n5\x1b[2S")
    assert [row[0].data for row in m.history] == ["1", "2"]


def test_overwriting_half_of_a_wide_character_blanks_the_other_half() -> None:
    assert screen("a一b\x1b[1;2Hx".encode()).text()[0] == "ax b"
    assert screen("a一b\x1b[1;3Hx".encode()).text()[0] == "a xb"
    row = screen("a一b\x1b[1;3Hx".encode()).line(0)
    assert [c.data for c in row[:4]] == ["a", " ", "x", "b"]


def test_a_wide_character_that_does_not_fit_wraps_whole() -> None:
    m = screen("abcdefghijklmnopqrs一".encode())
    assert m.text()[:2] == ["abcdefghijklmnopqrs", "一"]


def test_combining_marks_and_variation_selectors_join_the_previous_cell() -> None:
    m = screen("e\u0301x❤\ufe0f|".encode())
    assert [c.data for c in m.line(0)[:4]] == ["e\u0301", "x", "❤\ufe0f", "|"]


def test_a_zero_width_joiner_makes_one_cell_of_an_emoji_sequence() -> None:
    m = screen("👨\u200d👩\u200d👧 z".encode())
    assert m.text()[0] == "👨\u200d👩\u200d👧 z"
    assert m.cursor_x == 4


def test_a_zero_width_joiner_does_not_drop_the_rest_of_the_chunk() -> None:
    assert screen("a\u200db and more".encode()).text()[0] == "ab and more"


def test_regional_indicators_pair_into_a_flag() -> None:
    m = screen("🇺🇸|".encode())
    assert m.text()[0] == "🇺🇸|" and m.cursor_x == 3


def test_colon_form_sgr_is_applied_not_printed() -> None:
    m = screen(b"\x1b[38:2::255:0:0mR\x1b[4:3mU\x1b[4:0mN\x1b[48:5:21mB\x1b[38:2:1:2:3mC")
    assert m.text()[0] == "RUNBC"
    r, u, n, b, c = m.line(0)[:5]
    assert r.fg == "ff0000" and u.underscore and not n.underscore
    assert b.bg == "0000ff" and c.fg == "010203"


def test_erase_in_line_with_an_unknown_parameter_does_nothing() -> None:
    assert screen(b"abcdef\x1b[1;3H\x1b[5Kz").text()[0] == "abzdef"


def test_insert_delete_and_erase_characters() -> None:
    assert screen(b"abcdef\x1b[1;3H\x1b[2@XY").text()[0] == "abXYcdef"
    assert screen(b"abcdef\x1b[1;3H\x1b[2P").text()[0] == "abef"
    assert screen(b"abcdef\x1b[1;3H\x1b[2X").text()[0] == "ab  ef"


def test_a_pending_wrap_behaves_as_in_tmux() -> None:
    full = b"x" * 20
    assert screen(full + b"\x08y").text()[0] == "x" * 19 + "y"
    assert screen(full + b"\x1b[2Dy").text()[0] == "x" * 18 + "yx"
    assert screen(full + b"\x1b[Ky").text()[:2] == [full.decode(), "y"]
    assert screen(full + b"\ty").text()[:2] == [full.decode(), "y"]


def test_erase_uses_the_background_colour_only() -> None:
    m = screen(b"\x1b[1;7;44mX\x1b[K")
    assert m.line(0)[1] == Cell(" ", bg="blue")


def test_cursor_moves_outside_the_scrolling_region_are_not_pulled_into_it() -> None:
    assert screen(b"\x1b[2;3r\x1b[5;1Hx\x1b[Ay\x1b[3Az").text() == ["", "  z", "", " y", "x"]


def test_alternate_screen_1049_restores_the_main_screen_and_cursor() -> None:
    m = screen(b"12345\x1b[?1049h\x1b[2;2Habc\x1b[?1049lX")
    assert m.text()[:2] == ["12345X", ""] and not m.alternate


def test_alternate_screen_47_and_1047_start_blank_and_leave_the_cursor() -> None:
    assert screen(b"12345\x1b[?47habc\x1b[?47lX").text()[0] == "12345   X"
    m = screen(b"\x1b[?1047habc\x1b[?1047l\x1b[?1047h")
    assert m.alternate and m.text()[0] == ""


def test_scrollback_is_not_fed_by_the_alternate_screen() -> None:
    m = screen(b"\x1b[?1049h" + b"x\r\n" * 20)
    assert len(m.history) == 0


def test_decsc_has_one_slot_shared_by_both_screens_as_in_tmux() -> None:
    m = screen(b"ab\x1b7\x1b[?1049h\x1b[3;3H\x1b7\x1b[?1049l\x1b8X")
    assert m.text()[:3] == ["ab", "", "  X"]


def test_c1_and_del_are_ignored() -> None:
    assert screen("a\u0085b\u009bc\x7fd\x00e".encode()).text()[0] == "abcde"


def test_strings_dcs_apc_pm_sos_are_consumed() -> None:
    m = screen(b"\x1bPq#0;2;0;0;0\x1b\\a\x1b_Gabc\x1b\\b\x1b^pm\x1b\\c\x1bXsos\x1b\\d")
    assert m.text()[0] == "abcd"


def test_shrinking_rows_keeps_the_cursor_row_and_moves_the_top_into_the_scrollback() -> None:
    m = screen(b"".join(b"line%d\r\n" % i for i in range(8)) + b"end", rows=10)
    m.resize(20, 5)
    assert m.text() == ["line4", "line5", "line6", "line7", "end"]
    assert [row[0].data + row[4].data for row in m.history][-1] == "l3"
    m.resize(20, 10)
    assert m.text()[:2] == ["line0", "line1"] and m.cursor_y == 8


def test_shrinking_rows_drops_blank_rows_below_the_cursor_first() -> None:
    m = screen(b"top\r\nsecond", rows=10)
    m.resize(20, 5)
    assert m.text()[:2] == ["top", "second"] and len(m.history) == 0


def test_shrinking_columns_rewraps_lines_as_tmux_does() -> None:
    long = b"A" * 30 + b"B" * 30
    m = screen(b"top\r\n" + long + b"\r\nnext", cols=80, rows=10)
    m.resize(40, 10)
    assert m.text()[:3] == ["A" * 30 + "B" * 10, "B" * 20, "next"]
    assert [c.data for c in m.history[-1]][:3] == ["t", "o", "p"]
    assert (m.cursor_x, m.cursor_y) == (4, 2)
    m.resize(80, 10)
    assert m.text()[:3] == ["top", "A" * 30 + "B" * 30, "next"] and len(m.history) == 0


def test_growing_columns_joins_lines_that_had_wrapped() -> None:
    m = screen(
        b"".join(b"line%d " % i + b"x" * 50 + b"\r\n" for i in range(12)) + b"end", cols=40, rows=10
    )
    m.resize(80, 10)
    assert m.text()[0] == "line3 " + "x" * 50 and m.text()[-1] == "end"
    assert m.cursor_y == 9


def test_a_wide_character_moves_whole_when_lines_are_rewrapped() -> None:
    m = screen("abcd一x".encode(), cols=10, rows=5)
    m.resize(5, 5)
    assert m.text()[:2] == ["一x", ""] and m.history[-1][0].data == "a"
    m.resize(10, 5)
    assert m.text()[0] == "abcd一x" and m.cursor_x == 7


def test_the_alternate_screen_is_cut_and_the_main_screen_rewrapped_on_return() -> None:
    m = screen(b"$ " + b"A" * 30 + b"B" * 30 + b"\r\n$ \x1b[?1049hvim", cols=80, rows=10)
    m.resize(40, 6)
    assert m.text()[1] == "  vim"
    m.feed(b"\x1b[?1049lback")
    # checked with tmux 3.3a: the shell screen comes back at 80x10, is cut to 6 rows below
    # the cursor, then re-wrapped at 40 columns, its first row going to the scrollback
    assert m.text()[:2] == ["B" * 22, "$ back"]
    assert "".join(c.data for c in m.history[-1]) == "$ " + "A" * 30 + "B" * 8


def test_leaving_1049_again_on_the_normal_screen_restores_the_cursor_again() -> None:
    # dialog leaves the alternate screen right after starting and once more on exit.
    m = screen(b"$ \x1b[?1049h\x1b[?1049l\x1b[5;1Hmenu\x1b[?1049l")
    assert (m.cursor_x, m.cursor_y) == (2, 0)


def test_the_title_stack_saves_and_restores_the_title() -> None:
    m = screen(b"\x1b]2;shell\x07\x1b[22;0t\x1b]2;mc\x07")
    assert m.title == "mc"
    m.feed(b"\x1b[23;0t")
    assert m.title == "shell"
    m.feed(b"\x1b[23;0t")
    assert m.title == "shell"


def test_the_title_stack_is_bounded() -> None:
    m = screen(b"\x1b[22;0t" * 1000)
    assert len(m.snapshot().title_stack) == 10


def test_rep_repeats_at_most_to_the_end_of_the_row_as_tmux_does() -> None:
    m = screen(b"abcdefghijklmnopq\x1b[10bZ")
    assert m.text()[:2] == ["abcdefghijklmnopqqqq", "Z"]


def test_cht_and_cbt_move_by_tab_stops_with_any_count() -> None:
    m = screen(b"\x1b[3g\x1b[1;5H\x1bH\x1b[1;9H\x1bH\x1b[1;1Ha\x1b[2Ib\x1b[Zc\x1b[5Zd")
    assert m.text()[0] == "d       c"
    assert screen(b"\x1b[9999I" * 1000 + b"x").text()[0] == " " * 19 + "x"


def test_a_repeated_run_of_text_is_drawn_in_the_pen_and_character_set_of_each_time() -> None:
    token = b"lq\x1b[K\r\n"  # the same text and sequences, remembered after the first time
    m = screen(token + b"\x1b[1m" + token + b"\x1b(0" + token + b"\x1b(B\x1b[2m" + token, 10, 5)
    assert m.text()[:4] == ["lq", "lq", "┌─", "lq"]
    plain, bold, graphics, faint = (m.line(y)[0] for y in range(4))
    assert (
        not plain.bold and bold.bold and graphics.bold and (faint.bold, faint.dim) == (True, True)
    )
    wide = screen(token + "a一".encode() + b"\r\n" + token + b"\x1b[2;3H" + token, 10, 5)
    assert wide.text()[:3] == ["lq", "a lq", "lq"]  # half a wide character overwritten: blank
