"""The reader's fast path (the usual ``[float, "code", "text"]`` line) judges lines exactly as the
thorough path does: these lines all have float times, the shape a recorder writes."""

from __future__ import annotations

import io

import pytest

from observer.asciicast import CastReader, Event
from observer.errors import CastFormatError

V2 = '{"version": 2, "width": 8, "height": 2}\n'
V3 = '{"version": 3, "term": {"cols": 8, "rows": 2}}\n'


def events(text: str, **kwargs: bool) -> tuple[CastReader, list[Event]]:
    reader = CastReader(io.StringIO(text), path="t.cast", **kwargs)
    return reader, list(reader)


@pytest.mark.parametrize(
    ("bad_line", "reason"),
    [
        ('[1.0, "o", "a"] x', "not valid JSON"),
        ('[1.0, "o", "a"]]', "not valid JSON"),
        ('[1.0, "o", "a", "b"]', "[time, code, data]"),
        ('[1.0, "o"]', "[time, code, data]"),
        ('[1.0, 5, "a"]', "code"),
        ('[1.0, "", "a"]', "code"),
        ('[1.0, "o", null]', "not a string"),
        ('[1.0, "o", ["a"]]', "not a string"),
        ('[1e999, "o", "a"]', "finite"),
        ('[-1e999, "o", "a"]', "finite"),
        ('[1.0, "o", NaN]', "not a valid JSON number"),
        ('[1.0, "r", "80by24"]', "bad resize"),
        ('[1.0, "r", "80x0"]', "bad resize"),
    ],
)
def test_a_damaged_line_with_a_float_time_is_an_error_naming_its_line(
    bad_line: str, reason: str
) -> None:
    text = f'{V2}[1.0, "o", "a"]\n{bad_line}\n[3.0, "o", "c"]\n'
    with pytest.raises(CastFormatError) as info:
        events(text)
    assert info.value.line == 3
    assert reason in str(info.value)


def test_lines_with_unusual_but_valid_spacing_are_read_like_the_usual_ones() -> None:
    text = f'{V2}[1.0,"o","a"]\n  [1.5, "o", "b"]  \n[2.0, "o", "c"]\r\n[2.5 , "o" , "d"]\n'
    reader, read = events(text)
    assert read == [
        Event(1.0, "o", "a"),
        Event(1.5, "o", "b"),
        Event(2.0, "o", "c"),
        Event(2.5, "o", "d"),
    ]
    assert reader.skipped == 0


def test_float_resize_events_are_checked_and_kept() -> None:
    _, read = events(f'{V3}[0.5, "r", "90x30"]\n[0.25, "o", "x"]\n')
    assert read == [Event(0.5, "r", "90x30"), Event(0.75, "o", "x")]


def test_negative_float_intervals_and_backward_float_times_are_clamped_and_counted() -> None:
    reader, read = events(f'{V3}[2.0, "o", "a"]\n[-0.5, "o", "b"]\n[1.0, "o", "c"]\n')
    assert [e.time for e in read] == [2.0, 2.0, 3.0] and reader.clamped == 1
    reader, read = events(f'{V2}[2.0, "o", "a"]\n[1.5, "o", "b"]\n')
    assert [e.time for e in read] == [2.0, 2.0] and reader.clamped == 1


def test_a_damaged_line_without_newline_in_the_middle_is_damage_not_a_cut_off_end() -> None:
    """An iterable other than a file may hold lines without newlines anywhere."""
    lines = [V2, '[1.0, "o", "a"]\n', '[1.5, "o", "b', '[2.0, "o", "c"]\n']
    with pytest.raises(CastFormatError) as info:
        list(CastReader(iter(lines), path="t.cast"))
    assert info.value.line == 3
    reader = CastReader(iter(lines), path="t.cast", lenient=True)
    assert [e.data for e in reader] == ["a", "c"]
    assert reader.skipped == 1 and not reader.truncated


def test_a_cut_off_last_float_line_is_dropped_in_strict_mode() -> None:
    reader, read = events(f'{V3}[0.5, "o", "a"]\n[0.25, "o", "b')
    assert read == [Event(0.5, "o", "a")]
    assert reader.truncated and reader.skipped == 1


def test_comments_and_blank_lines_between_float_lines_keep_line_numbers_right() -> None:
    text = f'{V3}# c\n\n[0.5, "o", "a"]\n# d\n[0.5, "o", 7]\n'
    with pytest.raises(CastFormatError) as info:
        events(text)
    assert info.value.line == 6
