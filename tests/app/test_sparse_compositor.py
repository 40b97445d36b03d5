"""The dashboard's compositor writes exactly what Textual's own writes, drawing far less.

A grid of bordered tiles with a title line and a line-API body (as the dashboard's), one of them
scrolled half out of its container (a clipped widget); random rows of random tiles change, and
each partial update is rendered by both compositors from the same layout and the same changed
regions. The bytes each would write to the terminal must be the same, update after update, but
for one thing: where a widget behind drew nothing that shows (its strips cropped away at the
changed region's edge), Textual's still moves the cursor there; ours, which does not draw that
widget, does not. Such a move is followed by another move or by the line's end (the next line
starts with a move of its own) and changes nothing on the screen, so both are compared without
it.
"""

from __future__ import annotations

import random
import re

from rich.console import Console
from textual._compositor import Compositor
from textual.app import App, ComposeResult
from textual.containers import Grid, Vertical, VerticalScroll
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from observer.app.sparse_compositor import SparseCompositor

ROWS = 12


class Body(Widget):
    """Each row draws its number and its version, in a colour of its own."""

    DEFAULT_CSS = "Body { height: 12; }"

    def __init__(self, name: str) -> None:
        super().__init__()
        self.label = name
        self.versions = [0] * ROWS

    def render_line(self, y: int) -> Strip:
        from rich.segment import Segment
        from rich.style import Style

        text = f"{self.label}:{y}:{self.versions[y] if y < ROWS else '-'}"
        colour = f"color({(y * 7 + self.versions[y % ROWS]) % 200 + 16})"
        return Strip([Segment(text.ljust(self.size.width)[: self.size.width], Style(color=colour))])

    def change(self, y: int) -> None:
        self.versions[y] += 1
        self.refresh(Region(0, y, self.size.width, 1))


class Board(App[None]):
    CSS = """
    Grid { grid-size: 4; grid-gutter: 0 1; }
    .tile { border: round $panel; height: 1fr; }
    .tile:focus-within { border: heavy $warning; }
    VerticalScroll { height: 8; }
    """

    def compose(self) -> ComposeResult:
        with Grid():
            for n in range(11):
                with Vertical(classes="tile"):
                    yield Static(f"tile {n}")
                    yield Body(f"t{n}")
            with VerticalScroll(classes="tile"):  # a body partly scrolled out of its tile
                yield Static("scrolled")
                yield Body("s")


IDLE_MOVE = re.compile(r"\x1b\[\d+;\d+H(?=\x1b\[\d+;\d+H|\n|$)")
"""A cursor move with nothing written after it: another move, or the line's end, follows (see
the module docstring)."""


def _written(compositor: Compositor, regions: set[Region], console: Console) -> str:
    compositor._dirty_regions = set(regions)
    update = compositor.render_partial_update()
    return "" if update is None else update.render_segments(console)


def _shown(written: str) -> str:
    """What ``written`` does to the screen: without moves that nothing is written after."""
    return IDLE_MOVE.sub("", written)


async def test_every_partial_update_writes_what_textuals_compositor_writes() -> None:
    app = Board()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        screen = app.screen
        scroller = screen.query_one(VerticalScroll)
        scroller.scroll_to(y=5, animate=False)
        await pilot.pause()
        size = screen.size
        stock, sparse = Compositor(), SparseCompositor()
        stock.reflow(screen, size)
        sparse.reflow(screen, size)
        bodies = list(screen.query(Body))
        console = Console(width=size.width, height=size.height, color_system="truecolor")
        rng = random.Random(7)
        written = 0
        for _ in range(200):
            changed = rng.sample(bodies, rng.randint(1, 5))
            for body in changed:
                for y in rng.sample(range(ROWS), rng.randint(1, 4)):
                    body.change(y)
            stock.update_widgets(set(changed))  # the changed regions, on the screen
            regions = set(stock._dirty_regions)
            # Textual's first (it renders every line the update needs), then ours on the same
            # regions: where ours drew a widget wrongly, or missed one, the bytes differ.
            theirs = _written(stock, regions, console)
            ours = _written(sparse, regions, console)
            assert _shown(ours) == _shown(theirs)
            written += len(ours)
            for body in bodies:
                body._styles_cache.clear()  # both draw the rows afresh next time
        assert written > 10_000  # the updates wrote something


def _spied(widget: Widget, drawn: list[Widget]) -> None:
    original = widget.render_lines

    def render_lines(crop: Region) -> list[Strip]:
        drawn.append(widget)
        return original(crop)

    widget.render_lines = render_lines  # type: ignore[method-assign]


async def test_it_draws_only_the_widgets_under_what_changed_and_in_front() -> None:
    app = Board()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        screen = app.screen
        bodies = list(screen.query(Body))
        drawn: dict[str, list[Widget]] = {"stock": [], "sparse": []}
        for name, compositor in (("stock", Compositor()), ("sparse", SparseCompositor())):
            compositor.reflow(screen, screen.size)
            compositor.update_widgets(set(compositor.visible_widgets))
            compositor.render_partial_update()  # what was pending since the layout
            for widget in compositor.visible_widgets:
                _spied(widget, drawn[name])
            try:
                bodies[0].change(2)  # top left and bottom right: a box over the whole grid
                bodies[10].change(9)
                compositor.update_widgets({bodies[0], bodies[10]})
                compositor.render_partial_update()
            finally:
                for widget in compositor.visible_widgets:
                    del widget.render_lines  # the class's again
        assert set(drawn["sparse"]) == {bodies[0], bodies[10]}  # not their tiles behind them
        assert len(drawn["stock"]) > 3 * len(drawn["sparse"])
