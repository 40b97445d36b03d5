"""Search across time: every moment a text appeared, even drawn with colours or cursor moves."""

from __future__ import annotations

from observer.asciicast import Event
from observer.replay import Player, find, following, preceding, screen_at, visible_text
from tests.unit.replay.casts import demo_path, indexed, load, mark, out, timeline_of


def filler(start: float, stop: float) -> list[Event]:
    """Unrelated output every half second (so the search must skip stretches)."""
    count = int((stop - start) * 2)
    return [out(start + i / 2, f"tick {i}\r\n") for i in range(count)]


def test_escape_sequences_are_removed_and_cursor_steps_become_spaces() -> None:
    assert visible_text(b"\x1b[32mpass\x1b[0med\x1b]0;title\x07!") == "passed!"
    assert visible_text(b"fix\x1b[1Capplied\r\n") == "fix applied\n"


def test_a_text_is_found_at_the_event_that_made_it_appear() -> None:
    events = [*filler(0, 20), out(20.0, "FAIL"), out(20.5, "ED tests\r\n"), *filler(21, 60)]
    timeline = timeline_of(events, cols=30)
    matches = find(timeline, indexed(timeline, spacing=2.0), "FAILED")
    assert [m.time for m in matches] == [20.5]
    screen = screen_at(timeline, matches[0].count)
    assert "FAILED" in screen.text()[matches[0].row]
    assert "FAILED" not in "".join(screen_at(timeline, matches[0].count - 1).text())


def test_every_new_appearance_is_found_but_a_text_staying_on_screen_is_found_once() -> None:
    events = [
        out(1.0, "\x1b[31merror\x1b[m: one\r\n"),
        out(2.0, "still there\r\n"),
        out(3.0, "\x1b[2J\x1b[H"),
        *filler(4, 30),
        out(31.0, "\x1b[2J\x1b[Herror again"),
    ]
    timeline = timeline_of(events)
    matches = find(timeline, indexed(timeline, spacing=3.0), "error")
    assert [m.time for m in matches] == [1.0, 31.0]


def test_a_text_drawn_with_cursor_addressing_is_found() -> None:
    # A full-screen program writes the two halves out of order: the output never holds the word.
    clock = [out(11 + i / 2, f"\x1b[1;1H{i:>4}") for i in range(20)]  # a clock in the corner
    events = [*filler(0, 10), out(10.0, "\x1b[5;6Hprove"), out(10.2, "\x1b[5;1Hdone:"), *clock]
    timeline = timeline_of(events)
    matches = find(timeline, indexed(timeline, spacing=2.0), "done:prove")
    assert [m.time for m in matches] == [10.2]


def test_the_alternate_screen_giving_back_the_main_screen_counts_as_an_appearance() -> None:
    events = [
        out(0.0, "build ok\r\n"),
        out(1.0, "\x1b[?1049h\x1b[2J\x1b[Hvim"),
        *filler(2, 12),
        out(12.0, "\x1b[?1049l"),
        *filler(13, 15),
    ]
    timeline = timeline_of(events, rows=40)
    matches = find(timeline, indexed(timeline, spacing=2.0), "build ok")
    assert [m.time for m in matches] == [0.0, 12.0]


def test_search_works_before_the_index_is_built() -> None:
    events = [*filler(0, 5), out(5.0, "needle\r\n")]
    timeline = timeline_of(events)
    from observer.replay import KeyframeIndex

    assert [m.time for m in find(timeline, KeyframeIndex(timeline), "needle")] == [5.0]


def test_a_blank_query_finds_nothing() -> None:
    timeline = timeline_of([out(0.0, "   ")])
    assert find(timeline, indexed(timeline), "  ") == []


def test_the_demo_shows_when_the_tests_first_failed() -> None:
    timeline = load(demo_path())
    matches = find(timeline, indexed(timeline, spacing=1.0), "failed")
    assert matches
    failed = next(m for m in timeline.markers if m.label == "tests failed")
    assert matches[0].time <= failed.time
    player = Player(timeline, indexed(timeline))
    player.show(matches[0].count)
    assert any("failed" in row for row in player.model.text())


def test_n_and_shift_n_step_through_matches_and_wrap() -> None:
    events = [out(float(t), "x\r\n") for t in range(10)] + [mark(10.0, "end")]
    timeline = timeline_of(events)
    matches = find(timeline, indexed(timeline), "x")
    assert [m.count for m in matches] == [1]
    timeline = timeline_of(
        [
            out(0.0, "hit"),
            out(1.0, "\x1b[2J"),
            out(2.0, "hit"),
            out(3.0, "\x1b[2J"),
            out(4.0, "hit"),
        ]
    )
    matches = find(timeline, indexed(timeline), "hit")
    assert [m.count for m in matches] == [1, 3, 5]
    assert following(matches, 1) == matches[1]
    assert following(matches, 5) == matches[0]
    assert preceding(matches, 3) == matches[0]
    assert preceding(matches, 1) == matches[2]
    assert following([], 0) is None
