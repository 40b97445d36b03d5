"""Tiles cost what they show: no scrollback, a few frames a second, only the rows that changed."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.geometry import Region

from observer.app.app import ObserverApp
from observer.app.widgets.fleet_grid import FRAME, FleetGrid
from observer.app.widgets.grid_pieces import by_line
from observer.app.widgets.tile_layout import BODY_TOP
from observer.cli import main
from observer.client import DEFAULT_SCROLLBACK
from observer.protocol.events import OutputReceived
from tests.app.conftest import all_drawn, scripted, settled, tile_text, timer_delays
from tests.hostile.live import until

PROFILES = """
[profiles.one]
url = "ws://127.0.0.1:9/"
identifier = "one"

[profiles.two]
url = "ws://127.0.0.1:9/"
identifier = "two"
"""


@pytest.fixture
def opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[ObserverApp]]:
    """``observer watch`` opens the app it built into this list instead of the terminal; the
    profiles' endpoint is a loopback port that accepts connections (the app is never run)."""
    with socket.create_server(("127.0.0.1", 0)) as listening:
        port = listening.getsockname()[1]
        (tmp_path / "config.toml").write_text(PROFILES.replace(":9/", f":{port}/"))
        monkeypatch.setenv("OBSERVER_CONFIG_DIR", str(tmp_path))
        monkeypatch.setenv("OBSERVER_TOKEN", "t0ken")
        apps: list[ObserverApp] = []
        monkeypatch.setattr(ObserverApp, "run", lambda self, *a, **k: apps.append(self))
        yield apps


def test_a_dashboards_sessions_keep_no_scrollback(opened: list[ObserverApp]) -> None:
    assert main(["watch", "one", "two"]) == 0
    for link in opened[0].links:
        link.session.model.feed(b"".join(b"line %d\r\n" % n for n in range(100)))
        assert len(link.session.model.history) == 0


def test_one_watched_session_keeps_its_scrollback(opened: list[ObserverApp]) -> None:
    assert main(["watch", "one"]) == 0
    session = opened[0].links[0].session
    session.model.feed(b"".join(b"line %d\r\n" % n for n in range(100)))
    assert session.scrollback == DEFAULT_SCROLLBACK and len(session.model.history) > 70


async def test_the_grid_draws_changes_within_a_frame_and_only_the_row_that_changed() -> None:
    links = [scripted([b"\x1b[5;1Hready"], identifier=f"a{n}", cols=60, rows=12) for n in range(2)]
    app = ObserverApp(links)
    async with app.run_test(size=(120, 36)):
        await settled(app)
        grid = app.screen.grid
        refreshed: list[tuple[Region, ...]] = []
        refresh = grid.refresh

        def spy(*regions: Region, **kwargs: bool) -> FleetGrid:
            refreshed.append(regions)
            return refresh(*regions, **kwargs)

        grid.refresh = spy  # type: ignore[method-assign]
        # The titles' clock (idle 1s, 2s...) ticks on its own: on a busy machine this second
        # outlasts one of its ticks.
        grid.update_titles = lambda now, tiles=None: None  # type: ignore[method-assign]
        frames = grid.frames
        started = asyncio.get_running_loop().time()
        for n in range(100):  # an agent redrawing one row 100 times a second, for a second
            links[0].push(OutputReceived(b"\x1b[5;1Hcount %d" % n, 5 + n))
            await asyncio.sleep(0.01)
        elapsed = asyncio.get_running_loop().time() - started
        await until(
            lambda: "count 99" in links[0].session.model.text()[4] and all_drawn(grid),
            "the last change parsed and its frame drawn",
        )
        drawn = grid.frames - frames
        assert 2 <= drawn <= elapsed / FRAME + 2  # one frame per change at most, a frame apart
        assert refreshed and all(len(regions) == 1 for regions in refreshed)
        box = grid.tile_region(0).translate(-grid.content_region.offset)
        # Each frame repaints the one line that changed (the agent's row), whole.
        (line,) = {r for (r,) in refreshed}
        assert (line.x, line.width, line.height) == (0, grid.size.width, 1)
        assert box.y + BODY_TOP <= line.y < box.bottom - 1
        await until(lambda: "count 99" in tile_text(app.screen, 0), "the last change drawn", 5)


async def test_a_change_is_drawn_at_once_after_a_quiet_spell_and_within_a_frame_of_the_last() -> (
    None
):
    links = [scripted([b"\x1b[5;1Hready"], identifier=f"a{n}", cols=60, rows=12) for n in range(2)]
    app = ObserverApp(links)
    async with app.run_test(size=(120, 36)):
        await settled(app)
        grid = app.screen.grid
        now = [grid.clock() + 10.0]  # the last frame was long ago
        grid.clock = lambda: now[0]
        delays = timer_delays(grid)
        frames = grid.frames
        links[1].push(OutputReceived(b"\x1b[5;1Hchanged", 5))
        await until(lambda: grid.frames > frames, "the change drawn")
        assert not delays  # drawn as it came: no timer
        now[0] += FRAME / 3  # the next change comes a third of a frame later
        links[0].push(OutputReceived(b"\x1b[5;1Hnext", 5))
        await until(lambda: grid.frames > frames + 1, "the next change drawn")
        assert "changed" in tile_text(app.screen, 1) and "next" in tile_text(app.screen, 0)
        (delay,) = delays  # the first was drawn at once, without a timer
        assert delay == pytest.approx(FRAME * 2 / 3)  # the next waited the rest of a frame


async def test_tiles_draw_nothing_under_a_dialog_and_show_what_changed_once_it_closes() -> None:
    links = [scripted([b"\x1b[5;1Hready"], identifier=f"a{n}", cols=60, rows=12) for n in range(2)]
    app = ObserverApp(links)
    async with app.run_test(size=(120, 36)) as pilot:
        await settled(app)
        grid = app.screen.grid
        dashboard = app.screen
        await pilot.press("ctrl+p")  # the command palette: a dialog over the dashboard
        await until(lambda: grid.paused, "the grid paused under the palette")
        assert grid.paused
        frames = grid.frames
        for n in range(20):
            links[0].push(OutputReceived(b"\x1b[5;1Hcount %d" % n, 5 + n))
            await asyncio.sleep(0.01)
        await until(lambda: "count 19" in links[0].session.model.text()[4], "the last change")
        await pilot.pause(3 * FRAME)  # time for a frame that must not be drawn
        assert grid.frames == frames  # the dashboard beneath was not repainted
        assert "count 19" in links[0].session.model.text()[4]  # the session kept up
        await pilot.press("escape")
        await until(lambda: not grid.paused, "the grid drawing again")
        assert not grid.paused
        assert "count 19" in tile_text(dashboard, 0)


async def test_a_tile_keeps_one_painted_line_per_row_not_every_version() -> None:
    """Each version of a row is painted once and never drawn again: a tile keeps the strip of
    each screen row's last version only (stale versions of 40 tiles' rows add up)."""
    links = [scripted([b"\x1b[5;1Hready"], identifier=f"a{n}", cols=60, rows=12) for n in range(4)]
    app = ObserverApp(links)
    async with app.run_test(size=(120, 36)) as pilot:
        await settled(app)
        tile = app.screen.tiles[0]
        for n in range(150):  # 150 versions of the rows on screen, each drawn
            links[0].push(OutputReceived(b"\x1b[1;1H\x1b[2Jcount %d\r\n%d" % (n, n), 20 + 9 * n))
            await pilot.pause()
            tile_text(app.screen, 0)
        await until(lambda: "count 149" in tile_text(app.screen, 0), "the last version")
        rows = links[0].session.model.rows
        assert len(tile._strips) <= rows + 1  # one per screen row, and the blank row


def test_the_lines_a_frame_changed_are_repainted_whole_once_each() -> None:
    # Textual repaints a part of a line from the line's first cell, cropping the line (and
    # making its escape codes anew) at the part's end; a whole line it writes as drawn. Two
    # tiles' cursor rows on the same line are one line; consecutive lines are one region.
    first, second, above = Region(1, 10, 25, 3), Region(29, 12, 25, 1), Region(57, 5, 25, 2)
    assert by_line([first, second, above], 90) == [Region(0, 5, 90, 2), Region(0, 10, 90, 3)]
    assert by_line([first], 30) == [Region(0, 10, 30, 3)]
    assert by_line([], 30) == []
