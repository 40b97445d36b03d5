"""A log's lines drawn a line at a time are the screen every byte parsed gives.

The stream builds the rows of a run of log lines (printable ASCII and SGRs, each ended by
``CR LF``) at once rather than token by token (``observer.terminal.logged``). Every test compares
it with the same bytes fed one at a time, where no run is long enough to take: screen, cursor,
pen, the character a REP repeats, the rows' wrap flags, the scrollback and the repaint must all
be the same, whatever state came before (margins, the alternate screen, modes, a pending wrap, a
line half written) and whatever comes after.
"""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from observer.terminal import TerminalModel, is_wrapped
from observer.terminal import logged as logged_module
from tests.unit.terminal.test_properties import FAST, _continuation, _screen_ops
from tests.unit.terminal.test_scrolled import (
    LOG_LINE,
    _log,
    _one_at_a_time,
    _parsed,
    _same_as_every_byte,
    _state,
)


def _drawing() -> mock._patch[int]:
    """Any feed may take lines, however short (the default spares the scan on short ones)."""
    return mock.patch.object(logged_module, "MIN_LINES", 0)


_text = st.text(
    st.sampled_from([*"abc xyz|-_~", "\t", "\r", "一", "é", "\x08", "\x07"]), max_size=30
)
_sgr = st.sampled_from(["\x1b[0m", "\x1b[m", "\x1b[1m", "\x1b[31m", "\x1b[44m", "\x1b[0;7m",
                        "\x1b[38;5;200m", "\x1b[48;2;1;2;3m", "\x1b[22;39m", "\x1b[38;2;300;0;1m",
                        "\x1b[;;m", "\x1b[49m", "\x1b[2;8m"])  # fmt: skip
_ascii = st.text(st.sampled_from([*"abc xyz|-_~0"]), max_size=30)
_line = st.lists(st.one_of(_ascii, _ascii, _sgr, _text), max_size=6).map("".join)
_ending = st.sampled_from(["\r\n", "\r\n", "\r\r\n", "\r\n", "\n", "\r\n\r\n", "\x1b[A\r\n", "\r"])
_lines = st.lists(st.tuples(_line, _ending).map("".join), min_size=1, max_size=40).map(
    lambda lines: "".join(lines).encode()
)
_modes = st.sampled_from([b"", b"", b"\x1b[?1049h", b"\x1b[3;6r", b"\x1b[?7l", b"\x1b[20h",
                          b"\x1b[4h", b"\x1b(0", b"\x1b]8;;https://a.example/\x07", b"\x1b[5;1r",
                          b"\x1b[44m", b"half a line", b"\x1b[3H", b"\x1b[", b"\xe4\xb8",
                          b"\x1b[?1049h\x1b[?1049l", b"\xe4\xb8\x80x\xe4\xb8\x80\x1b[H",
                          b"ab\xe4\xb8\x80\xe4\xb8\x80\xe4\xb8\x80\r\n\xe4\xb8\x80\x1b[H"])  # fmt: skip


@settings(FAST, max_examples=300)
@given(
    _screen_ops, _modes, _lines, _continuation, st.integers(2, 25), st.integers(1, 9),
    st.sampled_from([0, 5, 20]),
)  # fmt: skip
def test_lines_drawn_a_line_at_a_time_are_what_every_byte_draws(
    before: bytes, mode: bytes, log: bytes, after: bytes, cols: int, rows: int, scrollback: int
) -> None:
    with _drawing():
        _same_as_every_byte(before + mode, log, after, cols, rows, scrollback)


@pytest.mark.slow
@settings(deadline=None, max_examples=5000, suppress_health_check=list(HealthCheck))
@given(
    _screen_ops, _modes, _lines, _continuation, st.integers(2, 25), st.integers(1, 9),
    st.sampled_from([0, 5, 20]),
)  # fmt: skip
def test_lines_drawn_a_line_at_a_time_are_what_every_byte_draws_thorough(
    before: bytes, mode: bytes, log: bytes, after: bytes, cols: int, rows: int, scrollback: int
) -> None:
    with _drawing():
        _same_as_every_byte(before + mode, log, after, cols, rows, scrollback)


@settings(deadline=None, max_examples=30, suppress_health_check=list(HealthCheck))
@given(_screen_ops, _modes, _continuation, st.integers(20, 120), st.integers(1, 40))
def test_a_long_build_log_with_a_scrollback_is_what_every_byte_gives(
    before: bytes, mode: bytes, after: bytes, cols: int, rows: int
) -> None:
    _same_as_every_byte(before + mode, _log(300), after, cols, rows, 100)


@settings(FAST, max_examples=100)
@given(
    _screen_ops, _modes, _lines, st.integers(2, 25), st.integers(1, 9),
    st.integers(2, 30), st.integers(1, 12),
)  # fmt: skip
def test_rows_kept_as_text_are_what_every_byte_gives_after_a_resize(
    before: bytes, mode: bytes, log: bytes, cols: int, rows: int, to_cols: int, to_rows: int
) -> None:
    """A resize re-wraps the scrollback: rows still pending are built for it first."""
    whole = TerminalModel(cols, rows, scrollback=30)
    single = TerminalModel(cols, rows, scrollback=30)
    with _drawing():
        whole.feed(before + mode + log)
    _one_at_a_time(before + mode + log, single)
    whole.resize(to_cols, to_rows)
    single.resize(to_cols, to_rows)
    assert _state(whole) == _state(single)


def test_a_row_that_wraps_onto_the_next_keeps_its_flag_when_a_log_scrolls_it_off() -> None:
    m = TerminalModel(10, 3, scrollback=100)
    m.feed(b"0123456789abc\x1b[H")  # row 0 wraps onto row 1; the cursor goes back to row 0
    with _drawing():
        m.feed(b"".join(b"\x1b[32mln%02d\x1b[0m\r\n" % n for n in range(10)))
    assert [is_wrapped(row) for row in m.history][:2] == [True, False]
    assert "".join(c.data for c in m.history[0]) == "ln00456789"


def test_a_long_log_draws_a_screenful_and_builds_its_scrollback_when_read() -> None:
    m = TerminalModel(100, 30, scrollback=10_000)
    parsed = _parsed(m, lines=False)
    builds: list[int] = []

    def counted(screen: object, block: logged_module.Block) -> list[object]:
        builds.append(len(block.lines))
        return logged_module.build_rows(screen, block)  # type: ignore[arg-type,return-value]

    m._screen.build_block = counted  # type: ignore[assignment]
    m.feed(_log(5000))
    assert parsed[0] <= 2 * len(LOG_LINE)  # the first line end only
    assert m.text()[-2] == "[  4999] CC src/module_0052/file.o -O2 ok"  # 4999 % 97 = 52
    assert len(m.history) == 5000 - 29 and not builds  # nothing built yet
    row = m.history[100]
    assert "".join(c.data for c in row).rstrip() == "[   100] CC src/module_0003/file.o -O2 ok"
    assert (row[1].fg, row[-1].bg) == ("green", "default")
    assert builds == [5000 - 29]  # the block, built once
    assert "".join(c.data for c in m.history[0]).startswith("[     0]")
    assert builds == [5000 - 29]


def test_a_snapshot_keeps_rows_still_pending_and_restores_them() -> None:
    m = TerminalModel(40, 5, scrollback=1000)
    m.feed(_log(100))
    snap = m.snapshot()
    m.feed(b"\x1b[2J\x1b[3J" + _log(100, 500))
    m.restore(snap)
    expected = TerminalModel(40, 5, scrollback=1000)
    _one_at_a_time(_log(100), expected)
    assert _state(m) == _state(expected)


def test_lines_after_a_half_written_line_are_taken_from_its_end() -> None:
    m = TerminalModel(100, 30, scrollback=1000)
    m.feed(b"\x1b[31mhalf")
    drawn = _parsed(m, lines=False)
    m.feed(b" a line\r\n" + _log(200))
    assert drawn[0] == len(b" a line\r\n")
    assert m.history[0][0].fg == "red" and m.history[0][4].data == " "


@pytest.mark.parametrize("lines", [1, 12], ids=["row stays on the screen", "row scrolls off"])
def test_a_line_that_ends_inside_a_wide_character_leaves_no_half_of_it(lines: int) -> None:
    before = b"ab\xe4\xb8\x80\xe4\xb8\x80\xe4\xb8\x80\x1b[H"  # 一 at columns 2-3, 4-5, 6-7
    log = b"xyz\r\n" + b"\x1b[31mline\x1b[0m\r\n" * (lines - 1)
    with _drawing():
        _same_as_every_byte(before, log, b"", 10, 4, 20)
    m = TerminalModel(10, 4, scrollback=20)
    with _drawing():
        m.feed(before + log)
    row = m.line(0) if lines == 1 else m.history[0]
    assert "".join(c.data for c in row) == "xyz 一一  "


def test_a_log_through_a_pty_is_taken_as_its_program_wrote_it() -> None:
    """A PTY turns a program's ``CR LF`` into ``CR CR LF``: the lines are taken all the same."""
    m = TerminalModel(100, 30, scrollback=1000)
    parsed = _parsed(m, lines=False)
    log = _log(500).replace(b"\r\n", b"\r\r\n")
    m.feed(log)
    assert parsed[0] == 0
    expected = TerminalModel(100, 30, scrollback=1000)
    _one_at_a_time(log, expected)
    assert _state(m) == _state(expected)


@pytest.mark.parametrize(
    "log",
    [
        b"\x1b[44m" + b"0" * 13 + b"\r\n" * 3,  # rows a wrap brings in are default, not blue
        b"x\r\n" * 4 + b"\x1b[44my\r\n\x1b[0m" * 4,  # a line's own colour is not its row's
        b"\x1b[44m\r\n" + b"ab\r\n" * 6,  # a line of SGRs alone: the row after it is blue
        b"abcdef\r\n" * 5 + b"abcd\r\n",  # exactly two rows wide: no wrap is pending
    ],
    ids=["wrap", "colour of a line", "colour alone", "full rows"],
)
def test_the_rows_lines_bring_in_take_the_background_every_byte_gives(log: bytes) -> None:
    with _drawing():
        for rows in (1, 3, 8):
            _same_as_every_byte(b"", log, b"", 2, rows, 5)
            _same_as_every_byte(b"\x1b[42m", log, b"", 3, rows, 0)
