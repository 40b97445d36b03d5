"""Time transforms: idle cap, speed, shift and cut, as lazy generators."""

from __future__ import annotations

import itertools
import math

import pytest

from observer.asciicast import Event, cap_idle, shift, speed, until


def ev(*times: float) -> list[Event]:
    return [Event(t, "o", str(i)) for i, t in enumerate(times)]


def test_cap_idle_shortens_only_the_long_pauses() -> None:
    out = list(cap_idle(ev(0.5, 10.5, 11.0, 30.0), 2.0))
    assert [e.time for e in out] == [0.5, 2.5, 3.0, 5.0]
    assert [e.data for e in out] == ["0", "1", "2", "3"]


def test_cap_idle_without_a_limit_changes_nothing() -> None:
    events = ev(0.5, 100.0)
    assert list(cap_idle(events, None)) == events


def test_speed_divides_every_time() -> None:
    assert [e.time for e in speed(ev(1.0, 3.0), 2.0)] == [0.5, 1.5]
    assert [e.time for e in speed(ev(1.0, 3.0), 0.5)] == [2.0, 6.0]


def test_shift_moves_times_and_never_below_zero() -> None:
    assert [e.time for e in shift(ev(1.0, 3.0), 1.5)] == [2.5, 4.5]
    assert [e.time for e in shift(ev(1.0, 3.0), -2.0)] == [0.0, 1.0]


def test_until_stops_reading_after_the_time() -> None:
    infinite = (Event(float(i), "o", "x") for i in itertools.count())
    assert [e.time for e in until(infinite, 3.0)] == [0.0, 1.0, 2.0, 3.0]


def test_transforms_compose_lazily_on_endless_streams() -> None:
    infinite = (Event(float(i) * 10, "o", "x") for i in itertools.count())
    out = list(itertools.islice(speed(cap_idle(infinite, 1.0), 2.0), 3))
    assert [e.time for e in out] == [0.0, 0.5, 1.0]


@pytest.mark.parametrize("bad", [0.0, -1.0, math.inf, math.nan])
def test_nonsense_factors_are_refused(bad: float) -> None:
    with pytest.raises(ValueError):
        list(speed(ev(1.0), bad))
    with pytest.raises(ValueError):
        list(cap_idle(ev(1.0), bad))


def test_a_non_finite_shift_is_refused() -> None:
    with pytest.raises(ValueError):
        list(shift(ev(1.0), math.nan))
