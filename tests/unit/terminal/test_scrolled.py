"""Lines drawn only to scroll off are not drawn, and nobody can tell.

A model with no scrollback skips the start of a long plain feed whose lines the rest of the feed
scrolls off (``observer.terminal.scrolled``). Every test compares it with the same bytes fed one
at a time, where nothing can be skipped: screen, cursor, pen, the character a REP repeats, the
rows' wrap flags and the repaint must all be the same, whatever state came before (margins,
the alternate screen, modes, a pending wrap) and whatever comes after.
"""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from observer.terminal import Cell, TerminalModel, is_wrapped
from observer.terminal import scrolled as scrolled_module
from observer.terminal.actions import apply
from tests.unit.terminal.test_properties import FAST, _continuation, _screen_ops, observable

LOG_LINE = b"\x1b[32m[%6d]\x1b[0m CC src/module_%04d/file.o -O2 \x1b[33mok\x1b[0m\r\n"


def _log(lines: int, start: int = 0) -> bytes:
    return b"".join(LOG_LINE % (n, n % 97) for n in range(start, start + lines))


def _one_at_a_time(data: bytes, model: TerminalModel) -> None:
    for i in range(len(data)):
        model.feed(data[i : i + 1])


def _state(m: TerminalModel) -> tuple[object, ...]:
    return (
        observable(m),
        [is_wrapped(m.line(y)) for y in range(m.rows)],
        m.to_ansi(unfinished=True),
        [list(row) for row in m.history],
        [is_wrapped(row) for row in m.history],
    )


def _same_as_every_byte(before: bytes, log: bytes, after: bytes, cols: int, rows: int,
                        scrollback: int) -> None:  # fmt: skip
    whole = TerminalModel(cols, rows, scrollback=scrollback)
    single = TerminalModel(cols, rows, scrollback=scrollback)
    whole.feed(before)
    _one_at_a_time(before, single)
    whole.feed(log + after)
    _one_at_a_time(log + after, single)
    assert _state(whole) == _state(single)


def _skipping() -> mock._patch[int]:
    """Any feed may skip, however short (the default spares the scan on short ones)."""
    return mock.patch.object(scrolled_module, "MIN_SKIPPED", 0)


# -- random input: any state before, plain lines, anything after -------------------------------

_plain_text = st.text(
    st.sampled_from([*"abc xyz|-_", "\t", "\r", "一", "😀", "\u0301", "\u200d", "é", "\x85"]),
    max_size=40,
)
_sgr = st.sampled_from(["\x1b[0m", "\x1b[m", "\x1b[1m", "\x1b[31m", "\x1b[44m", "\x1b[0;7m",
                        "\x1b[38;5;200m", "\x1b[48;2;1;2;3m", "\x1b[22;39m"])  # fmt: skip
_line = st.lists(st.one_of(_plain_text, _sgr), max_size=6).map("".join)
_ending = st.sampled_from(["\r\n", "\r\n", "\r\n", "\n", "\r\n\r\n"])
_lines = st.lists(st.tuples(_line, _ending).map("".join), min_size=1, max_size=40).map(
    lambda lines: "".join(lines).encode()
)
_modes = st.sampled_from([b"", b"\x1b[?1049h", b"\x1b[3;6r", b"\x1b[2;4r\x1b[3H", b"\x1b[?7l",
                          b"\x1b[20h", b"\x1b[4h", b"\x1b(0", b"\x1b]8;;https://a.example/\x07",
                          b"\x1b[5;1r\x1b[H"])  # fmt: skip


@settings(FAST, max_examples=200)
@given(
    _screen_ops, _modes, _lines, _continuation, st.integers(2, 25), st.integers(1, 9),
    st.sampled_from([0, 0, 20]),
)  # fmt: skip
def test_skipping_the_lines_that_scroll_off_changes_nothing(
    before: bytes, mode: bytes, log: bytes, after: bytes, cols: int, rows: int, scrollback: int
) -> None:
    with _skipping():
        _same_as_every_byte(before + mode, log, after, cols, rows, scrollback)


@pytest.mark.slow
@settings(deadline=None, max_examples=5000, suppress_health_check=list(HealthCheck))
@given(
    _screen_ops, _modes, _lines, _continuation, st.integers(2, 25), st.integers(1, 9),
    st.sampled_from([0, 0, 20]),
)  # fmt: skip
def test_skipping_the_lines_that_scroll_off_changes_nothing_thorough(
    before: bytes, mode: bytes, log: bytes, after: bytes, cols: int, rows: int, scrollback: int
) -> None:
    with _skipping():
        _same_as_every_byte(before + mode, log, after, cols, rows, scrollback)


@settings(deadline=None, max_examples=30, suppress_health_check=list(HealthCheck))
@given(_screen_ops, _modes, _continuation, st.integers(20, 120), st.integers(1, 40))
def test_a_long_build_log_is_the_screen_every_byte_gives(
    before: bytes, mode: bytes, after: bytes, cols: int, rows: int
) -> None:
    _same_as_every_byte(before + mode, _log(300), after, cols, rows, 0)


# -- what is skipped, and what is not -------------------------------------------------------


def _parsed(m: TerminalModel, *, lines: bool = True) -> list[int]:
    """Count the characters the model's parser is given from now on (with ``lines``, and
    those of a log's lines it draws a line at a time: ``observer.terminal.logged``)."""
    stream = m._stream
    count = [0]
    feed_text, draw_lines = stream.feed_text, stream._lines

    def counted(text: str) -> None:
        count[0] += len(text)
        feed_text(text)

    def drawn(taken: list[str]) -> None:
        count[0] += sum(len(line) + 2 for line in taken)
        draw_lines(taken)

    stream.feed_text = counted  # type: ignore[method-assign]
    if lines:
        stream._lines = drawn  # type: ignore[method-assign]
    return count


def test_a_long_log_costs_a_screenfuls_parse_not_one_line_s_per_line() -> None:
    m = TerminalModel(100, 30, scrollback=0)
    parsed = _parsed(m)
    m.feed(_log(5000))
    assert parsed[0] <= 3 * 30 * len(LOG_LINE)
    assert m.text()[-2] == "[  4999] CC src/module_0052/file.o -O2 ok"  # 4999 % 97 = 52
    assert m.line(29 - 1)[1].fg == "green"


def _with(extra: bytes) -> bytes:
    """The log with ``extra`` in its tenth line: too near the start to skip anything."""
    return _log(10) + extra + _log(4990, 10)


@pytest.mark.parametrize(
    ("model", "first", "rest"),
    [
        (TerminalModel(100, 30, scrollback=1000), b"", _log(5000)),  # the scrollback keeps them
        (TerminalModel(100, 30, scrollback=0), b"", _with(b"\x1b[A")),
        (TerminalModel(100, 30, scrollback=0), b"", _with(b"\x07")),
        (TerminalModel(100, 30, scrollback=0), b"", _with(b"\x08")),
        (TerminalModel(100, 30, scrollback=0), b"", _with(b"\x1b[?25l")),
        (TerminalModel(100, 30, scrollback=0), b"\x1b[", _log(5000)),  # a sequence unfinished
        (TerminalModel(100, 30, scrollback=0), b"\xe4\xb8", _log(5000)),  # a character
        (TerminalModel(100, 30, scrollback=0), b"\x1b[5;20r\x1b[25H", _log(5000)),  # below the region
        (TerminalModel(100, 40, scrollback=0), b"\x1b[5;30r\x1b[3H", _log(5000)),  # above it
    ],
    ids=["scrollback", "cursor up", "bell", "backspace", "mode", "unfinished sequence",
         "unfinished character", "below the region", "above the region"],
)  # fmt: skip
def test_lines_are_all_drawn_where_they_may_be_seen_or_do_more_than_draw(
    model: TerminalModel, first: bytes, rest: bytes
) -> None:
    model.feed(first)
    parsed = _parsed(model)
    model.feed(rest)
    assert parsed[0] >= len(rest)


def test_a_bell_in_the_lines_is_still_heard() -> None:
    m = TerminalModel(100, 30, scrollback=0)
    m.feed(_log(5000).replace(b"ok", b"ok\x07", 1))
    assert m.bells == 1


def test_feed_unseen_feeds_nothing_where_nothing_scrolls_off() -> None:
    m = TerminalModel(100, 30, scrollback=0)
    assert m.feed_unseen(b"x" * 10_000) is None  # no line feed at all
    assert m.text()[0] == ""
    dirty = m.feed_unseen(_log(1000))
    assert dirty == set(range(30))
    assert m.text()[-2].startswith("[   999]")


def test_the_lines_after_those_skipped_take_the_pen_those_left() -> None:
    m = TerminalModel(20, 3, scrollback=0)
    m.feed(b"\x1b[1;4m")  # bold, underlined: the skipped lines reset it, then turn red
    with _skipping():
        m.feed(b"a\x1b[0m\x1b[31mb\r\n" + b"line\r\n" * 10)
    cell = m.line(0)[0]
    assert (cell.data, cell.fg, cell.bold, cell.underscore) == ("l", "red", False, False)


def test_rows_scrolled_in_after_a_background_change_are_as_many_as_every_byte_gives() -> None:
    # Skipped lines must leave the cursor where they truly do: the rows the line feeds after
    # them scroll in take the pen's background, and a line feed that only moves down does not.
    m = TerminalModel(2, 5, scrollback=0)
    with _skipping():
        m.feed(b"\r\n" * 3 + b"\x1b[44m" + b"\r\n" * 3)
    assert [m.line(y)[0].bg for y in range(5)] == ["default"] * 3 + ["blue"] * 2


def test_lines_from_anywhere_in_the_region_scroll_off_below_its_top() -> None:
    m = TerminalModel(20, 6, scrollback=0)
    m.feed(b"title\x1b[2;6r\x1b[3H")  # a region below a title row, the cursor high in it
    with _skipping():
        m.feed(b"x\r\n" * 3 + b"line\r\n" * 5)
    assert m.text() == ["title", "line", "line", "line", "line", ""]


_SGR_PARAMS = st.one_of(
    st.sampled_from(["", "0", "1", "2", "22", "39", "49", "22;39", "1;31", "7", "27", "5", "8"]),
    st.builds("38;2;{};{};{}".format, *[st.integers(0, 300)] * 3),  # some out of range
    st.builds("48;2;{};{};{}".format, *[st.integers(0, 255)] * 3),
    st.builds("38;5;{}".format, st.integers(0, 300)),
    st.builds("1;38;2;{};{};{}".format, *[st.integers(0, 255)] * 3),
    st.text("0123456789;", max_size=12),
)


@settings(FAST, max_examples=500)
@given(st.lists(_SGR_PARAMS, max_size=30), st.lists(_SGR_PARAMS, max_size=3))
def test_the_pen_of_skipped_sgrs_is_the_pen_they_make_one_by_one(
    steps: list[str], before: list[str]
) -> None:
    """Only the SGRs whose fields no later one sets are decoded, and the pen is the same."""
    pen = Cell(" ")
    for params in before:
        pen = apply(pen, params)
    expected = pen
    for params in steps:
        expected = apply(expected, params)
    sgrs = "".join(f"\x1b[{params}m" for params in steps)
    assert scrolled_module.pen_after(pen, sgrs) == expected
