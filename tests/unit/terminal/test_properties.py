"""Property-based tests of the terminal model (hypothesis).

The default run tries a few examples of each property; ``pytest -m slow`` runs the
thorough versions (at least 20,000 examples for "feed never raises").
"""

from __future__ import annotations

import pyte
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from observer.terminal import Cell, TerminalModel
from observer.terminal.cells import is_wide
from observer.terminal.csi import parse_params
from observer.terminal.sgr import apply_sgr, decode

FAST = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=20_000, deadline=None, suppress_health_check=list(HealthCheck))

# -- strategies -----------------------------------------------------------------------------

_number = st.one_of(st.integers(0, 30), st.sampled_from([99, 9999, 10**12]))
_params = st.lists(st.one_of(_number.map(str), st.just("")), max_size=6).map(";".join)
_csi = st.builds(
    lambda prefix, params, inter, final: f"\x1b[{prefix}{params}{inter}{final}",
    st.sampled_from(["", "?", ">", "<", "=", ""]),
    _params,
    st.sampled_from(["", "", " ", "$", "!"]),
    st.sampled_from(list("@ABCDEFGHIJKLMPSTXZ`abcdefghlmnqrstu")),
)
_modes = st.builds(
    lambda mode, on: f"\x1b[?{mode}{'h' if on else 'l'}",
    st.sampled_from([1, 3, 5, 6, 7, 25, 47, 1000, 1002, 1006, 1047, 1048, 1049, 2004, 2026]),
    st.booleans(),
)
_escape = st.sampled_from(
    ["\x1b7", "\x1b8", "\x1bD", "\x1bE", "\x1bM", "\x1bH", "\x1bc", "\x1b(0", "\x1b(B",
     "\x1b)0", "\x0e", "\x0f", "\x1b#8", "\x1b=", "\x1b>", "\x1b", "\x1b[", "\x1b]0;t",
     "\x07", "\x1b\\", "\x1bP", "\x18", "\x1a"]
)  # fmt: skip
_text = st.text(
    st.sampled_from([*"abc xyz|-_", "一", "😀", "\u0301", "\u200d", "\ufe0f", "🇺", "é"]),
    max_size=30,
)
_controls = st.sampled_from(["\r", "\n", "\r\n", "\b", "\t", "\x0b", "\x0c", "\x00", "\x7f"])
_chunk = st.one_of(_text, _csi, _modes, _escape, _controls)
_terminal_input = st.lists(_chunk, max_size=40).map(lambda parts: "".join(parts).encode())
_anything = st.one_of(st.binary(max_size=300), _terminal_input)


def check_invariants(m: TerminalModel) -> None:
    """What every consumer of the model relies on."""
    assert 0 <= m.cursor_x < m.cols and 0 <= m.cursor_y < m.rows
    for y in range(m.rows):
        row = m.line(y)
        assert len(row) == m.cols
        for x, cell in enumerate(row):
            if cell.data == "":
                assert x > 0 and is_wide(row[x - 1].data), (y, x)
            if is_wide(cell.data):
                assert x + 1 < m.cols and row[x + 1].data == "", (y, x)
    assert len(m.text()) == m.rows
    m.to_ansi()
    m.take_replies()


def feed_in_pieces(data: bytes, cuts: list[int], cols: int, rows: int) -> TerminalModel:
    m = TerminalModel(cols, rows, scrollback=50)
    start = 0
    for cut in sorted(cuts):
        m.feed(data[start:cut])
        start = cut
    m.feed(data[start:])
    return m


# -- feed never raises ---------------------------------------------------------------------


def _never_raises(data: bytes, cuts: list[int], cols: int, rows: int) -> None:
    m = feed_in_pieces(data, cuts, cols, rows)
    check_invariants(m)
    m.resize(cols // 2 + 1, rows + 3)
    m.feed(data)
    check_invariants(m)


@FAST
@given(_anything, st.lists(st.integers(0, 300), max_size=4), st.integers(2, 30), st.integers(1, 8))
def test_feed_never_raises_and_keeps_the_screen_consistent(
    data: bytes, cuts: list[int], cols: int, rows: int
) -> None:
    _never_raises(data, cuts, cols, rows)


@pytest.mark.slow
@SLOW
@given(_anything, st.lists(st.integers(0, 300), max_size=4), st.integers(2, 30), st.integers(1, 8))
def test_feed_never_raises_for_any_bytes_thorough(
    data: bytes, cuts: list[int], cols: int, rows: int
) -> None:
    _never_raises(data, cuts, cols, rows)


# -- an unterminated OSC does not hide what follows ----------------------------------------

_TEN_MIB = b"x" * (10 << 20)
_printable = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=20)


@settings(max_examples=5, deadline=None)
@given(
    st.sampled_from([b"0", b"2", b"52;c", b"8;;http://x", b"777"]),
    st.integers(0, 900 << 10),
    _printable,
)
def test_an_unterminated_osc_followed_by_a_line_shows_the_line(
    code: bytes, size: int, text: str
) -> None:
    m = TerminalModel(40, 5)
    m.feed(b"\x1b]" + code + b";" + _TEN_MIB[:size])
    m.feed(b"\r\n" + text.encode())
    assert m.text()[:2] == ["", text]


@pytest.mark.slow
@settings(max_examples=10, deadline=None, phases=[Phase.generate])
@given(st.sampled_from([b"", b"\r\n", b"\n"]), _printable)
def test_an_unterminated_10_mib_osc_followed_by_text_shows_the_text(
    separator: bytes, text: str
) -> None:
    m = TerminalModel(1000, 3, scrollback=0)
    m.feed(b"\x1b]2;" + _TEN_MIB + separator + text.encode())
    assert m.text()[-1].endswith(text)


# -- to_ansi round-trips -------------------------------------------------------------------

_sgr_code = st.one_of(
    st.sampled_from([0, 1, 2, 3, 4, 5, 7, 9, 21, 22, 23, 24, 25, 27, 29, 39, 49]).map(str),
    st.integers(30, 37).map(str),
    st.integers(40, 47).map(str),
    st.integers(90, 97).map(str),
    st.integers(100, 107).map(str),
    st.builds(lambda fg, n: f"{fg};5;{n}", st.sampled_from([38, 48]), st.integers(0, 255)),
    st.builds(
        lambda fg, r, g, b: f"{fg};2;{r};{g};{b}",
        st.sampled_from([38, 48]),
        st.integers(0, 255),
        st.integers(0, 255),
        st.integers(0, 255),
    ),
)
_sgr = st.lists(_sgr_code, min_size=1, max_size=4).map(lambda codes: f"\x1b[{';'.join(codes)}m")
_move = st.one_of(
    st.builds(lambda y, x: f"\x1b[{y};{x}H", st.integers(0, 9), st.integers(0, 25)),
    st.builds(
        lambda n, f: f"\x1b[{n}{f}", st.integers(0, 5), st.sampled_from(list("ABCDEFGdeaIZ`"))
    ),
    st.sampled_from(["\r", "\n", "\b", "\t", "\x1bD", "\x1bM", "\x1bE", "\r\n"]),
)
_edit = st.one_of(
    st.builds(lambda n, f: f"\x1b[{n}{f}", st.integers(0, 3), st.sampled_from(list("JKXP@LMST"))),
    st.integers(2, 4).map(lambda n: "\x1b[2K\x1b[1A" * n),  # Ink erasing its last frame
)
_state = st.one_of(
    st.builds(
        lambda mode, on: f"\x1b[?{mode}{'h' if on else 'l'}",
        st.sampled_from([1, 6, 7, 25, 47, 1000, 1002, 1006, 1047, 1048, 1049, 2004, 2026]),
        st.booleans(),
    ),
    st.builds(lambda mode, on: f"\x1b[{mode}{'h' if on else 'l'}", st.sampled_from([4, 20]), st.booleans()),
    st.builds(lambda t, b: f"\x1b[{t};{b}r", st.integers(0, 8), st.integers(0, 8)),
    st.sampled_from(["\x1b7", "\x1b8", "\x1b[s", "\x1b[u", "\x1b(0", "\x1b(B", "\x1b)0", "\x0e",
                     "\x0f", "\x1bH", "\x1b[3g", "\x1b[g", "\x1b=", "\x1b>", "\x1b]2;title\x07",
                     "\x1b]0;other \u4e00\x07", "\x1b[22;0t", "\x1b[23;0t",
                     "\x1b]8;;https://a.example/\x1b\\", "\x1b]8;id=x;https://b.example/\x07",
                     "\x1b]8;;\x1b\\"]),
)  # fmt: skip
_screen_text = st.text(
    st.sampled_from([*"abcdefgqx lmnjk-|", "一", "😀", "\u0301", "é"]), min_size=1, max_size=25
)
_screen_ops = st.lists(
    st.one_of(_screen_text, _screen_text, _sgr, _move, _edit, _state), max_size=40
).map(lambda parts: "".join(parts).encode())


_probe = st.lists(
    st.sampled_from(["\x1b8", "\x1b[u", "\x1b[?1049l", "\x1b[23t", "\x1b[?47l", "\x1b[?1047l", "Xq", "\t",
                     "\n\n\n\n\n\n\n\n\n", "\x1bM\x1bM\x1bM", "\x1b[5H\x1b[9B", "\x1b[?6l"]),
    min_size=1,
    max_size=4,
).map(lambda parts: "".join(parts).encode())  # fmt: skip
_continuation = st.builds(lambda probe, ops: probe + ops, _probe, _screen_ops)


def observable(m: TerminalModel) -> tuple[object, ...]:
    """Everything a viewer can see or that changes what the keyboard sends."""
    return (
        [list(m.line(y)) for y in range(m.rows)],
        (m.cursor_x, m.cursor_y, m.cursor_visible),
        m.title,
        (m.alternate, m.synchronized, m.application_cursor, m.bracketed_paste),
    )


def _round_trip(ops: bytes, more: bytes, cols: int, rows: int) -> None:
    a = TerminalModel(cols, rows)
    a.feed(ops)
    b = TerminalModel(cols, rows)
    b.feed(a.to_ansi().encode())
    assert observable(b) == observable(a)
    # Hidden state (pen, saved cursors, margins, modes, character sets, pending wrap) shows
    # in how both continue.
    a.feed(more)
    b.feed(more)
    assert observable(b) == observable(a)


@FAST
@given(_screen_ops, _continuation, st.integers(2, 25), st.integers(1, 9))
def test_to_ansi_reproduces_the_screen_in_a_fresh_model(
    ops: bytes, more: bytes, cols: int, rows: int
) -> None:
    _round_trip(ops, more, cols, rows)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(_screen_ops, _continuation, st.integers(2, 25), st.integers(1, 9))
def test_to_ansi_reproduces_the_screen_in_a_fresh_model_thorough(
    ops: bytes, more: bytes, cols: int, rows: int
) -> None:
    _round_trip(ops, more, cols, rows)


# -- the caches never change the outcome ---------------------------------------------------


def _whole_equals_one_byte_at_a_time(data: bytes, cols: int, rows: int) -> None:
    # Fed whole, repeated runs of text and sequences are drawn from the token caches;
    # fed one byte at a time, every token is new. Both must give the same model. The
    # input is fed three times so the second and third passes reuse what the first
    # remembered, in whatever pen and state the first one left.
    whole = TerminalModel(cols, rows, scrollback=50)
    single = TerminalModel(cols, rows, scrollback=50)
    for _ in range(3):
        whole.feed(data)
        for i in range(len(data)):
            single.feed(data[i : i + 1])
        assert observable(whole) == observable(single)
        assert [list(row) for row in whole.history] == [list(row) for row in single.history]
        assert whole.to_ansi() == single.to_ansi()


@FAST
@given(_screen_ops, st.integers(2, 25), st.integers(1, 9))
def test_feeding_whole_gives_the_same_model_as_feeding_one_byte_at_a_time(
    data: bytes, cols: int, rows: int
) -> None:
    _whole_equals_one_byte_at_a_time(data, cols, rows)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(_screen_ops, st.integers(2, 25), st.integers(1, 9))
def test_feeding_whole_gives_the_same_model_as_feeding_one_byte_at_a_time_thorough(
    data: bytes, cols: int, rows: int
) -> None:
    _whole_equals_one_byte_at_a_time(data, cols, rows)


# -- the fast path gives the same screen as stock pyte --------------------------------------

# Input both emulators handle alike: printable ASCII, line controls, the SGR codes pyte
# knows, absolute and relative cursor moves, erases with the default pen. Left out on
# purpose, where this model follows tmux and xterm instead of pyte: backgrounds (rows
# scrolled in and erased cells take the pen's background here), backspace/CUB/HT from a
# pending wrap, wide characters at the right margin.
_pyte_sgr = st.lists(
    st.one_of(
        st.sampled_from([0, 1, 3, 4, 5, 7, 9, 22, 23, 24, 25, 27, 29, 39, 49]),
        st.integers(30, 37),
        st.integers(90, 97),
    ),
    min_size=1,
    max_size=3,
).map(lambda codes: "\x1b[" + ";".join(map(str, codes)) + "m")
_pyte_ops = st.lists(
    st.one_of(
        st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1, max_size=90),
        _pyte_sgr,
        st.sampled_from(["\r", "\n", "\r\n"]),
        st.builds(lambda y, x: f"\x1b[{y};{x}H", st.integers(1, 30), st.integers(1, 90)),
        st.builds(lambda n, f: f"\x1b[{n}{f}", st.integers(1, 5), st.sampled_from(list("ABC"))),
        st.builds(
            lambda n, f: f"\x1b[0m\x1b[{n}{f}", st.integers(0, 2), st.sampled_from(list("JK"))
        ),
    ),
    max_size=60,
).map(lambda parts: "".join(parts).encode())


def _same_as_pyte(data: bytes, cols: int, rows: int) -> None:
    screen = pyte.Screen(cols, rows)
    pyte.ByteStream(screen).feed(data)
    m = TerminalModel(cols, rows)
    m.feed(data)
    for y in range(rows):
        # pyte's Char lacks ``dim``, ``conceal`` and ``link`` (SGR 2 and 8, OSC 8: not sent)
        expected = [(*screen.buffer[y][x], False, False, None) for x in range(cols)]
        assert [tuple(cell) for cell in m.line(y)] == expected, y
    assert (min(screen.cursor.x, cols - 1), screen.cursor.y) == (m.cursor_x, m.cursor_y)


@FAST
@given(_pyte_ops, st.integers(2, 100), st.integers(1, 30))
def test_the_screen_equals_stock_pyte_on_input_both_handle(
    data: bytes, cols: int, rows: int
) -> None:
    _same_as_pyte(data, cols, rows)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(_pyte_ops, st.integers(2, 100), st.integers(1, 30))
def test_the_screen_equals_stock_pyte_on_input_both_handle_thorough(
    data: bytes, cols: int, rows: int
) -> None:
    _same_as_pyte(data, cols, rows)


# -- re-wrapping on resize -------------------------------------------------------------------

_lines = st.lists(
    st.text(st.sampled_from([*"abc xyz", "一", "😀"]), max_size=70), min_size=1, max_size=12
).map(lambda lines: "\r\n".join(lines).encode())


def _rewrap_round_trip(data: bytes, cols: int, narrower: int, rows: int) -> None:
    # The cursor is not compared: like tmux (grid_unwrap_position), re-wrapping moves a
    # cursor that stood past the end of its line to the end of that line.
    m = TerminalModel(cols, rows, scrollback=1000)
    m.feed(data)
    before = (m.text(), [tuple(row) for row in m.history])
    m.resize(narrower, rows)
    check_invariants(m)
    m.resize(cols, rows)
    assert (m.text(), [tuple(row) for row in m.history]) == before
    assert 0 <= m.cursor_x < cols and 0 <= m.cursor_y < rows


@FAST
@given(_lines, st.integers(10, 60), st.integers(2, 9), st.integers(1, 8))
def test_narrowing_and_widening_again_gives_the_same_screen_and_scrollback(
    data: bytes, cols: int, narrower: int, rows: int
) -> None:
    _rewrap_round_trip(data, cols, narrower, rows)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(_lines, st.integers(10, 60), st.integers(2, 9), st.integers(1, 8))
def test_narrowing_and_widening_again_gives_the_same_screen_and_scrollback_thorough(
    data: bytes, cols: int, narrower: int, rows: int
) -> None:
    _rewrap_round_trip(data, cols, narrower, rows)


# -- the fast SGR decoder agrees with the full one -------------------------------------------

_sgr_field = st.one_of(
    st.sampled_from(["", "0", "00", "1", "01", "2", "22", "38", "48", "58", "2", "5", "39", "49"]),
    st.integers(0, 300).map(str),
    st.sampled_from(["0001", "99999", "9" * 30]),
)
_sgr_params = st.lists(_sgr_field, min_size=1, max_size=9).map(";".join)
_pens = st.builds(
    lambda fg, bg, bold, italics: Cell(" ", fg, bg, bold, italics),
    st.sampled_from(["default", "red", "0a0b0c"]),
    st.sampled_from(["default", "brightblue", "ffffff"]),
    st.booleans(),
    st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(_pens, _sgr_params)
def test_the_fast_sgr_decoder_gives_the_pen_the_full_decoder_gives(pen: Cell, params: str) -> None:
    fast = decode(pen, params)
    if fast is not None:  # it declines only what it leaves to the full decoder
        assert fast == apply_sgr(pen, parse_params(params) or ())
