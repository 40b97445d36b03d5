"""Where the dashboard's tiles lie, and their borders: pure functions of sizes and strips.

Tiles fill a grid of ``ceil(sqrt(n))`` columns, row by row, one blank column between two
columns (as Textual's ``Grid`` with ``grid-gutter: 0 1`` laid out one widget per tile); each has
a rounded border, a heavy one when its agent needs someone (the border says it even where the
title's badge is cut), a title line under its top edge, and its terminal under the title.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region
from textual.strip import Strip

ROUND = ("╭", "─", "╮", "│", "╰", "╯")
HEAVY = ("┏", "━", "┓", "┃", "┗", "┛")
GUTTER = 1
"""Blank columns between two columns of tiles."""
TITLE_ROW = 1
"""The title line's row in a tile's box (under the top edge)."""
BODY_TOP = 2
"""The first row of a tile's terminal in its box."""


@dataclass(frozen=True, slots=True)
class Layout:
    """The boxes of ``count`` tiles in a widget ``width`` x ``height``."""

    columns: int
    boxes: tuple[Region, ...]
    """Each tile's box (border included), in the widget's cells, in order."""
    bands: tuple[tuple[int, int], ...]
    """Each row of tiles: its first line and how many lines it takes."""
    spans: tuple[tuple[int, int], ...]
    """Each column of tiles: its first cell and its width."""
    width: int

    def band_at(self, y: int) -> int | None:
        """The row of tiles on line ``y`` (None: below the last)."""
        for band, (top, height) in enumerate(self.bands):
            if top <= y < top + height:
                return band
        return None

    def column_at(self, x: int) -> int:
        """The column of tiles at cell ``x`` (or the one before the gap it is in)."""
        for column, (left, _) in reversed(list(enumerate(self.spans))):
            if left <= x:
                return column
        return 0

    def tile_at(self, x: int, y: int) -> int | None:
        """The tile under the cell ``(x, y)`` (None: a gap or no tile)."""
        for index, box in enumerate(self.boxes):
            if box.contains(x, y):
                return index
        return None


def columns_for(count: int) -> int:
    """How many columns of tiles ``count`` tiles take (a square, or a little wider)."""
    return max(1, math.ceil(math.sqrt(count)))


def layout(count: int, width: int, height: int) -> Layout:
    """The boxes of ``count`` tiles sharing ``width`` x ``height`` as evenly as cells allow."""
    columns = columns_for(count)
    rows = max(1, math.ceil(count / columns))
    free = max(0, width - GUTTER * (columns - 1))
    lefts = [column * free // columns + GUTTER * column for column in range(columns)]
    spans = tuple(
        (left, (column + 1) * free // columns - column * free // columns)
        for column, left in enumerate(lefts)
    )
    bands = tuple(
        (row * height // rows, (row + 1) * height // rows - row * height // rows)
        for row in range(rows)
    )
    boxes = tuple(
        Region(spans[index % columns][0], bands[index // columns][0],
               spans[index % columns][1], bands[index // columns][1])
        for index in range(count)
    )  # fmt: skip
    return Layout(columns, boxes, bands, spans, width)


def edge(width: int, top: bool, heavy: bool, style: Style) -> Strip:
    """A tile's top or bottom edge, ``width`` cells wide."""
    left, line, right, _, bottom_left, bottom_right = HEAVY if heavy else ROUND
    if not top:
        left, right = bottom_left, bottom_right
    if width < 2:
        return Strip([Segment(left[:width], style)], width)
    return Strip([Segment(left + line * (width - 2) + right, style)], width)


def side_of(heavy: bool, style: Style) -> Strip:
    """A tile's left or right edge on one line."""
    return Strip([Segment((HEAVY if heavy else ROUND)[3], style)], 1)


def edges(box: Region) -> list[Region]:
    """The cells of a tile's border (what changes when the focus or its attention does)."""
    x, y, width, height = box
    return [
        Region(x, y, width, 1),
        Region(x, y + height - 1, width, 1),
        Region(x, y + 1, 1, max(0, height - 2)),
        Region(x + width - 1, y + 1, 1, max(0, height - 2)),
    ]
