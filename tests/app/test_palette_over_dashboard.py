"""The command palette over the dashboard covers the tiles instead of veiling them.

Tiles draw nothing under a dialog; Textual's translucent veil blended the whole dashboard beneath
the palette each time it opened (~170 ms with 40 tiles: the palette key took 215-251 ms). Over a
single session's view the veil stays.
"""

from __future__ import annotations

from textual.command import CommandPalette

from observer.app.app import ObserverApp
from tests.app.conftest import played, scripted
from tests.waiting import until


async def opened_palette(count: int) -> float:
    """The alpha of the palette's background, opened over ``count`` sessions' app."""
    app = ObserverApp([scripted([b"$ "], identifier=f"a{n}") for n in range(count)])
    async with app.run_test(size=(120, 36)) as pilot:
        for link in app.links:
            await played(link)  # type: ignore[arg-type]
        await pilot.press("ctrl+p")
        await until(lambda: isinstance(app.screen, CommandPalette), "the palette")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        return app.screen.styles.background.a


async def test_over_the_dashboard_the_palette_covers_the_tiles() -> None:
    assert await opened_palette(3) == 1.0


async def test_over_one_sessions_view_the_palette_veils_it_as_textual_does() -> None:
    assert await opened_palette(1) < 1.0
