"""Garbage collection paced around output: bounded collections and freezes while output flows,
a full collection once quiet (at most every FULL_EVERY seconds), never one forced by time."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from observer.runtime.collector import FULL_EVERY, TRIM_EVERY, CollectorPacing


class Node:
    """An object that can sit in a reference cycle and be watched by a weak reference."""

    def __init__(self) -> None:
        self.other: object = self


Pacing = tuple[CollectorPacing, list[float]]


@pytest.fixture
def pacing() -> Iterator[Pacing]:
    now = [0.0]
    collector = CollectorPacing(lambda: now[0], freeze_at=1_000)
    try:
        yield collector, now
    finally:
        collector.stop()


def kept_objects(count: int) -> list[list[int]]:
    """Live objects that reach the oldest generation (as a session's model and lines do)."""
    objects = [[n] for n in range(count)]
    gc.collect()
    return objects


def frozen_cycle(collector: CollectorPacing) -> weakref.ref[Node]:
    """A cycle frozen with other live objects while output flows, then dead."""
    cycle = Node()
    watched = weakref.ref(cycle)
    kept = kept_objects(5_000)
    collector.tick(busy=True)
    assert gc.get_freeze_count() >= len(kept)
    return watched


def test_the_walked_part_of_the_oldest_generation_stays_small_while_output_flows(
    pacing: Pacing,
) -> None:
    collector, _ = pacing
    kept = kept_objects(5_000)
    collector.tick(busy=True)
    assert len(gc.get_objects(generation=2)) <= collector.freeze_at
    assert gc.get_freeze_count() >= len(kept)
    collector.stop()
    assert gc.get_freeze_count() == 0


def test_cycles_that_died_before_a_freeze_are_freed_while_output_flows(pacing: Pacing) -> None:
    collector, _ = pacing
    cycle = Node()
    watched = weakref.ref(cycle)
    kept = kept_objects(5_000)  # cycle is in the oldest generation now, with them
    del cycle
    collector.tick(busy=True)  # collected before anything is frozen
    assert watched() is None and gc.get_freeze_count() >= len(kept)
    assert collector.collections == 0


def test_output_that_never_stops_never_forces_a_full_collection(pacing: Pacing) -> None:
    collector, now = pacing
    watched = frozen_cycle(collector)  # died frozen: only a full collection frees it
    for tick in range(2_000):  # 500 s at the app's pace, output all the time
        now[0] = tick * 0.25
        collector.tick(busy=True)
    assert collector.collections == 0 and watched() is not None


def test_once_quiet_frozen_cycles_are_freed_by_one_full_collection(pacing: Pacing) -> None:
    collector, now = pacing
    watched = frozen_cycle(collector)
    gc.collect()
    assert watched() is not None  # frozen: no collection looks at it
    now[0] = FULL_EVERY
    collector.tick(busy=False)
    assert collector.collections == 1 and watched() is None
    assert gc.get_freeze_count() == 0


def test_full_collections_are_at_least_full_every_seconds_apart(pacing: Pacing) -> None:
    collector, now = pacing
    kept = kept_objects(5_000)
    collector.tick(busy=True)
    now[0] = FULL_EVERY / 2
    collector.tick(busy=False)
    assert collector.collections == 0 and gc.get_freeze_count() >= len(kept)
    now[0] = FULL_EVERY
    collector.tick(busy=False)
    assert collector.collections == 1


def test_walks_that_find_no_garbage_come_ever_later(pacing: Pacing) -> None:
    collector, _ = pacing
    kept: list[object] = []
    for _ in range(40):  # 40 s of output that keeps what it makes (cached lines)
        kept.append(kept_objects(2_000))
        collector.tick(busy=True)
    assert collector.freezes == 40
    assert collector.walks == 5  # at the 1st, 3rd, 7th, 15th and 31st freeze
    # What dies young between walks is freed, not frozen.
    cycle = Node()
    watched = weakref.ref(cycle)
    del cycle
    kept.append(kept_objects(0))
    collector.tick(busy=True)
    assert watched() is None


def test_a_walk_that_finds_garbage_keeps_them_coming(pacing: Pacing) -> None:
    collector, _ = pacing
    kept: list[object] = []
    for _ in range(3):
        cycles = [Node() for _ in range(2_000)]
        kept.append(kept_objects(2_000))  # the cycles are in the oldest generation with them
        watched = weakref.ref(cycles[0])
        del cycles
        collector.tick(busy=True)
        assert watched() is None
    assert collector.walks == 3


def test_free_heap_pages_are_given_back_each_minute_busy_or_quiet() -> None:
    now, given = [0.0], []
    collector = CollectorPacing(
        lambda: now[0], freeze_at=1_000, give_back=lambda: given.append(now[0])
    )
    try:
        for second in range(1, 3 * int(TRIM_EVERY) + 1):
            now[0] = float(second)
            collector.tick(busy=second < 2 * TRIM_EVERY)
    finally:
        collector.stop()
    assert given == [TRIM_EVERY, 2 * TRIM_EVERY, 3 * TRIM_EVERY]
