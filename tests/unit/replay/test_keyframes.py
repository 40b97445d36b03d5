"""Keyframes: seeking anywhere gives exactly the screen of re-feeding from the start."""

from __future__ import annotations

import itertools
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from observer.asciicast import Event
from observer.replay import KeyframeIndex, Player, screen_at
from observer.terminal import TerminalModel
from tests.unit.replay.casts import demo_path, indexed, load, out, timeline_of


def screen(model: TerminalModel) -> tuple[object, ...]:
    rows = tuple(tuple(model.line(y)) for y in range(model.rows))
    return (model.cols, model.rows, rows, model.cursor_x, model.cursor_y, model.cursor_visible)


def busy_events(count: int = 400) -> list[Event]:
    """Colours, a cursor-addressed status line, line feeds, a resize and the alternate screen."""
    events: list[Event] = []
    for i in range(count):
        t = i * 0.25
        if i == 150:
            events.append(Event(t, "r", "50x12"))
        elif i == 200:
            events.append(out(t, "\x1b[?1049h\x1b[2J\x1b[H full screen \x1b[7mmode\x1b[m"))
        elif i == 260:
            events.append(out(t, "\x1b[?1049l"))
        elif i % 10 == 0:
            events.append(Event(t, "m", f"step {i}"))
        elif i % 3 == 0:
            events.append(out(t, f"\x1b[s\x1b[1;30H\x1b[33m{i:>5}\x1b[m\x1b[u"))
        else:
            events.append(out(t, f"\x1b[3{i % 8}mline {i} " + "é漢" * (i % 4) + "\x1b[m\r\n"))
    return events


def test_the_first_keyframe_is_the_empty_screen_before_any_event() -> None:
    index = KeyframeIndex(timeline_of([out(1.0, "x")]))
    assert index.keyframes[0].index == 0
    assert index.keyframes[0].text == ("",) * 10


def test_keyframes_are_taken_every_few_seconds_of_stream_and_at_resizes() -> None:
    timeline = timeline_of(busy_events())
    index = indexed(timeline, spacing=5.0)
    times = [k.time for k in index.keyframes]
    assert all(b - a <= 5.0 for a, b in itertools.pairwise(times))
    assert 150 + 1 in [k.index for k in index.keyframes]  # right after the resize
    assert index.done


def test_a_flood_of_output_gets_keyframes_by_bytes_not_only_by_time() -> None:
    events = [out(0.001 * i, "x" * 1000 + "\r\n") for i in range(300)]
    index = indexed(timeline_of(events), spacing=60.0, budget=30_000)
    assert len(index.keyframes) >= 9


def test_keyframes_are_thinned_to_the_limit_and_the_spacing_doubles() -> None:
    index = indexed(timeline_of(busy_events(800)), spacing=0.25, limit=20)
    assert len(index.keyframes) <= 20
    assert index.spacing > 0.25
    assert index.keyframes[0].index == 0


def test_the_index_is_built_while_the_timeline_still_loads() -> None:
    events = busy_events()
    timeline = timeline_of(events[:100], complete=False)
    index = KeyframeIndex(timeline)
    assert not index.build()
    timeline.extend(events[100:])
    timeline.complete = True
    assert index.build(10_000)
    player = Player(timeline, index)
    player.show(len(events))
    assert screen(player.model) == screen(screen_at(timeline, len(events)))


@cache
def busy_player() -> Player:
    timeline = timeline_of(busy_events())
    return Player(timeline, indexed(timeline, spacing=3.0, limit=12))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(min_value=-1, max_value=110), min_size=1, max_size=6))
def test_seeking_via_keyframes_equals_refeeding_from_the_start(moments: list[float]) -> None:
    player = busy_player()
    timeline = player.timeline
    for moment in moments:
        player.seek(moment)
        expected = screen_at(timeline, timeline.count_at(moment))
        assert screen(player.model) == screen(expected)


def test_seeking_in_the_demo_recording_matches_refeeding() -> None:
    timeline = load(demo_path())
    player = Player(timeline, indexed(timeline, spacing=1.0))
    for moment in (8.0, 0.5, 3.3, 3.3, 9.9, 0.0):
        player.seek(moment)
        assert screen(player.model) == screen(screen_at(timeline, timeline.count_at(moment)))


def test_a_seek_reports_the_whole_screen_and_playback_only_changed_rows() -> None:
    timeline = timeline_of([out(0.0, "a\r\n"), out(1.0, "b\r\n"), out(2.0, "c")])
    player = Player(timeline, indexed(timeline))
    player.seek(0.0)
    assert player.show(2) == ({1}, False)
    _rows, whole = player.seek(0.0)
    assert whole
    assert player.model.text()[:2] == ["a", ""]


def test_thinning_keeps_keyframes_where_the_output_is_dense() -> None:
    # 100 s of one small line a second, then 100 events of 1 kB in 10 s.
    quiet = [out(float(i), f"{i}\r\n") for i in range(100)]
    dense = [out(100 + i / 10, "y" * 1000 + "\r\n") for i in range(100)]
    index = indexed(timeline_of(quiet + dense), spacing=1.0, budget=5_000, limit=24)
    kept = index.keyframes
    assert len(kept) <= 24
    widest = max(b.offset - a.offset for a, b in itertools.pairwise(kept))
    assert widest < 15_000  # dropping every other one, twice, would leave 20 kB stretches
    assert sum(k.time >= 100 for k in kept) > sum(k.time < 100 for k in kept)


FRAGMENTS = [
    "plain ",
    "\r\n",
    "\x1b[",
    "31m",
    "\x1b[0m",
    "\x1b[2J",
    "\x1b[H",
    "\x1b[5;3H",
    "\x1b]0;ti",
    "tle\x07",
    "\x1b[?1049h",
    "\x1b[?1049l",
    "\x1b[?25l",
    "漢字",
    "é",
    "\x1b(0lqk\x1b(B",
    "\x1b[2K",
    "\x1b[3L",
    "\x1b7",
    "\x1b8",
]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=6).map("".join),
            st.sampled_from(["r:12x5", "r:20x8"]),
        ),
        min_size=1,
        max_size=60,
    ),
    st.lists(st.integers(min_value=0, max_value=60), min_size=1, max_size=5),
)
def test_keyframes_taken_mid_sequence_resume_the_parser_exactly(
    chunks: list[str], counts: list[int]
) -> None:
    """Event boundaries split escape sequences; a keyframe there must keep the parser's state."""
    events = [
        Event(i * 0.5, "r", c[2:]) if c.startswith("r:") else out(i * 0.5, c)
        for i, c in enumerate(chunks)
    ]
    timeline = timeline_of(events, cols=16, rows=6)
    player = Player(timeline, indexed(timeline, spacing=0.5, budget=8))
    for count in counts:
        player.show(count)
        assert screen(player.model) == screen(screen_at(timeline, min(count, len(events))))
        assert player.model.title == screen_at(timeline, min(count, len(events))).title


def test_large_screens_keep_fewer_keyframes_so_memory_stays_bounded() -> None:
    from observer.replay.keyframes import LIMIT, MIN_LIMIT, limit_for

    assert limit_for(80, 24) == LIMIT
    assert MIN_LIMIT < limit_for(300, 100) < LIMIT
    assert limit_for(1000, 1000) == MIN_LIMIT
    assert KeyframeIndex(timeline_of([], cols=300, rows=100)).limit == limit_for(300, 100)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=8).map("".join), max_size=150
    ),
    st.lists(st.integers(min_value=0, max_value=150), min_size=1, max_size=12),
)
def test_many_random_streams_seek_exactly(chunks: list[str], counts: list[int]) -> None:
    """The same property over many more and longer streams (run with ``-m slow``)."""
    timeline = timeline_of([out(i * 0.3, c) for i, c in enumerate(chunks)], cols=16, rows=6)
    player = Player(timeline, indexed(timeline, spacing=0.6, budget=16, limit=6))
    for count in counts:
        player.show(count)
        assert screen(player.model) == screen(screen_at(timeline, min(count, len(chunks))))
