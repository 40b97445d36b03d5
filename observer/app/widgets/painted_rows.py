"""The terminal view's painted rows, kept between frames, and the looks laid over them.

A screen row's strip is kept with the cells it was painted from (and its place): the kept strip
is all that outlives the frame. The whole row it is cut from is not kept, nor what is derived
from the kept one for a frame: Textual keeps each strip derived from another (cut, filtered) in
caches on that one, and each strip carries seven cache objects of its own, so keeping the row
kept three strips per painted row, and the cyclic collector walks every one of those objects
in collections that stop the whole view.
"""

from __future__ import annotations

from rich.style import Style
from textual.cache import LRUCache
from textual.color import Color
from textual.filter import LineFilter
from textual.strip import Strip

from observer.app.widgets import strips
from observer.app.widgets.strips import filtered
from observer.render.rich_cells import Palette, cells_to_segments
from observer.terminal import TerminalModel

MIN_STRIPS = 64
"""Painted rows a view keeps at least (see :meth:`PaintedRows.fit`)."""


class PaintedRows:
    """Screen rows painted as strips, each kept with a copy of the cells it was painted from."""

    def __init__(self) -> None:
        self._cache: LRUCache[tuple[object, ...], tuple[list[object], Strip]] = LRUCache(MIN_STRIPS)
        self._blank_row: tuple[tuple[object, ...], Strip] | None = None

    def outside(
        self, width: int, blank: Style, filters: tuple[LineFilter, ...], background: Color | None
    ) -> Strip:
        """A row of the view outside the remote screen (a larger view centres it): the same
        strip every frame, filtered once."""
        key = (width, blank, filters, background)
        if self._blank_row is None or self._blank_row[0] != key:
            self._blank_row = (key, filtered(Strip.blank(width, blank), filters, background))
        return self._blank_row[1]

    def clear(self) -> None:
        """Forget every strip (the colours changed)."""
        self._cache.clear()

    def fit(self, height: int) -> None:
        """Keep a few strips per row of a view ``height`` rows high: a strip per row and
        version, and a stale version never hits again (more would only keep stale lines)."""
        size = max(MIN_STRIPS, 4 * height)
        if self._cache.maxsize < size:
            self._cache.grow(size)
        elif self._cache.maxsize > size:
            self._cache = LRUCache(size)

    def placed(
        self,
        model: TerminalModel,
        history: int,
        virtual: int,
        place: tuple[int, int, Style],
        looks: tuple[Palette, int | None, tuple[tuple[int, int], ...]],
        *,
        filters: tuple[LineFilter, ...] = (),
        background: Color | None = None,
    ) -> Strip:
        """Virtual line ``virtual`` (``history`` lines of scrollback, then the screen) as a view
        shows it at ``place`` (from column ``left``, ``width`` wide, ``blank`` beyond the
        screen), with ``looks`` (the palette, the cursor's column on that row or ``None``, the
        search matches' column ranges), through ``filters`` on ``background``."""
        left, width, blank = place
        palette, cursor, matches = looks
        if virtual < history:
            cells = model.history[virtual]
            row_strip = Strip(cells_to_segments(cells, palette), len(cells))
            return filtered(strips.placed(row_strip, left, width, blank), filters, background)
        row = virtual - history
        if not 0 <= row < model.rows:
            return filtered(
                strips.placed(Strip.blank(model.cols), left, width, blank), filters, background
            )
        # Keyed by the row's list in the grid, which moves up as the screen scrolls (and is
        # written in place: the copy kept with the strip says whether it still holds those
        # cells; comparing it is a pointer compare per cell, as the glyphs are shared).
        glyphs = model.glyphs(row)
        key = (id(glyphs), cursor, matches, palette, model.cols, left, width, blank,
               filters, background)  # fmt: skip
        kept = self._cache.get(key)
        if kept is not None and kept[0] == glyphs:
            return kept[1]
        strip = strips.screen_row(
            model, row, palette, cursor=cursor, left=left, width=width, blank=blank,
            matches=matches,
        )  # fmt: skip
        strip = filtered(strip, filters, background)
        self._cache[key] = (list(glyphs), strip)
        return strip


def selected_style(palette: Palette) -> Style:
    """The selection: the terminal's colours swapped (xterm's default look)."""
    return Style(color=palette.background, bgcolor=palette.foreground)


def pointed_style(palette: Palette) -> Style:
    """The cell the keys move: the theme's bright cyan, underlined, never the cursor's look."""
    return Style(
        color=palette.background, bgcolor=palette.ansi[14], bold=True, underline=True,
        reverse=False,
    )  # fmt: skip


def edge_style(palette: Palette) -> Style:
    """Edge marks and the bar: the theme's bright yellow, as a warning."""
    return Style(color=palette.background, bgcolor=palette.ansi[11], bold=True)


def scrolled_bar(new_lines: int, width: int, style: Style) -> Strip:
    """The bottom line of a scrolled view: how many new lines arrived, how to jump back."""
    text = (
        f" ↓ {new_lines} new lines — jump to live (end) "
        if new_lines
        else " ↓ scrolled back — jump to live (end) "
    )
    return strips.bar(text, width, style)
