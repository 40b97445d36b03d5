"""The dashboard of several sessions, theme switching, and broken theme files."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.color import Color

from observer.app.app import ObserverApp
from observer.app.screens.dashboard import DashboardScreen
from observer.app.screens.watch import WatchScreen
from observer.app.widgets.terminal_view import TerminalView
from observer.errors import ThemeError
from observer.protocol.events import Exited
from observer.themes import load_theme
from tests.app.conftest import played, scripted, tile_text, tile_title
from tests.waiting import until

SIZE = (120, 36)


async def test_several_sessions_open_as_a_dashboard_of_live_tiles() -> None:
    sources = [scripted([f"agent {n} says hi".encode()], identifier=f"a{n}") for n in range(3)]
    app = ObserverApp(sources)
    async with app.run_test(size=SIZE):
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        assert len(screen.tiles) == 3
        for n in range(3):
            await until(lambda n=n: f"agent {n} says hi" in tile_text(screen, n), f"a{n}'s tile")


async def test_enter_opens_the_focused_tile_and_escape_goes_back() -> None:
    sources = [scripted([b"hi"], identifier=f"a{n}") for n in range(3)]
    app = ObserverApp(sources)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("right")
        await pilot.press("enter")
        await until(lambda: isinstance(app.screen, WatchScreen), "the opened tile")
        assert isinstance(app.screen, WatchScreen)
        assert app.screen.session is app.links[1].session
        await pilot.press("escape")
        await until(lambda: isinstance(app.screen, DashboardScreen), "the dashboard again")
        assert isinstance(app.screen, DashboardScreen)
        await pilot.press("left", "left", "enter")
        await until(lambda: isinstance(app.screen, WatchScreen), "the third tile opened")
        assert app.screen.session is app.links[2].session


async def test_an_agent_exit_is_notified_on_the_dashboard() -> None:
    sources = [scripted([b"hi"], identifier=f"a{n}") for n in range(2)]
    app = ObserverApp(sources)
    async with app.run_test(size=SIZE):
        await played(sources[1])  # the exit comes after the hello
        sources[1].push(Exited(3))

        def told() -> bool:
            return any("a1" in n.message and "status 3" in n.message for n in app._notifications)

        await until(told, "the exit's toast")
        assert told()
        assert isinstance(app.screen, DashboardScreen)
        app.screen.update_titles()
        assert "exited 3" in app.screen.tiles[1].title.plain
        screen = app.screen
        await until(lambda: "exited 3" in tile_title(screen, 1), "the tile's title drawn")
        assert "exited 3" in tile_title(app.screen, 1)


async def test_switching_theme_recolours_the_terminal() -> None:
    app = ObserverApp([scripted([b"text"])], theme="observer-dark")
    async with app.run_test(size=SIZE):
        view = app.screen.query_one(TerminalView)
        await until(lambda: "text" in view.session.model.text()[0], "the text parsed")
        app.theme = "dracula"
        dracula = load_theme("dracula").terminal
        await until(lambda: view.palette.background == dracula.background, "dracula's palette")
        assert view.palette.background == dracula.background
        strips = [view.render_line(y) for y in range(view.size.height)]
        backgrounds = {
            s.style.bgcolor for strip in strips for s in strip if s.style and "text" in s.text
        }
        assert Color.parse(dracula.background) in backgrounds


async def test_only_themes_with_a_terminal_palette_are_offered() -> None:
    app = ObserverApp([scripted([b""])])
    async with app.run_test(size=SIZE):
        assert set(app.available_themes) == set(app.theme_specs)
        assert "textual-dark" not in app.available_themes


def test_an_unknown_theme_is_a_clear_error() -> None:
    with pytest.raises(ThemeError, match="no theme named 'neon'"):
        ObserverApp([scripted([b""])], theme="neon")


async def test_a_broken_theme_file_is_notified_by_name_and_the_app_runs(tmp_path: Path) -> None:
    (tmp_path / "themes").mkdir()
    (tmp_path / "themes" / "broken.toml").write_text('name = "broken"\n[ui]\nprimary = 12\n')
    app = ObserverApp([scripted([b"still here"])], config_dir=tmp_path)
    async with app.run_test(size=SIZE):
        await until(
            lambda: any("broken.toml" in n.message for n in app._notifications),
            "the broken theme's toast",
        )
        messages = [n.message for n in app._notifications]
        assert any("broken.toml" in m and "[terminal]" in m for m in messages)
        assert app.is_running and "broken" not in app.available_themes
