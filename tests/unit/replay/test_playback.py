"""The replay's position, driven with plain numbers: what the screen shows at each call."""

from __future__ import annotations

from observer.asciicast import Event
from observer.replay import KeyframeIndex, Match, Playback, Timeline


def timeline(*events: tuple[float, str, str]) -> Timeline:
    result = Timeline(20, 2)
    result.extend(Event(*event) for event in events)
    result.complete = True
    return result


def playback(line: Timeline, *, autoplay: bool) -> Playback:
    index = KeyframeIndex(line)
    index.build(10_000)
    result = Playback(line, index, autoplay=autoplay)
    result.start(0.0)
    result.frame(0.0)  # the first frame: the clock learns how long the recording is
    return result


def top(playback: Playback) -> str:
    return playback.player.model.text()[0]


COUNTING = timeline((0.0, "m", "start"), (1.0, "o", "a"), (1.0, "o", "b"), (3.0, "o", "c"))


def test_playing_follows_the_clock_and_stops_at_the_end() -> None:
    p = playback(COUNTING, autoplay=True)
    assert top(p) == "" and p.frame(0.5) is None  # 0:00 holds only a marker: nothing drawn
    moved = p.frame(1.0)
    assert moved is not None and 0 in moved.dirty
    assert top(p) == "ab"
    p.frame(10.0)
    assert top(p) == "abc" and not p.clock.playing


def test_paused_it_opens_on_the_first_output_as_a_step_shows_it() -> None:
    p = playback(COUNTING, autoplay=False)
    assert top(p) == "a" and p.clock.time(0.0) == 1.0 and not p.clock.playing
    p.frame(5.0)
    assert top(p) == "a"  # pinned: time passing paused changes nothing
    p.step(5.0)
    assert top(p) == "ab"


def test_a_seek_unpins_and_a_match_pins_again() -> None:
    p = playback(COUNTING, autoplay=False)
    p.seek(3.0, 1.0)
    assert top(p) == "abc" and p.pinned is None
    p.jump(Match(time=1.0, count=2, row=0), 2.0)
    assert top(p) == "a" and p.pinned == 2 and p.clock.time(9.0) == 1.0


def test_a_user_who_moves_first_is_not_moved_back_to_the_first_screen() -> None:
    line = Timeline(20, 2)
    index = KeyframeIndex(line)
    p = Playback(line, index, autoplay=False)
    p.toggle(0.0)  # play before anything is loaded
    line.extend([Event(1.0, "o", "a"), Event(2.0, "o", "b")])
    line.complete = True
    index.build(10)
    p.frame(0.0)
    p.frame(1.5)
    assert p.clock.playing and p.pinned is None and top(p) == "a"
    p.frame(2.0)
    assert top(p) == "ab"


def test_step_at_the_end_shows_nothing_more_and_pauses() -> None:
    p = playback(COUNTING, autoplay=True)
    p.frame(10.0)
    assert p.at_end
    assert p.step(10.0) is None
    assert not p.clock.playing
