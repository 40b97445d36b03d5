"""The caches of the fast paths never change what is drawn: a remembered token met again
in another pen, another character set, insert mode or next to a wide character is drawn
as the first time, and runs too long to be compiled still take effect.

Each test feeds one token (text with the sequences before it) several times, in separate
feeds so that it is the same token each time and gets remembered, then meets it again in
a different state.
"""

from __future__ import annotations

import random

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
    m.feed("一二\r\x1b[3C".encode())
    m.feed(b"\x1b[0mab")
    assert [cell.data for cell in m.line(3)[:6]] == ["一", "", " ", "a", "b", " "]


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


# -- colours met once (a truecolour word each) ------------------------------------------------


def _cells(m: TerminalModel) -> list[list[tuple[object, ...]]]:
    return [[tuple(cell) for cell in m.line(y)] for y in range(m.rows)]


def _same_as_bytewise(data: bytes, cols: int, rows: int) -> TerminalModel:
    """A model fed ``data`` at once, checked against one fed it a byte at a time (every
    sequence then comes as a token of its own, through the general path)."""
    whole, bytewise = TerminalModel(cols, rows), TerminalModel(cols, rows)
    whole.feed(data)
    for i in range(len(data)):
        bytewise.feed(data[i : i + 1])
    assert _cells(whole) == _cells(bytewise)
    assert (whole.cursor_x, whole.cursor_y) == (bytewise.cursor_x, bytewise.cursor_y)
    return whole


def test_a_colour_met_once_draws_what_the_compiled_colour_draws() -> None:
    """The first sight of an SGR is decoded on its own; the third is compiled and cached.
    Both give the same cells, in any pen they start from and whatever SGR follows."""
    words = (
        b"\x1b[1mA\x1b[38;2;10;20;30mfoo\x1b[22;39m bar\x1b[48;2;1;2;3mbg\x1b[49m "
        b"\x1b[4;38;5;3mun\x1b[0m\x1b[38;2;300;0;9;1mX\x1b[22;39m\x1b[7m\x1b[38;5;200mr\x1b[27m"
    )
    once = TerminalModel(60, 3)
    once.feed(words)
    again = TerminalModel(60, 3)
    for _ in range(3):
        again.feed(b"\x1b[H\x1b[0m" + words)
    assert _cells(once) == _cells(again)
    assert once.line(0)[1].fg == "0a141e" and once.line(0)[1].bold
    assert not once.line(0)[4].bold and once.line(0)[4].fg == "default"


def test_a_reset_after_a_colour_met_once_ends_only_what_it_names() -> None:
    # 39 after a truecolour word taken from an italic pen keeps the italics; 22;39 after
    # a truecolour background keeps the background.
    m = screen(b"\x1b[3ma\x1b[38;2;1;2;3mb\x1b[39mc\x1b[48;2;4;5;6md\x1b[22;39me", cols=10)
    a, b, c, d, e = m.line(0)[:5]
    assert a.italics and b.italics and c.italics and c.fg == "default"
    assert (d.bg, e.bg, e.fg, e.italics) == ("040506", "040506", "default", True)


def test_colours_met_once_mostly_stay_out_of_the_pen_caches() -> None:
    """Only a word that wraps at the margin (drawn the general way) caches its pen."""
    m = TerminalModel(80, 24)
    for i in range(200):
        m.feed(f"\x1b[38;2;{i};{i};{i}mword\x1b[39m ".encode())
    assert len(m._screen._pens) < 5 and len(m._screen._caches) < 20


def test_an_sgr_too_long_before_text_is_ignored_whole_or_split() -> None:
    stream = b"\x1b[" + b"1;" * 600 + b"31mskipped"
    for cuts in ([], [700], [1025]):
        m = TerminalModel(20, 3)
        start = 0
        for cut in [*cuts, len(stream)]:
            m.feed(stream[start:cut])
            start = cut
        assert m.text()[0] == "skipped" and m.line(0)[0].fg == "default", cuts


def _frames() -> bytes:
    """Three frames of an Ink-like agent UI, as the truecolour benchmark draws them: each
    erases the previous one line by line, then a bordered transcript where most words carry
    a colour of their own (some in bold, some colours coming back), a shimmering line with a
    colour per character, an OSC 8 link, and a status line."""
    out = []
    for frame in range(3):
        border = f"\x1b[38;2;{40 + frame};155;52m"
        lines = [f"{border}╭{'─' * 26}╮\x1b[39m"]
        for row in range(3):
            words = []
            for i, word in enumerate(("build", "test", "cache", "render", "token")):
                colour = f"{(frame * 7 + row * 3 + i) % 256};{i * 40};200"
                bold = "\x1b[1m" if i == 2 else ""
                words.append(f"\x1b[38;2;{colour}m{bold}{word}\x1b[22;39m ")
            words.append("\x1b[38;2;215;119;87m·theme\x1b[39m")  # the same colour each frame
            lines.append(f"{border}│\x1b[39m {''.join(words)}{border}│\x1b[39m")
        lines.append(
            "".join(f"\x1b[38;2;{frame + i};{120 + i * 3};255m{c}" for i, c in enumerate("✻ Thin…"))
        )
        lines.append("\x1b]8;;https://example.com/pr\x1b\\\x1b[38;2;1;2;3mPR\x1b[39m\x1b]8;;\x1b\\")
        lines.append("\x1b[2m  ⏵⏵ auto-accept edits on\x1b[22m")
        out.append(("\x1b[2K\x1b[1A" * (len(lines) - 1) if frame else "") + "\x1b[2K\x1b[G")
        out.append("\r\n".join(lines))
    return "".join(out).encode()


def test_an_ink_frame_drawn_at_once_equals_the_same_bytes_fed_one_byte_at_a_time() -> None:
    """Fed byte by byte, every token is cut: no fast path, cache or remembered text is used,
    so the screen is what the general path draws."""
    data = _frames()
    whole, bytewise = TerminalModel(40, 10), TerminalModel(40, 10)
    whole.feed(data)
    for i in range(len(data)):
        bytewise.feed(data[i : i + 1])
    assert _cells(whole) == _cells(bytewise)
    assert whole.text()[1].startswith("│ build test cache render token ·theme")


def test_a_truecolour_word_in_bold_and_the_reset_after_it() -> None:
    m = screen(b"\x1b[3ma\x1b[38;2;9;8;7m\x1b[1mbold\x1b[22;39m x", cols=12)
    _, b, _, _, _, space, x = m.line(0)[:7]
    assert (b.fg, b.bold, b.italics) == ("090807", True, True)
    assert (space.fg, space.bold, x.italics, x.bold) == ("default", False, True, False)


def test_a_remembered_reset_after_a_colour_met_once_keeps_what_the_pen_before_had() -> None:
    """``ESC[22;39m x`` remembered after words of plain pens is met after a word of an italic
    pen: the italics stay."""
    m = TerminalModel(40, 4)
    for i in range(5):
        m.feed(f"\x1b[38;2;{i};1;1mw\x1b[22;39m x ".encode())
    m.feed(b"\r\n\x1b[3mi ")
    m.feed(b"\x1b[38;2;9;9;9mw\x1b[22;39m x ")
    _, _, w, _, x = m.line(1)[:5]
    assert (w.fg, w.italics, x.fg, x.italics) == ("090909", True, "default", True)


def test_a_theme_colour_on_the_same_word_comes_back_remembered() -> None:
    m = TerminalModel(40, 4)
    token = b"\x1b[38;2;215;119;87mtheme"
    for _ in range(5):
        m.feed(token + b"\x1b[39m\r\n")
    assert token.decode() in m._stream._known
    assert [m.line(y)[0].fg for y in range(3)] == ["d77757"] * 3


def test_inks_erase_of_its_last_frame_compiled_does_what_each_erase_and_move_does() -> None:
    """``(ESC[2K ESC[1A)*k`` is folded into one step once compiled: from any row, with and
    without a scrolling region (CUU stops at its top margin, or at the top row above it)."""
    fill = b"".join(b"\x1b[%dHrow%d" % (y, y) for y in range(1, 11))
    for region in (b"", b"\x1b[4;8r"):
        for row in (1, 2, 5, 6, 10):
            for count in (2, 4, 9):
                erase = b"\x1b[%d;3H" % row + b"\x1b[2K\x1b[1A" * count + b"\x1b[Gx"
                compiled, bytewise = TerminalModel(12, 10), TerminalModel(12, 10)
                for _ in range(3):  # compiled the second time it is seen, used the third
                    compiled.feed(region + fill + erase)
                for byte in region + fill + erase:
                    bytewise.feed(bytes([byte]))
                case = (region, row, count)
                assert _cells(compiled) == _cells(bytewise), case
                assert (compiled.cursor_x, compiled.cursor_y) == (
                    bytewise.cursor_x,
                    bytewise.cursor_y,
                ), case


def test_rows_painted_at_new_places_in_colours_met_before_draw_as_byte_by_byte() -> None:
    """A row painted at a place not seen before, in a colour that is (a screen-sync repaint,
    an Ink redraw): the moves and erases run on their own and the colour and text go on as
    a token of their own, remembered from elsewhere; in any pen the moves leave (bold set
    before the move, a reset after it), the cells are what the general path draws."""
    colours = [f"\x1b[38;2;{n};90;200m" for n in range(4)]
    words = ["build ", "test ", "cache "]
    rows = []
    for frame in range(12):
        for y in range(frame % 5, 8, 2):
            before = ("\x1b[1m", "", "\x1b[0m\x1b[7m")[(frame + y) % 3]
            row = "".join(colours[(y + i) % 4] + words[(frame + i) % 3] for i in range(3))
            rows.append(f"{before}\x1b[{y + 1};{frame % 3 + 1}H\x1b[0m\x1b[2K{row}\x1b[1m!")
    whole = _same_as_bytewise("".join(rows).encode(), 40, 10)
    assert whole.text()[:2] == [" test cache build !", "  cache build test !"]


def test_runs_that_end_by_parking_the_cursor_somewhere_new_do_what_each_sequence_does() -> None:
    """A full-screen program ends each frame with its usual sequences and a jump to a new
    place (then another sequence, such as the end of a synchronized update): the usual
    sequences run compiled, then the jump, from any pen (an erase in a coloured pen), in a
    scrolling region under origin mode, with jumps off the screen, with leading zeros, and
    with jumps of other shapes (taken part by part)."""
    rnd = random.Random(7)
    heads = ["\x1b[K", "\x1b[0m\x1b[K", "\x1b[41m\x1b[K", "\x1b[31m", "\r\n\x1b[2K", "\x1b[1;1H"]
    jumps = ["{};{}H", "00{};0{}H", ";{}H", "{};{};1H", "{}H"]
    parts = []
    for frame in range(300):
        if frame == 150:
            parts.append("\x1b[3;7r\x1b[?6h")
        head = rnd.choice(heads)
        jump = rnd.choice(jumps).format(rnd.randint(0, 14), rnd.randint(0, 30))
        if frame % 7 == 0:  # the usual sequences on their own: compiled
            parts.append(f"{head}\x1b[?25l")
        parts.append(f"{head}\x1b[{jump}\x1b[?25lw{frame % 10}")
    _same_as_bytewise("".join(parts).encode(), 24, 10)


def test_one_sgr_before_new_words_draws_as_byte_by_byte_from_any_pen() -> None:
    """The usual prefix of a new text is one SGR: compiled the second time it is seen (a
    colour, a reset and a colour, a bare reset, flags, 256 and RGB colours, a background),
    it draws each text, new or met before, as the general path does, from whatever pen came
    before (a truecolour word met once among them)."""
    rnd = random.Random(11)
    sgrs = ["31", "0;32", "", "1;4", "38;5;100", "48;2;1;2;3", "0", "22;39", "7"]
    pens = ["", "\x1b[1m", "\x1b[7m\x1b[38;2;9;9;9m", "\x1b[0m"]
    words = ["alpha", "beta", "gamma"]
    parts = []
    for i in range(400):
        text = " ".join(rnd.choice(words) for _ in range(rnd.randint(1, 2)))
        # A sequence that is not a simple CSI keeps the SGR a token of its own.
        parts.append(f"{rnd.choice(pens)}\x1b[?25l\x1b[{i % 8 + 1};{i % 5 + 1}H\x1b[?25h")
        if i % 3 == 0:  # a word in a colour met once: the pen the SGR meets is derived
            parts.append(f"\x1b[38;2;{i % 256};{i % 7};{i % 11}mw{i}\x1b[?25h")
        parts.append(f"\x1b[{rnd.choice(sgrs)}m{text}{i % 2 or ''}")
    _same_as_bytewise("".join(parts).encode(), 40, 8)
