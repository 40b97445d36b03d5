"""Moving the focus between tiles repaints the two tiles' borders, not the whole dashboard.

Textual repaints the whole screen when a screen's focus changes: with 40 tiles each arrow key
drew every tile and wrote 75 KB to the terminal (the focus key took up to 270 ms). The grid
keeps the focus; the tile that loses the cursor and the one that gains it repaint their borders.
"""

from __future__ import annotations

from textual.geometry import Region

from observer.app.app import ObserverApp
from observer.app.screens.dashboard import DashboardScreen
from observer.app.screens.watch import WatchScreen
from observer.app.widgets.fleet_grid import FleetGrid
from tests.app.conftest import laid_out, scripted, settled, tile_offset
from tests.waiting import until


async def test_a_focus_move_repaints_the_two_tiles_borders_only() -> None:
    app = ObserverApp([scripted([b"$ "], identifier=f"agent-{n}") for n in range(6)])
    async with app.run_test(size=(120, 36)) as pilot:
        await settled(app)  # the first frames drawn: what follows repaints for the focus only
        await until(lambda: laid_out(app), "Textual's first layout and repaint")
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        grid = screen.grid
        repainted: list[Region] = []
        whole: list[object] = []
        refresh, screen_refresh = grid.refresh, screen.refresh

        def spy(*regions: Region, **kwargs: bool) -> FleetGrid:
            repainted.extend(regions)
            if not regions:
                whole.append(grid)
            return refresh(*regions, **kwargs)

        def screen_spy(*regions: Region, **kwargs: bool) -> object:
            whole.append(screen)
            return screen_refresh(*regions, **kwargs)

        grid.refresh = spy  # type: ignore[method-assign]
        screen.refresh = screen_spy  # type: ignore[method-assign]
        # The titles' clock (idle 1s, 2s...) ticks on its own and repaints titles of tiles the
        # focus did not touch: on a busy machine a tick can fall within the repaints counted.
        grid.update_titles = lambda now, tiles=None: None  # type: ignore[method-assign]
        first, second = screen.tiles[:2]
        assert screen.focused is grid and screen.focused_tile is first
        await pilot.press("right")
        await pilot.pause(0.3)  # time for a whole repaint, which must not come
        assert screen.focused_tile is second
        assert not whole
        offset = grid.content_region.offset
        boxes = [grid.tile_region(index).translate(-offset) for index in range(6)]
        for box in boxes[:2]:  # both borders: the corner's colour changed
            assert any(region.contains_point(box.offset) for region in repainted), box
        for region in repainted:  # a border's row or column, nothing inside
            assert region.height == 1 or region.width == 1, region
        assert not any(region.overlaps(other) for region in repainted for other in boxes[2:])


async def test_a_click_on_a_tile_focuses_it() -> None:
    app = ObserverApp([scripted([b"$ "], identifier=f"agent-{n}") for n in range(6)])
    async with app.run_test(size=(120, 36)) as pilot:
        await settled(app)  # the first frames drawn: what follows repaints for the focus only
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        await pilot.click(FleetGrid, offset=tile_offset(screen, 4))
        assert screen.focused_tile is screen.tiles[4]
        await pilot.press("enter")
        await until(lambda: isinstance(app.screen, WatchScreen), "the opened tile")
        assert app.screen.session is app.links[4].session  # type: ignore[attr-defined]


async def test_tab_and_shift_tab_move_between_tiles_as_the_arrows_do() -> None:
    app = ObserverApp([scripted([b"$ "], identifier=f"agent-{n}") for n in range(3)])
    async with app.run_test(size=(120, 36)) as pilot:
        await settled(app)  # the first frames drawn: what follows repaints for the focus only
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        await pilot.press("tab", "tab")
        assert screen.focused_tile is screen.tiles[2]
        await pilot.press("shift+tab")
        assert screen.focused_tile is screen.tiles[1]
        assert screen.focused is screen.grid  # the keys stay on the dashboard's one widget
