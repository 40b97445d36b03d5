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


def listed(pilot: Pilot[int]) -> list[str]:
    """Every command the open palette lists for its empty query."""
    palette = pilot.app.screen
    assert isinstance(palette, CommandPalette)
    commands = palette.query_one(CommandList)
    options = (commands.get_option_at_index(n) for n in range(commands.option_count))
    return [str(option.prompt).partition("\n")[0] for option in options]


async def palette_listing(pilot: Pilot[int], count: int) -> list[str]:
    await pilot.press("ctrl+p")
    await until(lambda: isinstance(pilot.app.screen, CommandPalette), "the command palette")
    return await until(lambda: (found := listed(pilot)) and len(found) >= count and found, "all")


async def test_the_palette_lists_observers_commands_only_and_those_that_can_run_now() -> None:
    source = scripted([b"$ "])
    app = ObserverApp([source])
    async with app.run_test(size=SIZE) as pilot:
        await played(source)
        commands = await palette_listing(pilot, 9)
        assert sorted(commands) == sorted(
            [
                "Theme",
                "Keys",
                "Save screenshot (SVG)",
                "Take control",
                "Interrupt the agent",
                "Quit",
                "Copy the screen",
                "Copy the scrollback",
                "Full window",
            ]
        ), commands


async def test_the_keys_panel_of_a_single_watch_has_no_way_back_to_a_dashboard() -> None:
    source = scripted([b"$ "])
    app = ObserverApp([source])
    async with app.run_test(size=SIZE) as pilot:
        await played(source)
        await run_command(pilot, "keys")
        await until(lambda: app.screen.query("KeyPanel"), "the keys panel")
        await pilot.pause()
        shown = app.export_screenshot().replace("&#160;", " ")
        assert "Take control" in shown and "Full window" in shown
        assert "Dashboard" not in shown


async def test_in_control_the_palette_offers_release_and_no_take() -> None:
    from tests.app.test_watch import in_control

    source = scripted([b"$ "])
    app = ObserverApp([source])
    async with app.run_test(size=SIZE) as pilot:
        await played(source)
        await pilot.press("ctrl+t", "y")
        await until(lambda: in_control(app), "control")
        names = [command.title for command in app.get_system_commands(app.screen)]
        assert "Release control" in names and "Take control" not in names, names
