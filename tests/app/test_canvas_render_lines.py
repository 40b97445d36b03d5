"""A terminal view draws its rows itself, exactly as Textual's own path (its styles cache) would.

``TerminalCanvas.render_lines`` skips Textual's styles cache where it adds nothing (no border,
padding, outline, tint, hatch or opacity): with 40 tiles that path cost as much again as drawing
the rows. What it returns must be what Textual's path returns, through the app's line filters
(all grey where ``NO_COLOR`` is set), for any crop; a styled view takes Textual's
path.
"""

from __future__ import annotations

import pytest
from textual.filter import Monochrome
from textual.geometry import Region
from textual.widget import Widget

from observer.app.app import ObserverApp
from observer.app.widgets.fleet_grid import FleetGrid
from observer.app.widgets.selection import Point, Selection
from observer.app.widgets.terminal_view import TerminalView
from observer.protocol.events import OutputReceived
from tests.app.conftest import all_drawn, scripted, settled
from tests.waiting import until

COLOURED = [
    b"\x1b[31mred\x1b[0m plain \x1b[1;38;2;10;200;30mtrue\x1b[0m\r\n",
    b"\x1b[7mreversed\x1b[0m \x1b[4;94munder\x1b[0m\r\n$ ",
]


def textuals(view: Widget, crop: Region) -> list[list[tuple[str, object]]]:
    view._styles_cache.clear()
    return segments(Widget.render_lines(view, crop))


def segments(lines: list) -> list[list[tuple[str, object]]]:  # type: ignore[type-arg]
    return [[(segment.text, segment.style) for segment in line] for line in lines]


def crops(width: int, height: int) -> tuple[Region, ...]:
    """Whole, the top two lines, a line's middle, the right edge."""
    return (
        Region(0, 0, width, height),
        Region(0, 0, width, 2),
        Region(3, 1, width - 5, 1),
        Region(width - 4, 0, 4, height),
    )


@pytest.mark.parametrize("no_color", [False, True])
async def test_the_rows_are_textuals_for_every_crop(no_color: bool) -> None:
    count = 1
    app = ObserverApp([scripted(COLOURED, identifier=f"agent-{n}") for n in range(count)])
    if no_color:
        app._filters.append(Monochrome())  # as Textual does where NO_COLOR is set
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(app)
        views = list(app.screen.query(TerminalView))
        assert len(views) == count
        views[0].selection = Selection(Point(0, 2), Point(1, 5))  # drawn over its lines
        views[0].moved()
        await pilot.pause(0.1)
        for view in views:
            width, height = view.size
            assert width and height
            for crop in crops(width, height):
                assert segments(view.render_lines(crop)) == textuals(view, crop), crop
        whole = Region(0, 0, *views[0].size)
        selected = segments(views[0].render_lines(whole))
        views[0].selection = None
        views[0].moved()
        assert segments(views[0].render_lines(whole)) != selected  # the selection was drawn


@pytest.mark.parametrize("no_color", [False, True])
async def test_the_dashboards_lines_are_textuals_for_every_crop(no_color: bool) -> None:
    """The dashboard's grid draws its lines itself too (a line kept until a tile on it changes)."""
    links = [scripted(COLOURED, identifier=f"agent-{n}") for n in range(4)]
    app = ObserverApp(links)
    if no_color:
        app._filters.append(Monochrome())
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(app)
        grid = app.screen.query_one(FleetGrid)
        grid.render_lines(Region(0, 0, *grid.size))  # every line drawn and kept
        await pilot.press("right")  # the focus on another tile: two borders drawn again
        for n, link in enumerate(links[1:3]):  # rows of tiles side by side change
            link.push(OutputReceived(b"\x1b[1;1H\x1b[32mchanged %d\x1b[0m" % n, 200))
        await until(
            lambda: (
                all(
                    f"changed {n}" in link.session.model.text()[0]
                    for n, link in enumerate(links[1:3])
                )
                and all_drawn(grid)
            ),
            "the changes parsed and their frame drawn",
        )
        for crop in crops(*grid.size):
            assert segments(grid.render_lines(crop)) == textuals(grid, crop), crop
        first_row = segments(grid.render_lines(crops(*grid.size)[0]))[2]  # under border and title
        assert "red" in "".join(text for text, _ in first_row)
        assert "changed 0" in "".join(text for text, _ in first_row)


async def test_a_styled_view_takes_textuals_path() -> None:
    app = ObserverApp([scripted(COLOURED, cols=120, rows=40)])  # cropped, as a tile's
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(app)
        await pilot.press("f")  # full window: the view has no frame of its own
        await pilot.pause(0.1)
        view = app.screen.query(TerminalView).first()
        before = segments(view.render_lines(Region(0, 0, *view.size)))
        assert any("red" in "".join(text for text, _ in line) for line in before)
        view.styles.padding = (1, 2)
        view.styles.tint = "red 20%"
        await pilot.pause(0.1)
        crop = Region(0, 0, *view.size)
        drawn = segments(view.render_lines(crop))
        assert drawn == textuals(view, crop)
        assert "".join(text for text, _ in drawn[0]).isspace()  # the padding
