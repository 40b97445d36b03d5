"""The unfinished end of output before a snapshot, which the client carries over to the repaint."""

from __future__ import annotations

import pytest

from observer.protocol.partial import unfinished_end


@pytest.mark.parametrize(
    ("data", "end"),
    [
        (b"text \x1b[38;", b"\x1b[38;"),
        (b"text \x1b", b"\x1b"),
        (b"text \x1b]0;a title", b"\x1b]0;a title"),
        (b"\x1b]0;done\x07 more \x1bP1$r", b"\x1bP1$r"),
        (b"abc \x1b(", b"\x1b("),
        (b"box \xe2\x94", b"\xe2\x94"),
        (b"emoji \xf0\x9f\x98", b"\xf0\x9f\x98"),
        (b"lead \xc3", b"\xc3"),
    ],
)
def test_an_unfinished_sequence_or_character_is_found(data: bytes, end: bytes) -> None:
    assert unfinished_end(data) == end


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"plain text",
        b"\x1b[31mred",
        b"\x1b[31m",
        b"\x1b]0;title\x07",
        b"\x1bP1$r\x1b\\",
        b"\x1b(B",
        b"\x1b7",
        b"box \xe2\x94\x80",
        b"\x1b[3\x18",  # cancelled
        b"\x80\x80\x80\x80",  # stray continuation bytes: nothing to wait for
    ],
)
def test_finished_output_has_no_unfinished_end(data: bytes) -> None:
    assert unfinished_end(data) == b""
