"""Commands from the command palette: switching theme, saving a screenshot, taking control."""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot

from observer.app.app import ObserverApp
from observer.app.screens.confirm import ConfirmScreen
from tests.app.conftest import played, scripted
from tests.app.test_watch import screen_text
from tests.waiting import until

SIZE = (100, 30)


def offered(pilot: Pilot[int]) -> str:
    """The command the palette has highlighted (what enter would run), or nothing."""
    palette = pilot.app.screen
    if not isinstance(palette, CommandPalette):
        return ""
    commands = palette.query_one(CommandList)
    if commands.highlighted is None:
        return ""
    return str(commands.get_option_at_index(commands.highlighted).prompt)


async def choose(pilot: Pilot[int], text: str) -> None:
    """Type ``text`` in the open palette and run what it offers once that matches."""
    await pilot.press(*text)
    await until(lambda: text.lower() in offered(pilot).lower(), f"{text!r} offered")
    await pilot.press("enter")
    await pilot.pause()


async def run_command(pilot: Pilot[int], text: str) -> None:
    await pilot.press("ctrl+p")
    await until(lambda: isinstance(pilot.app.screen, CommandPalette), "the command palette")
    await choose(pilot, text)


async def test_the_theme_can_be_switched_from_the_command_palette() -> None:
    app = ObserverApp([scripted([b"hello"])])
    async with app.run_test(size=SIZE) as pilot:
        await run_command(pilot, "theme")
        await choose(pilot, "nord")
        await until(lambda: app.theme == "nord", "the theme switched")
        assert app.palette.background == app.theme_specs["nord"].terminal.background


async def test_a_screenshot_can_be_saved_from_the_command_palette(tmp_path: Path) -> None:
    app = ObserverApp([scripted([b"saved text"])], screenshot_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: "saved text" in screen_text(app), "the output")
        await run_command(pilot, "save screenshot")
        (saved,) = await until(lambda: list(tmp_path.glob("*.svg")), "the screenshot")
        assert "saved" in saved.read_text()
        assert any(str(saved) in n.message for n in app._notifications)


async def test_take_control_is_offered_in_the_palette_and_still_asks() -> None:
    source = scripted([b"$ "])
    app = ObserverApp([source])
    async with app.run_test(size=SIZE) as pilot:
        await played(source)
        await run_command(pilot, "take control")
        await until(lambda: isinstance(app.screen, ConfirmScreen), "the question")
        assert source.requests == []
