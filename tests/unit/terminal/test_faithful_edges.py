"""Edges where the model used to differ from tmux 3.3a and vttest: zero-padded parameters, DEC
special graphics, concealed text, palette colours in every SGR form, the last column without
autowrap, and edits that split a wide character. Expected screens were taken with
``tmux capture-pane`` after feeding the same bytes (the captured fixtures ``vttest-*`` and
``edges-*`` check the same against tmux end to end)."""

from __future__ import annotations

import pytest

from observer.terminal import Cell
from tests.unit.terminal.conftest import screen

WIDE = "中".encode()


def test_zero_padded_parameters_are_read_as_their_number() -> None:
    # vttest's cursor test: "CSI 00000000004;000000001 H"
    m = screen(b"\x1b[00000000004;000000001HX\x1b[0000000002;00010Hy")
    assert m.text()[3] == "X" and m.text()[1] == " " * 9 + "y"
    assert screen(b"abc\x1b[00002DZ").text()[0] == "aZc"


def test_zero_padded_parameters_are_read_in_a_position_seen_only_once() -> None:
    # A CUP met once is parsed directly (not compiled); it reads the same numbers.
    assert screen(b"x\r\n\x1b[003;0005HQ").text()[2] == "    Q"


def test_dec_special_graphics_maps_arrows_block_and_symbols_as_tmux_draws_them() -> None:
    m = screen(b"\x1b(0+,-.0_h`afgy~\x1b(B+_h")
    assert m.text()[0] == "→←↑↓▮_␤◆▒°±≤·+_h"


def test_conceal_is_kept_on_the_cell_and_ended_by_28_and_0() -> None:
    m = screen(b"\x1b[8mpw\x1b[28mok\x1b[8;31mx\x1b[0my")
    p, _, o, _, x, y = m.line(0)[:6]
    assert m.text()[0] == "pwokxy"  # tmux keeps concealed text (capture-pane shows it)
    assert p.conceal and not o.conceal and x.conceal and x.fg == "red" and not y.conceal


def test_conceal_is_repainted_by_to_ansi() -> None:
    a = screen(b"ab\x1b[8mcd")
    b = screen(a.to_ansi().encode())
    assert [c.conceal for c in b.line(0)[:4]] == [False, False, True, True]


@pytest.mark.parametrize(
    ("sgr", "fg", "bg"),
    [
        (b"31", "red", "default"),
        (b"38;5;1", "red", "default"),
        (b"38:5:1", "red", "default"),
        (b"91", "brightred", "default"),
        (b"38;5;9", "brightred", "default"),
        (b"38:5:15", "brightwhite", "default"),
        (b"38;5;3", "brown", "default"),
        (b"44", "default", "blue"),
        (b"48;5;4", "default", "blue"),
        (b"48:5:12", "default", "brightblue"),
        (b"1;38;5;0;48;5;8", "black", "brightblack"),
    ],
)
def test_palette_colours_are_stored_as_palette_names_in_every_form(
    sgr: bytes, fg: str, bg: str
) -> None:
    cell = screen(b"\x1b[" + sgr + b"mX").line(0)[0]
    assert (cell.fg, cell.bg) == (fg, bg)


def test_indexes_above_15_and_rgb_stay_rgb() -> None:
    m = screen(b"\x1b[38;5;16mA\x1b[38;5;196mB\x1b[48;5;255mC\x1b[38;2;1;2;3mD")
    assert [(c.fg, c.bg) for c in m.line(0)[:4]] == [
        ("000000", "default"),
        ("ff0000", "default"),
        ("ff0000", "eeeeee"),
        ("010203", "eeeeee"),
    ]


def test_to_ansi_writes_palette_colours_back_as_palette_codes() -> None:
    ansi = screen(b"\x1b[38;5;1;48;5;12mX").to_ansi()
    assert "\x1b[0;31;104m" in ansi and "38;2" not in ansi and "48;2" not in ansi


def test_without_autowrap_the_cursor_stays_on_the_last_column() -> None:
    nowrap = b"\x1b[?7l" + b"abcdefghijklmnopqrstuvwxyz"
    m = screen(nowrap)
    assert m.text()[0] == "abcdefghijklmnopqrsz" and m.text()[1] == ""
    assert screen(nowrap + b"\x08Z").text()[0] == "abcdefghijklmnopqrZz"
    assert screen(nowrap + b"\x1b[K").text()[0] == "abcdefghijklmnopqrs"
    assert screen(nowrap + b"\x1b[@").text()[0] == "abcdefghijklmnopqrs"
    assert screen(b"\x1b[?7labcdefghijklmnopqrsXYZ\x1b[DQ").text()[0] == "abcdefghijklmnopqrQZ"


def test_without_autowrap_a_run_that_ends_on_the_last_column_leaves_the_cursor_on_it() -> None:
    m = screen(b"\x1b[?7l" + b"x" * 20 + b"\x08y")
    assert m.text()[0] == "x" * 18 + "yx" and m.cursor_x == 19


def test_without_autowrap_a_wide_character_that_does_not_fit_is_not_drawn() -> None:
    nowrap = b"\x1b[?7labcdefghijklmnopq"
    assert screen(nowrap + b"r" + WIDE).text()[0] == "abcdefghijklmnopqr中"
    assert screen(nowrap + b"rs" + WIDE).text()[0] == "abcdefghijklmnopqrs"
    assert screen(nowrap + b"rs" + WIDE + b"x").text()[0] == "abcdefghijklmnopqrsx"
    assert screen(nowrap + WIDE + WIDE).text()[0] == "abcdefghijklmnopq中"


def test_a_wrap_pending_when_autowrap_goes_off_writes_nothing() -> None:
    m = screen(b"abcdefghijklmnopqrst\x1b[?7lZ")
    assert m.text()[:2] == ["abcdefghijklmnopqrst", ""]


@pytest.mark.parametrize(
    ("edit", "shown"),
    [
        (b"\x1b[4G\x1b[@", "ab中 cd"),  # ICH on the right half
        (b"\x1b[4G\x1b[P", "ab中cd"),  # DCH on the right half
        (b"\x1b[4G\x1b[X", "ab中 cd"),  # ECH on the right half
        (b"\x1b[4G\x1b[K", "ab中"),  # EL 0 from the right half
        (b"\x1b[4G\x1b[1K", "    cd"),  # EL 1 through the right half
        (b"\x1b[3G\x1b[P", "abcd"),  # DCH on the left half: its stub is dropped
        (b"\x1b[3G\x1b[X", "ab cd"),  # ECH on the left half
        (b"\x1b[3G\x1b[1K", "   cd"),  # EL 1 through the left half
        (b"\x1b[3G\x1b[@", "ab 中cd"),  # ICH before it moves it whole
    ],
)
def test_edits_on_half_of_a_wide_character_show_what_tmux_shows(edit: bytes, shown: str) -> None:
    m = screen(b"ab" + WIDE + b"cd" + edit)
    assert m.text()[0] == shown
    row = m.line(0)
    for x, cell in enumerate(row):  # the wide-character invariant still holds
        assert (cell.data == "") == (x > 0 and row[x - 1].data == "中")


def test_insert_on_the_right_half_of_a_wide_character_at_the_margin_keeps_it() -> None:
    m = screen(b"abcdefghijklmnopqr" + WIDE + b"\x1b[20G\x1b[@")
    assert m.text()[0] == "abcdefghijklmnopqr中"


def test_the_half_a_write_leaves_of_a_wide_character_has_default_colours() -> None:
    # tmux replaces the surviving half with its default cell, background included.
    m = screen(b"\x1b[44mab" + WIDE + b"cd\x1b[0m\x1b[4Gz")
    assert m.text()[0] == "ab zcd"
    assert m.line(0)[2] == Cell(" ") and m.line(0)[4].bg == "blue"


def test_a_write_on_the_right_half_of_a_wide_character_in_the_first_column_keeps_it() -> None:
    """tmux 3.3a keeps the character and draws what follows it from the third column
    (``edges-wide-halves-margins`` captures it); further text follows on from there."""
    m = screen("一cd\x1b[2Gz".encode() + b"y", cols=6, rows=1)
    assert m.text() == ["一zyd"]
    assert [cell.data for cell in m.line(0)] == ["一", "", "z", "y", "d", " "]
    assert m.cursor_x == 4


@pytest.mark.parametrize(
    "line",
    [
        b"x" * 30 + b"\rab\x1b[K",  # an erase of the end of a written line
        b"x" * 30 + b"\rabcdefghij\x1b[K\rab\x1b[K",  # a second erase, further left
        b"ab" + b" " * 28 + b"\rab\x1b[K",  # written spaces: nothing to see erased
        b"x" * 30 + b"\x1b[30G\x1b[X\x1b[1K\rab",  # ECH and EL 1 inside the line
    ],
)
def test_erasing_part_of_a_line_keeps_its_length_when_it_is_rewrapped(line: bytes) -> None:
    """tmux's erases of part of a line leave its used length: shrunk below that length, the
    line splits though it shows two letters (each case as tmux 3.3a shows it; the capture
    ``reflow-shrink-grow`` holds the first)."""
    m = screen(line + b"\r\nnext", cols=40, rows=5)
    m.resize(20, 5)
    history = ["".join(cell.data for cell in row).rstrip() for row in m.history]
    assert [*history, *m.text()][:3] == ["ab", "", "next"]
