"""Input that crashes, hangs or blinds stock pyte 0.8.2 is handled."""

from __future__ import annotations

import pytest

from observer.terminal import TerminalModel
from tests.unit.terminal.conftest import screen

CRASHERS = [
    b"\x1b[?4m",  # vim: private SGR
    b"\x1b[?1001r",  # mc: restore DEC private mode values
    b"\x1b[5K",
    b"\x1b[7J",
    "\x1b[\u0661\u0662m".encode(),  # Arabic-Indic digits in parameters
    b"\x1b[" + b"1;" * 100_000 + b"m",
    b"\x1b[" + b"9" * 5000 + b"A",
    b"\x1b[38;5;999m\x1b[48;5;m\x1b[38;2;300;-1m\x1b[38;2m\x1b[38m",
    b"\x1b[0;0r\x1b[99;1r\x1b[5;3r",
    b"\x1b[?6h\x1b[99;99H\x1b[?6l",
    b"\x1b[999999999999999999999999@\x1b[99999P\x1b[99999X\x1b[99999L\x1b[99999M",
    b"\x1b[99999S\x1b[99999T\x1b[99999b\x1b[99999I\x1b[99999Z",
    b"\x1b#8\x1b[?3h\x1b[?5h\x1b[?3l",
    b"\x1b8\x1b8\x1b[u\x1b7" * 3,
    b"\xff\xfe\xc0\x80\xed\xa0\x80",
    b"\x1b(\x1b)\x1b#\x1b%\x1b",
    b"\x1bP" + b"q#0;2;0;0;0" * 1000 + b"\x1b\\",
]


@pytest.mark.parametrize("data", CRASHERS, ids=range(len(CRASHERS)))
def test_sequences_that_crash_pyte_are_survived(data: bytes) -> None:
    m = TerminalModel(20, 5)
    m.feed(data)
    m.feed(b"\x1b[0m\x1b[H\x1b[2Jalive")
    assert m.text()[0] == "alive"


def test_utf8_fed_one_byte_at_a_time_is_decoded() -> None:
    m = TerminalModel(20, 2)
    for byte in "é一😀\x1b[31mr".encode():
        m.feed(bytes([byte]))
    assert m.text()[0] == "é一😀r"
    assert m.line(0)[5].fg == "red"


def test_every_sequence_split_at_every_byte_gives_the_same_screen() -> None:
    data = "a\x1b[1;31mb\x1b]2;t\x07c\x1b[?1049h\x1b[2;3Hd\x1b(0q\x1b(B一\x1b[6n".encode()
    whole = screen(data)
    for cut in range(len(data)):
        m = TerminalModel(20, 5)
        m.feed(data[:cut])
        m.feed(data[cut:])
        assert m.text() == whole.text() and m.title == whole.title
        assert (m.cursor_x, m.cursor_y) == (whole.cursor_x, whole.cursor_y)


def test_private_and_prefixed_csis_are_ignored_not_misread() -> None:
    m = screen(b"a\x1b[?4mb\x1b[<uc\x1b[>4;1md\x1b[=5ue\x1b[?1001rf\x1b[>0;1;2;3;4;5;6;7mg")
    assert m.text()[0] == "abcdefg"
    assert all(not cell.underscore and cell.fg == "default" for cell in m.line(0))


def test_an_unterminated_osc_ends_at_a_line_break() -> None:
    m = screen(b"\x1b]0;" + b"x" * 1000 + b"\r\nhello", cols=20, rows=3)
    assert m.text() == ["", "hello", ""]
    assert m.title == ""


def test_an_unterminated_10_mib_osc_is_abandoned_and_the_text_after_it_shows() -> None:
    m = screen(b"\x1b]2;" + b"x" * (10 << 20) + b"visible", cols=1000, rows=3, scrollback=0)
    assert m.text()[-1].endswith("visible")
    assert m.title == ""


def test_an_osc_split_over_many_feeds_still_sets_the_title() -> None:
    m = TerminalModel(20, 2)
    for part in (b"\x1b]", b"2;my ", b"title", b"\x1b", b"\\after"):
        m.feed(part)
    assert m.title == "my title" and m.text()[0] == "after"


def test_a_large_osc_52_copy_is_consumed_silently() -> None:
    m = screen(b"\x1b]52;c;" + b"QUFB" * 100_000 + b"\x07ok")
    assert m.text()[0] == "ok"


def test_control_characters_inside_a_csi_are_executed_and_the_csi_completes() -> None:
    m = screen(b"ab\x1b[1\r;31mX")
    assert m.text()[0] == "Xb"
    assert m.line(0)[0].fg == "red"


def test_can_aborts_a_sequence() -> None:
    assert screen(b"\x1b[31\x18mX").text()[0] == "mX"


def test_a_flood_of_combining_marks_stays_bounded() -> None:
    m = screen(b"a" + "\u0301".encode() * 100_000)
    assert len(m.line(0)[0].data) <= 16


def test_a_chunk_full_of_strings_is_parsed_in_one_pass() -> None:
    """Every OSC used to make the parser tokenize the rest of its chunk again: a chunk of
    40,000 hyperlinks (OSC 8 around each word, as modern CLIs print them) took minutes. Now
    each string is read once and the words between them are drawn."""
    link = b"\x1b]8;;https://example.com/x\x1b\\w\x1b]8;;\x1b\\ "
    m = TerminalModel(80, 24, scrollback=0)
    m.feed(link * 40_000 + b"\r\nend")
    assert m.text()[-1] == "end" and m.text()[-2].startswith("w w w")
