"""OSC 8 hyperlinks in the model: which cells link where, through every way a row moves, and
the query the view calls (``link_at``, ``is_wrapped``). Byte literals throughout."""

from __future__ import annotations

from collections.abc import Sequence

from observer.terminal import Cell, Link, TerminalModel, is_wrapped, link_at
from observer.terminal.ansi import paint_row
from observer.terminal.links import MAX_URI

URL = "https://example.com/a"
OPEN = f"\x1b]8;;{URL}\x1b\\".encode()
CLOSE = b"\x1b]8;;\x1b\\"


def _links(cells: Sequence[Cell], width: int) -> list[str | None]:
    return [link_at(cells, x) for x in range(width)]


def test_cells_written_while_a_link_is_open_link_to_its_target_and_an_empty_uri_ends_it() -> None:
    m = TerminalModel(12, 2)
    m.feed(b"ab" + OPEN + b"cd" + CLOSE + b"ef")
    assert _links(m.line(0), 7) == [None, None, URL, URL, None, None, None]
    assert m.text()[0] == "abcdef"


def test_bel_ends_an_osc_8_as_well_as_st() -> None:
    m = TerminalModel(12, 2)
    m.feed(b"\x1b]8;;https://a.example/\x07x\x1b]8;;\x07y")
    assert _links(m.line(0), 2) == ["https://a.example/", None]


def test_a_link_split_across_chunks_is_read_whole() -> None:
    m = TerminalModel(12, 2)
    for part in (b"\x1b]8;;https://ex", b"ample.com/a\x1b", b"\\li", b"nk\x1b]8;", b";\x1b\\z"):
        m.feed(part)
    assert _links(m.line(0), 5) == [URL] * 4 + [None]


def test_sgr_0_keeps_the_link_as_in_tmux_and_vte() -> None:
    m = TerminalModel(12, 2)
    m.feed(OPEN + b"\x1b[1;31ma\x1b[0mb\x1b[38;2;1;2;3mc\x1b[m" + CLOSE)
    row = m.line(0)
    assert _links(row, 4) == [URL, URL, URL, None]
    assert (row[0].bold, row[0].fg, row[1].bold, row[2].fg) == (True, "red", False, "010203")


def test_a_link_continues_over_line_breaks_and_cursor_moves_until_closed() -> None:
    m = TerminalModel(12, 3)
    m.feed(OPEN + b"one\r\ntwo\x1b[3;5Hthree" + CLOSE + b"!")
    assert _links(m.line(0), 4) == [URL, URL, URL, None]
    assert _links(m.line(1), 3) == [URL] * 3
    assert _links(m.line(2), 10) == [None] * 4 + [URL] * 5 + [None]


def test_the_id_parameter_is_kept_so_cells_written_apart_are_one_link() -> None:
    m = TerminalModel(12, 2)
    m.feed(b"\x1b]8;id=7:x=y;" + URL.encode() + b"\x1b\\a" + CLOSE + b" ")
    m.feed(b"\x1b]8;id=7;" + URL.encode() + b"\x1b\\b" + CLOSE)
    row = m.line(0)
    assert row[0].link == row[2].link == Link(URL, "7")
    assert row[0].link is row[2].link  # interned: one object per link


def test_wide_and_combining_characters_in_a_link_keep_it() -> None:
    m = TerminalModel(12, 2)
    m.feed(OPEN + "漢e\u0301".encode() + CLOSE)
    assert _links(m.line(0), 4) == [URL, URL, URL, None]
    assert m.line(0)[2].data == "e\u0301"


def test_erasing_or_overwriting_a_linked_cell_drops_its_link() -> None:
    m = TerminalModel(12, 3)
    m.feed(OPEN + b"abcdefgh\r\nijkl" + CLOSE)
    m.feed(b"\x1b[1;2H\x1b[2X")  # ECH two cells
    m.feed(b"\x1b[1;6H\x1b[K")  # EL to the end
    m.feed(b"\x1b[2;2Hz")  # plain text over a linked cell
    assert _links(m.line(0), 8) == [URL, None, None, URL, URL, None, None, None]
    assert _links(m.line(1), 4) == [URL, None, URL, URL]


def test_linked_rows_keep_their_links_in_the_scrollback() -> None:
    m = TerminalModel(10, 2)
    m.feed(OPEN + b"first" + CLOSE + b"\r\nsecond\r\nthird\r\n")
    assert m.history[0][0].data == "f"
    assert _links(m.history[0], 6) == [URL] * 5 + [None]
    assert _links(m.history[1], 1) == [None]


def test_rewrapping_on_a_resize_keeps_each_cells_link() -> None:
    m = TerminalModel(10, 1)
    m.feed(b"abc" + OPEN + b"defg" + CLOSE + b"hi")
    m.resize(4, 1)
    assert [[c.data for c in row] for row in m.history] == [list("abcd"), list("efgh")]
    assert [_links(row, 4) for row in m.history] == [
        [None, None, None, URL],
        [URL, URL, URL, None],
    ]
    m.resize(10, 1)
    assert m.text() == ["abcdefghi"]
    assert _links(m.line(0), 10) == [None] * 3 + [URL] * 4 + [None] * 3


def test_rows_say_whether_they_wrap_on_the_screen_and_in_the_scrollback() -> None:
    m = TerminalModel(5, 2)
    m.feed(b"https://x.example/" + b"\r\nend")
    assert m.text() == ["le/", "end"]
    assert [is_wrapped(m.line(y)) for y in range(2)] == [False, False]
    assert [is_wrapped(row) for row in m.history] == [True, True, True]
    m.feed(b"\x1b[2J\x1b[Habcdefg")
    assert [is_wrapped(m.line(y)) for y in range(2)] == [True, False]


def test_a_snapshot_restores_the_links_and_the_link_still_open() -> None:
    m = TerminalModel(12, 2)
    m.feed(b"x" + OPEN + b"ab")
    snap = m.snapshot()
    m.feed(CLOSE + b"\x1b[2J")
    m.restore(snap)
    m.feed(b"c" + CLOSE + b"d")
    assert _links(m.line(0), 5) == [None, URL, URL, URL, None]


def test_a_repaint_writes_the_links_back_for_a_late_joiner() -> None:
    m = TerminalModel(12, 3)
    m.feed(b"\x1b]8;id=k;" + URL.encode() + b"\x1b\\\x1b[32mgo\r\nto" + CLOSE + b" x\r\n")
    m.feed(OPEN + b"open")  # still open when the repaint is taken
    late = TerminalModel(12, 3)
    late.feed(m.to_ansi().encode())
    assert [late.line(y) for y in range(3)] == [m.line(y) for y in range(3)]
    assert late.line(0)[0].link == Link(URL, "k")
    late.feed(b"!" + CLOSE + b"?")
    assert _links(late.line(2), 6) == [URL] * 5 + [None]


def test_a_screen_sync_row_carries_its_links_and_closes_them() -> None:
    m = TerminalModel(12, 2)
    m.feed(b"a" + OPEN + b"bc" + CLOSE + b"d" + OPEN + b"e")
    out: list[str] = []
    paint_row(out, m.line(0), 12, None)
    text = "".join(out)
    assert text.endswith("e\x1b]8;;\x1b\\")
    fresh = TerminalModel(12, 2)
    fresh.feed(text.encode() + b"f")
    assert _links(fresh.line(0), 6) == [None, URL, URL, None, URL, None]


def test_reset_closes_the_link() -> None:
    m = TerminalModel(12, 2)
    m.feed(OPEN + b"a\x1bcb")
    assert _links(m.line(0), 1) == [None]


def test_link_at_outside_the_row_is_none() -> None:
    m = TerminalModel(4, 1)
    m.feed(OPEN + b"abcd")
    assert (link_at(m.line(0), -1), link_at(m.line(0), 4), link_at((), 0)) == (None, None, None)


# -- hostile targets: agent text ---------------------------------------------------------------


def test_a_target_with_controls_bidi_and_spaces_is_kept_as_printable_ascii() -> None:
    m = TerminalModel(12, 2)
    evil = "https://bank.example/\u202egpj.exe \x9b6n?q=é"
    m.feed(f"\x1b]8;id=a\u202e\x9b;{evil}\x1b\\x".encode())
    link = m.line(0)[0].link
    assert link is not None
    assert link.uri == "https://bank.example/%E2%80%AEgpj.exe%20%C2%9B6n?q=%C3%A9"
    assert link.id == "a"  # the id's bidi and C1 characters are dropped
    repaint = m.to_ansi()
    assert repaint.isascii()
    assert all(c >= " " or c == "\x1b" for c in repaint.replace("\x0f", ""))


def test_an_over_long_target_opens_no_link_and_ends_the_one_open() -> None:
    m = TerminalModel(12, 2)
    m.feed(OPEN + b"a")
    m.feed(b"\x1b]8;;https://x/" + b"y" * MAX_URI + b"\x1b\\b")
    m.feed(b"\x1b]8;;https://x/" + b"z" * 5000 + b"\x1b\\c")  # cut where strings are kept
    assert _links(m.line(0), 3) == [URL, None, None]


def test_a_link_whose_terminator_is_lost_ends_at_the_line_break() -> None:
    m = TerminalModel(12, 2)
    m.feed(b"\x1b]8;;https://x.example/\r\nplain")
    assert m.text() == ["", "plain"]
    assert _links(m.line(1), 5) == [None] * 5


def test_decsc_saves_the_open_link_with_the_pen_and_decrc_restores_it() -> None:
    m = TerminalModel(12, 3)
    m.feed(OPEN + b"\x1b7" + CLOSE + b"ab\x1b8cd")  # saved open, restored open
    m.feed(b"\r\n" + CLOSE + b"\x1b7" + OPEN + b"ab\x1b8c")  # saved closed: closed again
    m.feed(b"\r\n" + OPEN + b"\x1b[?1049h" + CLOSE + b"\x1b[?1049lef")  # 1049 saves it too
    assert _links(m.line(0), 3) == [URL, URL, None]
    assert _links(m.line(1), 3) == [None, URL, None]
    assert _links(m.line(2), 3) == [URL, URL, None]


def test_decrc_without_a_saved_cursor_closes_the_link_with_the_pen() -> None:
    m = TerminalModel(12, 2)
    m.feed(OPEN + b"\x1b[1ma\x1b8b")
    row = m.line(0)
    assert _links(row, 2) == [None, None]
    assert not row[0].bold


def test_a_repaint_carries_the_link_a_saved_cursor_holds() -> None:
    m = TerminalModel(12, 2)
    m.feed(b"\x1b[2;3H" + OPEN + b"\x1b7" + CLOSE + b"\x1b[Hx")
    late = TerminalModel(12, 2)
    late.feed(m.to_ansi().encode())
    for model in (m, late):
        model.feed(b"\x1b8y" + CLOSE + b"z")
    assert [late.line(y) for y in range(2)] == [m.line(y) for y in range(2)]
    assert _links(late.line(1), 5) == [None, None, URL, None, None]
    assert late.snapshot().link is None
