"""Commands from the command palette: switching theme, saving a screenshot, taking control."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from observer.app.app import ObserverApp
from observer.app.screens.confirm import ConfirmScreen
from tests.app.conftest import scripted

SIZE = (100, 30)


async def run_command(pilot: Pilot[int], text: str) -> None:
    await pilot.press("ctrl+p")
    await pilot.pause(0.2)
    await pilot.press(*text)
    await pilot.pause(0.4)
    await pilot.press("enter")
    await pilot.pause(0.2)


async def test_the_theme_can_be_switched_from_the_command_palette() -> None:
    app = ObserverApp([scripted([b"hello"])])
    async with app.run_test(size=SIZE) as pilot:
        await run_command(pilot, "theme")
        await pilot.press(*"nord")
        await pilot.pause(0.4)
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert app.theme == "nord"
        assert app.palette.background == app.theme_specs["nord"].terminal.background


async def test_a_screenshot_can_be_saved_from_the_command_palette(tmp_path: Path) -> None:
    app = ObserverApp([scripted([b"saved text"])], screenshot_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.2)
        await run_command(pilot, "save screenshot")
        (saved,) = tmp_path.glob("*.svg")
        assert "saved" in saved.read_text()
        assert any(str(saved) in n.message for n in app._notifications)


async def test_take_control_is_offered_in_the_palette_and_still_asks() -> None:
    source = scripted([b"$ "])
    app = ObserverApp([source])
    async with app.run_test(size=SIZE) as pilot:
        await run_command(pilot, "take control")
        assert isinstance(app.screen, ConfirmScreen)
        assert source.requests == []
