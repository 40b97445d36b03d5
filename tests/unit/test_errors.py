"""Errors carry what happened and what to do as fields; people read them joined on one line."""

from __future__ import annotations

from observer.asciicast.reader import read_header
from observer.errors import CastFormatError, ConnectionFailed, UsageError, what_happened


def test_an_error_keeps_what_happened_and_what_to_do_apart() -> None:
    error = UsageError("bad --size '0x0'", "use COLSxROWS, e.g. 120x40")
    assert error.what == "bad --size '0x0'"
    assert error.advice == "use COLSxROWS, e.g. 120x40"
    assert str(error) == "bad --size '0x0' — use COLSxROWS, e.g. 120x40"


def test_an_error_without_advice_reads_as_what_happened_alone() -> None:
    error = ConnectionFailed("connection to ws://h failed: OSError", retryable=False)
    assert (error.what, error.advice, str(error)) == (error.what, None, error.what)
    assert error.retryable is False


def test_a_damaged_recording_names_the_file_and_line_in_what_happened() -> None:
    error = CastFormatError("not valid JSON", "the file is damaged", path="a.cast", line=3)
    assert error.what == "a.cast, line 3: not valid JSON"
    assert error.reason == "not valid JSON"
    assert str(error) == "a.cast, line 3: not valid JSON — the file is damaged"


def test_the_reader_reports_a_bad_header_with_advice() -> None:
    try:
        read_header(['{"version": 9, "width": 80, "height": 24}\n'], path="x.cast")
    except CastFormatError as error:
        assert error.what == "x.cast, line 1: unsupported asciicast version 9"
        assert error.advice == "observer reads versions 1, 2 and 3"
    else:
        raise AssertionError("a version 9 header was accepted")


def test_what_happened_is_the_part_before_the_advice() -> None:
    assert what_happened(str(UsageError("it broke", "do this"))) == "it broke"
    assert what_happened("the connection dropped") == "the connection dropped"
