"""Garbage collection paced around floods: frozen while output flows, one collection when quiet."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from observer.app.collector import LONGEST_FREEZE, CollectorPacing


@pytest.fixture
def pacing() -> Iterator[tuple[CollectorPacing, list[float]]]:
    now = [0.0]
    pacing = CollectorPacing(clock=lambda: now[0])
    try:
        yield pacing, now
    finally:
        pacing.stop()


def test_while_output_flows_old_objects_are_kept_out_of_collections(
    pacing: tuple[CollectorPacing, list[float]],
) -> None:
    collector, _ = pacing
    collector.tick(busy=True)
    assert gc.get_freeze_count() > 0
    collector.stop()
    assert gc.get_freeze_count() == 0


def test_once_quiet_everything_is_collected_again_including_cycles_made_while_busy(
    pacing: tuple[CollectorPacing, list[float]],
) -> None:
    collector, now = pacing
    collector.tick(busy=True)
    cycle: list[object] = []
    cycle.append(cycle)
    collector.tick(busy=True)  # the cycle is frozen now: no collection could free it
    del cycle
    now[0] = 1.0
    collector.tick(busy=False)
    assert gc.get_freeze_count() == 0 and collector.collections == 1
    assert not any(
        type(o) is list and len(o) == 1 and o[0] is o for o in gc.get_objects(generation=2)
    )


def test_a_flood_that_never_ends_still_gets_a_collection_now_and_then(
    pacing: tuple[CollectorPacing, list[float]],
) -> None:
    collector, now = pacing
    collector.tick(busy=True)
    now[0] = LONGEST_FREEZE + 0.1
    collector.tick(busy=True)
    assert collector.collections == 1
    collector.tick(busy=True)
    assert gc.get_freeze_count() > 0  # and frozen again for the next stretch
