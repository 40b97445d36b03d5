"""What the dashboard's grid draws around its tiles' terminals, kept as drawn, and its regions.

:class:`GridPieces` makes the pieces of a :class:`~observer.app.widgets.fleet_grid.FleetGrid`
line that are not a terminal row: borders, sides, gaps (they depend on sizes and styles only) and
each tile's title line (until the title or the width changes), through the app's line filters,
in the grid's styles (its component classes). :func:`by_line` turns the regions a frame changed
into the lines Textual repaints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.color import Color
from textual.filter import LineFilter
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from observer.app.widgets import strips
from observer.app.widgets.one_line import fit_line
from observer.app.widgets.tile import Tile

Filters = tuple[LineFilter, ...]


class GridPieces:
    """The pieces of a grid's lines around its tiles' terminals, made once.

    Args:
        widget: the grid (its styles, component classes and background).
        prefix: its component classes' prefix (``fleet-grid``: ``fleet-grid--title``...).
    """

    def __init__(self, widget: Widget, prefix: str) -> None:
        self._widget, self._prefix = widget, prefix
        self._background: Color | None = None
        self._styles: dict[str, Style] = {}
        self._pieces: dict[tuple[object, ...], Strip] = {}
        """Borders, sides and gaps as drawn (they depend on sizes and styles only)."""
        self._titles: dict[int, tuple[Text, int, Filters, Strip]] = {}

    def forget(self) -> None:
        """The styles changed: make every piece again."""
        self._styles.clear()
        self._pieces.clear()
        self._titles.clear()
        self._background = None

    def title(self, tile: Tile, width: int, filters: Filters) -> Strip:
        """The tile's title line cut to ``width`` (kept until the title or the width changes)."""
        kept = self._titles.get(tile.index)
        if kept is not None and kept[:3] == (tile.title, width, filters):
            return kept[3]
        style = self.style("title")
        text = fit_line(tile.title, width)
        strip = Strip(Segment.apply_style(text.render(self._widget.app.console), style))
        strip = strips.filtered(strip.adjust_cell_length(width, style), filters, self.background)
        self._titles[tile.index] = (tile.title, width, filters, strip)
        return strip

    def gap(self, width: int, filters: Filters) -> Strip:
        """Blank cells between tiles, or after them."""
        return self.made(("gap", width, filters), lambda: Strip.blank(width, self.style("gap")))

    def made(self, key: tuple[object, ...], make: Callable[[], Strip]) -> Strip:
        """A piece that depends on nothing but ``key`` (the filters last), made once."""
        strip = self._pieces.get(key)
        if strip is None:
            filters = cast("Filters", key[-1])
            strip = self._pieces[key] = strips.filtered(make(), filters, self.background)
        return strip

    @property
    def background(self) -> Color:
        """The background the line filters work against (the grid's, as Textual's path)."""
        if self._background is None:
            self._background = self._widget.background_colors[1]
        return self._background

    def style(self, part: str) -> Style:
        """The style of a part of the grid (its component classes, on its background)."""
        style = self._styles.get(part)
        if style is None:
            widget = self._widget
            own = widget.rich_style
            base = Style(color=own.color, bgcolor=own.bgcolor)
            if part != "gap":
                base += widget.get_component_rich_style(f"{self._prefix}--{part}", partial=True)
            style = self._styles[part] = base
        return style


def by_line(regions: Sequence[Region], width: int) -> list[Region]:
    """The lines of ``regions``, each whole (``width`` cells from the first); consecutive
    lines are one region.

    Textual repaints a changed part of a line from the start of the widget under it (the
    compositor's chop: here, the whole line) to the part's end: it crops the line there and
    makes the cropped strip's escape codes anew, once per part. A whole line it writes as the
    line's strip: the grid's lines carry their escape codes, joined from their pieces' (each
    piece's made once, when the piece is), so a whole line costs a join, not a render."""
    lines = sorted({y for region in regions for y in region.line_range})
    merged: list[Region] = []
    for y in lines:
        last = merged[-1] if merged else None
        if last is not None and last.bottom == y:
            merged[-1] = Region(0, last.y, width, last.height + 1)
        else:
            merged.append(Region(0, y, width, 1))
    return merged
