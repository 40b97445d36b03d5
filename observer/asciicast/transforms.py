"""Pure time transforms over event streams: generators in, generators out.

They compose (``speed(cap_idle(reader, 2.0), 4.0)``) and never read ahead, so they work on a
recording of any length. Only event times change; codes and data pass through untouched.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

from observer.asciicast.events import Event


def cap_idle(events: Iterable[Event], limit: float | None) -> Iterator[Event]:
    """Shorten every pause longer than ``limit`` seconds to ``limit`` (asciinema's ``-i``).

    Args:
        events: Events with absolute, non-decreasing times.
        limit: Longest pause kept, in seconds; ``None`` leaves times as they are.

    Raises:
        ValueError: ``limit`` is not a positive finite number.
    """
    if limit is None:
        yield from events
        return
    if not (math.isfinite(limit) and limit > 0):
        raise ValueError(f"the idle limit must be a positive number of seconds, not {limit!r}")
    previous = 0.0
    removed = 0.0
    for event in events:
        gap = event.time - previous
        if gap > limit:
            removed += gap - limit
        previous = event.time
        yield Event(event.time - removed, event.code, event.data)


def speed(events: Iterable[Event], factor: float) -> Iterator[Event]:
    """Play ``factor`` times faster (2.0 halves every time, 0.5 doubles it).

    Raises:
        ValueError: ``factor`` is not a positive finite number.
    """
    if not (math.isfinite(factor) and factor > 0):
        raise ValueError(f"the speed must be a positive number, not {factor!r}")
    for event in events:
        yield Event(event.time / factor, event.code, event.data)


def shift(events: Iterable[Event], offset: float) -> Iterator[Event]:
    """Add ``offset`` seconds to every time; times that would fall below zero become zero.

    Raises:
        ValueError: ``offset`` is not finite.
    """
    if not math.isfinite(offset):
        raise ValueError(f"the time offset must be a finite number, not {offset!r}")
    for event in events:
        yield Event(max(0.0, event.time + offset), event.code, event.data)


def until(events: Iterable[Event], time: float) -> Iterator[Event]:
    """Yield the events that happened at or before ``time``, then stop reading."""
    for event in events:
        if event.time > time:
            return
        yield event
