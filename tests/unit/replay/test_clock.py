"""The playback clock, driven by plain numbers for ``now``."""

from __future__ import annotations

import pytest

from observer.replay import PlaybackClock, next_marker, previous_marker
from observer.replay.timeline import Marker


def test_playing_moves_with_the_wall_clock_and_pausing_holds_the_position() -> None:
    clock = PlaybackClock(60.0)
    assert clock.time(100.0) == 0.0
    clock.play(100.0)
    assert clock.time(103.5) == 3.5
    clock.pause(104.0)
    assert clock.time(200.0) == 4.0
    clock.toggle(300.0)
    assert clock.time(301.0) == 5.0


def test_playback_stops_at_the_end_and_play_at_the_end_starts_again() -> None:
    clock = PlaybackClock(10.0)
    clock.play(0.0)
    assert clock.time(50.0) == 10.0
    assert clock.at_end(50.0)
    clock.pause(50.0)
    clock.play(51.0)
    assert clock.time(52.0) == 1.0


@pytest.mark.parametrize(
    ("presses", "speed"), [(("+",), 2.0), (("+",) * 9, 16.0), (("-",) * 9, 0.25), (("-", "+"), 1.0)]
)
def test_speed_steps_between_a_quarter_and_sixteen(presses: tuple[str, ...], speed: float) -> None:
    clock = PlaybackClock(100.0)
    for press in presses:
        (clock.faster if press == "+" else clock.slower)(0.0)
    assert clock.speed == speed


def test_changing_speed_while_playing_does_not_jump() -> None:
    clock = PlaybackClock(100.0)
    clock.play(0.0)
    clock.faster(10.0)  # 2x from t=10
    assert clock.time(10.0) == 10.0
    assert clock.time(15.0) == 20.0


def test_seeks_are_clamped_to_the_timeline_and_keep_playing() -> None:
    clock = PlaybackClock(30.0)
    clock.play(0.0)
    assert clock.skip(-5.0, 2.0) == 0.0
    assert clock.skip(30.0, 2.0) == 30.0
    assert clock.seek(12.0, 3.0) == 12.0
    assert clock.time(4.0) == 13.0


def test_a_growing_timeline_keeps_the_position_and_lets_playback_continue() -> None:
    clock = PlaybackClock(5.0)
    clock.play(0.0)
    assert clock.time(8.0) == 5.0
    clock.grow(20.0, 8.0)
    assert clock.time(10.0) == 7.0


MARKERS = [Marker(2.0, "a", 1), Marker(10.0, "b", 5), Marker(20.0, "c", 9)]


def test_next_marker_is_the_first_strictly_after_now() -> None:
    assert next_marker(MARKERS, 0.0) == MARKERS[0]
    assert next_marker(MARKERS, 10.0) == MARKERS[2]
    assert next_marker(MARKERS, 20.0) is None


def test_previous_marker_walks_back_when_pressed_right_after_one() -> None:
    assert previous_marker(MARKERS, 15.0) == MARKERS[1]
    assert previous_marker(MARKERS, 10.0) == MARKERS[0]
    assert previous_marker(MARKERS, 10.4) == MARKERS[0]
    assert previous_marker(MARKERS, 2.5) == MARKERS[0]
    assert previous_marker(MARKERS, 1.0) is None
