"""Pilot tests of ``observer replay``: the keys, the timeline, search, damaged files."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from rich.color import Color
from textual.pilot import Pilot

from observer.app.replay_app import replay_app
from observer.app.screens.replay import ReplayScreen
from observer.app.widgets.timeline import TimelineBar
from observer.errors import CastFormatError
from observer.render.rich_cells import MATCH_COLOUR
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "observer" / "data" / "demo.cast"


class FrozenClock:
    """The app's clock, moved only by the test (playback is then exact)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def write_cast(path: Path, events: list[list[object]], cols: int = 30, rows: int = 6) -> Path:
    header = {"version": 2, "width": cols, "height": rows}
    path.write_text("\n".join(json.dumps(x) for x in [header, *events]) + "\n")
    return path


def counting(seconds: int = 100) -> list[list[object]]:
    """One line per second ("line 7" at 7 s), markers at 20, 50 and 80 s."""
    events: list[list[object]] = []
    for second in range(seconds):
        events.append([float(second), "o", f"\x1b[2J\x1b[Hline {second}"])
        if second in (20, 50, 80):
            events.append([float(second), "m", f"mark {second}"])
    return events


@asynccontextmanager
async def replaying(
    path: Path,
    *,
    lenient: bool = False,
    size: tuple[int, int] = (60, 14),
    idle_limit: float | None = None,
) -> AsyncIterator[tuple[Pilot[int], ReplayScreen, FrozenClock]]:
    """``observer replay PATH --paused`` on a clock the test moves."""
    clock = FrozenClock()
    app = replay_app(path, lenient=lenient, idle_limit=idle_limit, autoplay=False, clock=clock)
    async with app.run_test(size=size) as pilot:
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        await until(lambda: replay.index.done, "the keyframe index")
        replay.tick()  # a frame (the clock is the test's): the screen shows the events at 0:00
        await pilot.pause()
        yield pilot, replay, clock


def top(replay: ReplayScreen) -> str:
    return replay.player.model.text()[0]


async def test_space_plays_and_pauses_at_the_recording_speed(tmp_path: Path) -> None:
    async with replaying(write_cast(tmp_path / "c.cast", counting())) as (pilot, replay, clock):
        assert top(replay) == "line 0"
        await pilot.press("space")
        clock.now += 7.5
        replay.tick()
        assert top(replay) == "line 7"
        await pilot.press("space")
        clock.now += 10
        replay.tick()
        assert top(replay) == "line 7"
        assert "PAUSE" in str(replay.status(clock.now))


async def test_arrows_seek_five_and_shift_thirty_seconds(tmp_path: Path) -> None:
    async with replaying(write_cast(tmp_path / "c.cast", counting())) as (pilot, replay, _):
        await pilot.press("right", "right")
        assert top(replay) == "line 10"
        await pilot.press("shift+right")
        assert top(replay) == "line 40"
        await pilot.press("left")
        assert top(replay) == "line 35"
        await pilot.press("shift+left", "shift+left")
        assert top(replay) == "line 0"


async def test_brackets_jump_between_markers_and_the_status_names_the_marker(
    tmp_path: Path,
) -> None:
    async with replaying(write_cast(tmp_path / "c.cast", counting())) as (pilot, replay, clock):
        await pilot.press("right_square_bracket")
        assert top(replay) == "line 20"
        await pilot.press("right_square_bracket", "right_square_bracket")
        assert top(replay) == "line 80"
        assert "mark 80" in str(replay.status(clock.now))
        await pilot.press("left_square_bracket")
        assert top(replay) == "line 50"


async def test_plus_and_minus_change_the_speed_within_a_quarter_and_sixteen(
    tmp_path: Path,
) -> None:
    async with replaying(write_cast(tmp_path / "c.cast", counting())) as (pilot, replay, clock):
        await pilot.press("plus", "plus")
        assert replay.clock.speed == 4.0
        await pilot.press("space")
        clock.now += 2
        replay.tick()
        assert top(replay) == "line 8"
        for _ in range(10):
            await pilot.press("minus")
        assert replay.clock.speed == 0.25
        assert "0.25×" in str(replay.status(clock.now))


async def test_full_stop_applies_one_event_at_a_time(tmp_path: Path) -> None:
    events: list[list[object]] = [[1.0, "o", "a"], [1.0, "o", "b"], [5.0, "o", "c"]]
    async with replaying(write_cast(tmp_path / "c.cast", events)) as (pilot, replay, _):
        assert top(replay) == "a"  # paused, it opens on the first output
        await pilot.press("full_stop")
        assert top(replay) == "ab"
        await pilot.press("full_stop")
        assert top(replay) == "abc"


async def test_a_click_on_the_timeline_seeks_and_a_click_near_a_marker_lands_on_it(
    tmp_path: Path,
) -> None:
    async with replaying(write_cast(tmp_path / "c.cast", counting())) as (pilot, replay, _):
        bar = replay.query_one(TimelineBar)
        width = bar.size.width
        await pilot.click(TimelineBar, offset=(width // 2, 0))
        assert abs(int(top(replay).split()[1]) - 49.5) <= 100 / width + 1
        await pilot.click(TimelineBar, offset=(bar.cell_of(20.0, width) + 1, 0))
        assert top(replay) == "line 20"


async def test_slash_searches_and_n_steps_through_the_moments_the_text_appeared(
    tmp_path: Path,
) -> None:
    async with replaying(write_cast(tmp_path / "c.cast", counting())) as (pilot, replay, clock):
        await pilot.press("slash", *"line 1", "enter")
        await until(lambda: not replay.searched.running, "the search")
        # "line 1" is on screen at 1 s and again from 10 s ("line 10" .. "line 19").
        assert [m.time for m in replay.searched.matches] == [1.0, 10.0]
        assert top(replay) == "line 1"
        assert "1/2 found" in str(replay.status(clock.now))
        await pilot.press("n")
        assert top(replay) == "line 10"
        await pilot.press("n")
        assert top(replay) == "line 1"
        await pilot.press("N")
        assert top(replay) == "line 10"


async def test_a_search_for_text_never_shown_says_so(tmp_path: Path) -> None:
    async with replaying(write_cast(tmp_path / "c.cast", counting(10))) as (pilot, replay, clock):
        await pilot.press("slash", *"nowhere", "enter")
        await until(lambda: not replay.searched.running, "the search")
        assert replay.searched.matches == []
        assert "not found" in str(replay.status(clock.now))
        assert top(replay) == "line 0"


async def test_keys_typed_in_the_search_box_do_not_control_playback(tmp_path: Path) -> None:
    async with replaying(write_cast(tmp_path / "c.cast", counting())) as (pilot, replay, _):
        await pilot.press("slash", "space", "n", "right")
        assert not replay.clock.playing
        assert top(replay) == "line 0"
        await pilot.press("escape", "right")
        assert top(replay) == "line 5"


async def test_the_demo_recording_plays_to_its_last_screen(tmp_path: Path) -> None:
    async with replaying(DEMO, size=(84, 32)) as (pilot, replay, clock):
        await pilot.press("space")
        clock.now += 60
        replay.tick()
        assert not replay.clock.playing
        assert any("passed" in row for row in replay.player.model.text())


async def test_a_damaged_line_ends_the_replay_with_its_line_number(tmp_path: Path) -> None:
    cast = write_cast(tmp_path / "c.cast", counting(5))
    lines = cast.read_text().splitlines()
    lines[3] = '[3.0, "o", oops]'
    cast.write_text("\n".join(lines) + "\n")
    app = replay_app(cast, autoplay=False)
    async with app.run_test():
        await until(lambda: app.fatal is not None, "the error")
    assert isinstance(app.fatal, CastFormatError)
    assert "line 4" in str(app.fatal)


async def test_lenient_replay_skips_damaged_lines_and_says_how_many(tmp_path: Path) -> None:
    cast = write_cast(tmp_path / "c.cast", counting(5))
    lines = cast.read_text().splitlines()
    lines[3] = '[3.0, "o", oops]'
    cast.write_text("\n".join(lines) + "\n")
    async with replaying(cast, lenient=True) as (pilot, replay, _):
        await until(lambda: replay.app._notifications, "the notice of the damaged line")
        assert replay.skipped == 1
        assert any("Skipped 1 damaged line" in str(n.message) for n in replay.app._notifications)
        await pilot.press("right")
        assert top(replay) == "line 4"


@pytest.mark.parametrize("idle_limit", [2.0])
async def test_the_idle_limit_shortens_long_pauses(tmp_path: Path, idle_limit: float) -> None:
    events: list[list[object]] = [[0.0, "o", "start"], [600.0, "o", "\r\nlater"]]
    cast = write_cast(tmp_path / "c.cast", events)
    async with replaying(cast, idle_limit=idle_limit) as (_pilot, replay, _clock):
        assert replay.timeline.duration == 2.0


async def test_a_recording_made_by_asciinema_rec_replays_in_the_app(tmp_path: Path) -> None:
    from tests.shells.test_render_cli import asciinema_rec

    cast = tmp_path / "rec.cast"
    command = "printf 'hello\\n'; sleep 0.3; printf '\\033[1;32mgreen\\033[0m world\\n'"
    asciinema_rec(cast, command, cols=30, rows=5)
    async with replaying(cast) as (pilot, replay, _):
        await pilot.press("shift+right")
        assert replay.player.model.text()[:2] == ["hello", "green world"]
        await pilot.press("slash", *"green", "enter")
        await until(lambda: not replay.searched.running, "the search")
        assert len(replay.searched.matches) == 1
        assert replay.player.model.text()[1] == "green world"
        assert replay.searched.matches[0].time > 0.2


async def test_paused_opens_on_the_first_screen_not_a_blank_one() -> None:
    # The demo's first output comes 2.6 ms in: 0:00 itself is an empty screen.
    async with replaying(DEMO, size=(84, 32)) as (_pilot, replay, clock):
        assert top(replay) == "● Task: make the failing tests pass."
        assert not replay.clock.playing
        assert replay.clock.time(clock.now) == replay.timeline.time(0)


async def test_q_quits_the_replay(tmp_path: Path) -> None:
    async with replaying(write_cast(tmp_path / "c.cast", counting(5))) as (pilot, replay, _):
        await pilot.press("q")
        await until(lambda: not replay.app.is_running, "the app's exit")


def highlighted(replay: ReplayScreen) -> list[str]:
    """The texts drawn in the search-match colour on the view, top to bottom."""
    view = replay.view
    colour = Color.parse(replay.palette.ansi[MATCH_COLOUR])
    return [
        segment.text
        for y in range(view.size.height)
        for segment in view.render_line(y)
        if segment.style is not None and segment.style.bgcolor == colour
    ]


async def test_search_matches_are_highlighted_on_the_screen(tmp_path: Path) -> None:
    events: list[list[object]] = [
        [1.0, "o", "ok: 3 passed\r\n"],
        [2.0, "o", "\x1b[31mFAILED\x1b[0m test_b, failed again: FAILED\r\n"],
    ]
    cast = write_cast(tmp_path / "c.cast", events, cols=50)
    async with replaying(cast) as (pilot, replay, _):
        assert highlighted(replay) == []
        await pilot.press("slash", *"FAILED", "enter")
        await until(lambda: not replay.searched.running, "the search")
        # Every appearance shown.
        await until(lambda: highlighted(replay) == ["FAILED", "FAILED"], "the matches marked")
        assert replay.view.highlights == {1: ((0, 6), (29, 35))}
        await pilot.press("slash", *"passed", "enter")
        await until(lambda: not replay.searched.running, "the search")
        # The old query's marks are gone.
        await until(lambda: highlighted(replay) == ["passed"], "the new matches marked")


async def test_marker_jumps_visit_the_markers_the_recorder_wrote(tmp_path: Path) -> None:
    from tests.shells.test_export import record_a_takeover

    cast = record_a_takeover(tmp_path / "t.cast")
    async with replaying(cast) as (pilot, replay, clock):
        labels = [m.label for m in replay.timeline.markers]
        assert labels == ["connect", "takeover start", "takeover end", "exit: 0"]  # as exported
        visited = []
        for _ in labels[1:]:
            await pilot.press("right_square_bracket")
            visited.append(replay.clock.time(clock.now))
            assert f"◆ {labels[len(visited)]}" in str(replay.status(clock.now))
        assert visited == [2.0, 3.5, 5.0]
        assert top(replay) == "Proceed? [y/N] y"


async def test_the_status_line_follows_the_recordings_title_changes(tmp_path: Path) -> None:
    events: list[list[object]] = [
        [1.0, "o", "building"],
        [5.0, "o", "\x1b]2;agent: tests failed\x07"],
        [9.0, "o", "\x1b]0;agent: fixed\x07done"],
    ]
    cast = tmp_path / "t.cast"
    cast.write_text(
        json.dumps({"version": 2, "width": 30, "height": 6, "title": "agent: building"})
        + "\n"
        + "\n".join(json.dumps(event) for event in events)
        + "\n"
    )
    async with replaying(cast) as (pilot, replay, clock):
        assert str(replay.status(clock.now)).endswith("│ agent: building")
        await pilot.press("right")  # 0:05
        assert str(replay.status(clock.now)).endswith("│ agent: tests failed")
        await pilot.press("right")  # 0:09 (the end)
        assert str(replay.status(clock.now)).endswith("│ agent: fixed")
        await pilot.press("left", "left")
        assert str(replay.status(clock.now)).endswith("│ agent: building")


async def test_a_recording_with_a_quiet_end_replays_for_as_long_as_it_was_recorded(
    tmp_path: Path,
) -> None:
    """``record --duration 25`` of an agent quiet after 14.7 s lasts 0:25, not 0:14.7."""
    from observer.recording.recorder import Recorder

    now = [0.0]
    cast = tmp_path / "quiet.cast"
    with Recorder(cast, cols=30, rows=6, clock=lambda: now[0]) as recorder:
        recorder.output(b"working\r\n")
        now[0] = 14.7
        recorder.output(b"waiting for input\r\n")
        now[0] = 25.0
    async with replaying(cast) as (_, replay, clock):
        assert " 0:00.0 / 0:25.0 " in str(replay.status(clock.now))
