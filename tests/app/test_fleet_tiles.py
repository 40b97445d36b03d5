"""Tiles cost what they show: no scrollback, a few frames a second, only the rows that changed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.geometry import Region

from observer.app.app import ObserverApp
from observer.app.widgets.terminal_view import TerminalView
from observer.app.widgets.tile import TILE_FRAME, Tile
from observer.cli import main
from observer.client import DEFAULT_SCROLLBACK
from observer.protocol.events import OutputReceived
from tests.app.conftest import scripted

PROFILES = """
[profiles.one]
url = "ws://127.0.0.1:9/"
identifier = "one"

[profiles.two]
url = "ws://127.0.0.1:9/"
identifier = "two"
"""


@pytest.fixture
def opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[ObserverApp]:
    """``observer watch`` opens the app it built into this list instead of the terminal."""
    (tmp_path / "config.toml").write_text(PROFILES)
    monkeypatch.setenv("OBSERVER_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("OBSERVER_TOKEN", "t0ken")
    apps: list[ObserverApp] = []
    monkeypatch.setattr(ObserverApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


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


async def test_a_tile_repaints_a_few_times_a_second_and_only_the_row_that_changed() -> None:
    links = [scripted([b"\x1b[5;1Hready"], identifier=f"a{n}", cols=60, rows=12) for n in range(2)]
    app = ObserverApp(links)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause(0.3)
        view = app.screen.query(Tile).first().query_one(TerminalView)
        refreshed: list[tuple[Region, ...]] = []
        mark = view._set_dirty  # what the view marks to be drawn again (none: all of it)

        def spy(*regions: Region) -> None:
            refreshed.append(regions)
            mark(*regions)

        view._set_dirty = spy  # type: ignore[method-assign]
        frames = view.frames
        started = asyncio.get_running_loop().time()
        for n in range(100):  # an agent redrawing one row 100 times a second, for a second
            links[0].push(OutputReceived(b"\x1b[5;1Hcount %d" % n, 5 + n))
            await asyncio.sleep(0.01)
        elapsed = asyncio.get_running_loop().time() - started
        await pilot.pause(2 * TILE_FRAME)
        drawn = view.frames - frames
        assert 2 <= drawn <= elapsed * 10 + 2  # a few frames a second, not the agent's 100
        assert refreshed and all(len(regions) == 1 for regions in refreshed)
        assert "count 99" in "".join(view.render_line(y).text for y in range(view.size.height))


async def test_tiles_draw_nothing_under_a_dialog_and_show_what_changed_once_it_closes() -> None:
    links = [scripted([b"\x1b[5;1Hready"], identifier=f"a{n}", cols=60, rows=12) for n in range(2)]
    app = ObserverApp(links)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause(0.3)
        tile = app.screen.query(Tile).first()
        view = tile.query_one(TerminalView)
        await pilot.press("ctrl+p")  # the command palette: a dialog over the dashboard
        await pilot.pause(0.2)
        assert tile.paused
        frames = view.frames
        for n in range(20):
            links[0].push(OutputReceived(b"\x1b[5;1Hcount %d" % n, 5 + n))
            await asyncio.sleep(0.01)
        await pilot.pause(3 * TILE_FRAME)
        assert view.frames == frames  # the dashboard beneath was not repainted
        assert "count 19" in links[0].session.model.text()[4]  # the session kept up
        await pilot.press("escape")
        await pilot.pause(3 * TILE_FRAME)
        assert not tile.paused
        assert "count 19" in "".join(view.render_line(y).text for y in range(view.size.height))


async def test_a_tile_keeps_a_few_painted_lines_per_row_it_shows_not_every_version() -> None:
    """Each version of a row is painted once and never drawn again: a tile that kept 1,024 of
    them held 40 tiles' stale lines, 120 MB after a minute of Ink-like agents."""
    links = [scripted([b"\x1b[5;1Hready"], identifier=f"a{n}", cols=60, rows=12) for n in range(4)]
    app = ObserverApp(links)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause(0.3)
        view = app.screen.query(Tile).first().query_one(TerminalView)
        for n in range(150):  # 150 versions of the rows on screen, each drawn
            links[0].push(OutputReceived(b"\x1b[1;1H\x1b[2Jcount %d\r\n%d" % (n, n), 20 + 9 * n))
            await pilot.pause()
            for y in range(view.size.height):
                view.render_line(y)
        assert "count 149" in "".join(view.render_line(y).text for y in range(view.size.height))
        assert len(view._cache) <= max(64, 4 * view.size.height) < 2 * 150
