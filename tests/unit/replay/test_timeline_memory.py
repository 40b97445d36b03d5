"""What a timeline keeps per event: a long recording, or a live session's history kept for
hours, holds one entry per event in memory, so the entry is small; and a file cannot make the
timeline number kinds of events without end."""

from __future__ import annotations

import tracemalloc

import pytest

from observer.asciicast import Event
from observer.errors import CastFormatError
from observer.replay.timeline import MAX_CODES, Timeline


class Source:
    """A recording's bytes (never read here: only the spans are kept)."""

    def read(self, offset: int, size: int) -> bytes:
        return b""


def test_an_output_event_read_back_from_its_file_costs_under_32_bytes() -> None:
    count = 100_000
    tracemalloc.start()
    try:
        timeline = Timeline(80, 24, source=Source())
        before = tracemalloc.get_traced_memory()[0]
        for n in range(count):
            timeline.append(Event(n * 0.1, "o", "x"), span=(n * 40, 40))
        per_event = (tracemalloc.get_traced_memory()[0] - before) / count
    finally:
        tracemalloc.stop()
    assert len(timeline) == count
    assert per_event < 32


def test_codes_come_back_as_read_and_unknown_ones_are_kept() -> None:
    timeline = Timeline(80, 24)
    events = [Event(0.0, "o", "a"), Event(0.5, "zz", "odd"), Event(1.0, "m", "here")]
    timeline.extend(events)
    assert list(timeline.events(0, 3)) == events
    assert [timeline.code(i) for i in range(3)] == ["o", "zz", "m"]
    assert timeline.first("m") == 2 and timeline.first("x") is None
    tail = timeline.since(1)
    assert list(tail.events(0, 2)) == events[1:]
    assert tail.first("zz") == 0 and tail.first("o") is None


def test_a_file_with_more_kinds_of_events_than_a_timeline_numbers_is_refused() -> None:
    timeline = Timeline(80, 24)
    timeline.extend(Event(0.0, f"c{n}", "") for n in range(MAX_CODES))
    with pytest.raises(CastFormatError, match="kinds of events"):
        timeline.append(Event(0.0, "one more", ""))
    assert len(timeline) == MAX_CODES  # what was read stays
