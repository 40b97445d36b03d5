"""The caches of the fast paths never change what is drawn: a remembered token met again
in another pen, another character set, insert mode or next to a wide character is drawn
as the first time, and runs too long to be compiled still take effect.

Each test feeds one token (text with the sequences before it) several times, in separate
feeds so that it is the same token each time and gets remembered, then meets it again in
a different state.
"""

from __future__ import annotations

from observer.terminal import TerminalModel
from tests.unit.terminal.conftest import screen


def _remembered(token: bytes, cols: int = 20, rows: int = 6) -> TerminalModel:
    m = TerminalModel(cols, rows)
    for _ in range(3):
        m.feed(token)
        m.feed(b"\r\n")
    return m


def test_a_remembered_text_after_a_relative_sgr_takes_the_pen_it_meets() -> None:
    m = _remembered(b"\x1b[1mab")
    m.feed(b"\x1b[31m")
    m.feed(b"\x1b[1mab")
    cell = m.line(3)[0]
    assert (cell.data, cell.fg, cell.bold) == ("a", "red", True)


def test_a_remembered_text_follows_a_character_set_switch() -> None:
    m = _remembered(b"\x1b[0mqx")
    m.feed(b"\x1b(0")
    m.feed(b"\x1b[0mqx")
    assert m.text()[3] == "─│"


def test_a_remembered_text_is_inserted_in_insert_mode() -> None:
    m = _remembered(b"\x1b[0mab")
    m.feed(b"xyz\r\x1b[4h")
    m.feed(b"\x1b[0mab")
    assert m.text()[3] == "abxyz"


def test_a_remembered_text_drawn_over_half_a_wide_character_blanks_the_other_half() -> None:
    m = _remembered(b"\x1b[0mab")
    m.feed("一二\r\x1b[C".encode())
    m.feed(b"\x1b[0mab")
    assert [cell.data for cell in m.line(3)[:4]] == [" ", "a", "b", " "]


def test_a_remembered_text_that_does_not_fit_wraps() -> None:
    m = _remembered(b"\x1b[0mabcd", cols=6)
    m.feed(b"\x1b[4G")
    m.feed(b"\x1b[0mabcd")
    assert m.text()[3:5] == ["   abc", "d"]


def test_a_run_of_sequences_too_long_to_compile_still_takes_effect() -> None:
    run = b"\x1b[1;1H" * 400 + b"\x1b[3;5H\x1b[32m"  # longer than a compiled run may be
    m = screen(run + b"go" + run + b"on", cols=20, rows=4)
    assert m.text()[2] == "    on"
    assert m.line(2)[4].fg == "green"


def test_jumps_seen_once_and_seen_again_land_in_the_same_place() -> None:
    m = TerminalModel(20, 4)
    for _ in range(3):
        m.feed(b"\x1b[K\x1b[2;7H\x1b[?25l")
        assert (m.cursor_x, m.cursor_y) == (6, 1)
        m.feed(b"\x1b[H")
