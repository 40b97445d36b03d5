"""``FleetGrid``: every tile of the dashboard drawn by one widget, through the line API.

Modelled on Textual's ``DataTable``: one widget draws many cells, so Textual's compositor sees
one widget however many tiles there are. Each line of the widget is composed of the tiles'
pieces on it (border, title line, a row of the tile's terminal: :class:`~observer.app.widgets.
tile.Tile` keeps one strip per screen row) and kept until one of those pieces changes, with its
escape codes joined from the pieces' (each piece's made once).

One frame tick serves every tile: a session that changes marks its tile, and the first change
after a frame arms a timer that draws every changed tile at once, at most :data:`FRAME` after
the last frame, so a change reaches the screen within a frame budget and a quiet dashboard draws
nothing. A frame refreshes only the lines that changed (``refresh(*regions)``), each whole
(:func:`~observer.app.widgets.grid_pieces.by_line`): Textual then writes the line's escape codes
as kept. A title line, or the border of a tile that gained or lost the focus, is refreshed alone.

While the dashboard is hidden or under a dialog the grid draws nothing (:meth:`pause`: a dialog
repaints the dashboard beneath it for each change; 40 tiles made the command palette take
seconds to open); the tiles keep what changed meanwhile and the grid draws it when it shows again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import ClassVar

from textual import events
from textual.geometry import Region
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from observer.app.links import Link, live_screen
from observer.app.widgets import strips
from observer.app.widgets.grid_pieces import Filters, GridPieces, by_line
from observer.app.widgets.tile import Tile
from observer.app.widgets.tile_layout import (
    BODY_TOP,
    TITLE_ROW,
    Layout,
    edge,
    edges,
    layout,
    side_of,
)
from observer.app.widgets.viewport import row_runs
from observer.render.rich_cells import Palette

FRAME = 1 / 20
"""Seconds between two frames at least (a frame draws every tile that changed). Tiles in a row
of the grid change on the same lines (their agents' cursor rows), and Textual repaints a line
from its first cell: the tiles that changed within one frame share each line's repaint, so a
frame costs less per tile the more it draws. Still well under a tile's own frame interval
(``TILE_FPS``), so no tile's frame waits for the next (docs/benchmarks.md, "Figures behind
constants")."""


class FleetGrid(Widget, can_focus=True):
    """The dashboard's tiles, one of them focused (:attr:`cursor`)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "fleet-grid--border",
        "fleet-grid--focus",
        "fleet-grid--attention",
        "fleet-grid--title",
        "fleet-grid--terminal",
    }

    DEFAULT_CSS = """
    FleetGrid {
        width: 1fr;
        height: 1fr;
    }
    FleetGrid > .fleet-grid--border {
        color: $panel;
    }
    FleetGrid > .fleet-grid--focus {
        color: $primary;
    }
    FleetGrid > .fleet-grid--attention {
        color: $warning;
    }
    FleetGrid > .fleet-grid--title {
        background: $panel;
    }
    FleetGrid > .fleet-grid--terminal {
        background: $surface;
    }
    """

    def __init__(self, links: Sequence[Link], palette: Palette) -> None:
        super().__init__()
        self.tiles = [Tile(link, index) for index, link in enumerate(links)]
        self.palette = palette
        self.cursor = 0
        """The focused tile's index."""
        self.frames = 0
        self.clock: Callable[[], float] = time.monotonic
        self._layout: Layout = layout(len(self.tiles), 0, 0)
        self._lines: dict[int, Strip] = {}
        """The widget's lines as drawn, until one of their pieces changes."""
        self._parts: dict[int, list[list[Strip]]] = {}
        """Each line's parts, per column of tiles (see :meth:`_columns`)."""
        self._stale: dict[int, set[int]] = {}
        """The columns whose part of a line changed since it was joined."""
        self._filters: Filters = ()
        self._drawn = GridPieces(self, "fleet-grid")
        self._restyle = strips.StyleFilters()
        """The tiles' rows' styles through the line filters (each style once)."""
        self._texts = strips.TextRows()
        """The rows the tiles draw from their frames, by text (shared: an agent's lines recur)."""
        self._changed: set[Tile] = set()
        self._listeners: list[Callable[[set[int], bool], None]] = []
        self._timer: Timer | None = None
        self._last_frame = 0.0
        self._paused = False

    # -- wiring ---------------------------------------------------------------------------------

    def on_mount(self) -> None:
        for tile in self.tiles:
            listener = self._listener(tile)
            self._listeners.append(listener)
            live_screen(tile.session).subscribe(listener)
            tile.show(True)  # what the tile's crop does not show is not painted until it does
            tile.watch_small()

    def on_unmount(self) -> None:
        for tile, listener in zip(self.tiles, self._listeners, strict=True):
            live_screen(tile.session).unsubscribe(listener)
            tile.show(False)

    def _listener(self, tile: Tile) -> Callable[[set[int], bool], None]:
        def changed(rows: set[int], whole: bool) -> None:
            tile.mark(rows, whole)
            self._changed.add(tile)
            self._schedule()

        return changed

    def on_resize(self) -> None:
        size = self.size
        self._layout = layout(len(self.tiles), size.width, size.height)
        for tile, box in zip(self.tiles, self._layout.boxes, strict=True):
            tile.resize(max(0, box.width - 2), max(0, box.height - BODY_TOP - 1))
            tile.take_changes()
        self._forget()

    def notify_style_update(self) -> None:
        self._drawn.forget()  # (the tiles' rows are kept by style: those still valid hit)
        self._forget()
        super().notify_style_update()

    def set_palette(self, palette: Palette) -> None:
        """Draw every tile's terminal in other colours."""
        self.palette = palette
        self._texts.clear()
        for tile in self.tiles:
            tile.clear()
        self._forget()
        self.refresh()

    # -- the focus and the titles ---------------------------------------------------------------

    @property
    def columns(self) -> int:
        """How many tiles a row of the grid holds."""
        return self._layout.columns

    @property
    def focused_tile(self) -> Tile:
        """The tile with the focus."""
        return self.tiles[self.cursor]

    def move_to(self, index: int) -> None:
        """Give the focus to tile ``index``: the two borders change, nothing else."""
        if index == self.cursor or not 0 <= index < len(self.tiles):
            return
        before, self.cursor = self.cursor, index
        self._redraw([region for tile in (before, index) for region in self._border(tile)])

    def tile_region(self, index: int) -> Region:
        """Where tile ``index`` lies on the screen."""
        return self._layout.boxes[index].translate(self.content_region.offset)

    def update_titles(self, now: float, tiles: Sequence[Tile] | None = None) -> None:
        """Work out the title lines (and borders) again; draw those that changed."""
        regions: list[Region] = []
        for tile in self.tiles if tiles is None else tiles:
            title, border = tile.update_title(now)
            box = self._layout.boxes[tile.index]
            if title:
                regions.append(Region(box.x + 1, box.y + TITLE_ROW, max(0, box.width - 2), 1))
            if border:
                regions += self._border(tile.index)
        self._redraw(regions)

    def on_click(self, event: events.Click) -> None:
        index = self._layout.tile_at(event.x, event.y)
        if index is not None:
            self.move_to(index)

    def _border(self, index: int) -> list[Region]:
        return edges(self._layout.boxes[index])

    def _redraw(self, regions: list[Region], *, whole: bool = False) -> None:
        """Forget the lines of ``regions`` (each within one tile's box) and draw them again
        (not while paused): on each line only that tile's pieces are made again. ``whole``:
        Textual repaints the lines whole (:func:`by_line`), else only ``regions`` (a border's
        column: a focus move repaints two tiles' borders, not two bands of lines)."""
        for region in regions:
            column = self._layout.column_at(region.x)
            for y in region.line_range:
                self._lines.pop(y, None)
                self._stale.setdefault(y, set()).add(column)
        if regions and not self._paused:
            self.refresh(*(by_line(regions, self.size.width) if whole else regions))

    def _forget(self) -> None:
        """Forget every line (the next frame draws them all again)."""
        self._lines.clear()
        self._parts.clear()
        self._stale.clear()

    # -- frames ---------------------------------------------------------------------------------

    def pause(self) -> None:
        """Draw nothing until :meth:`resume` (the tiles note what changes meanwhile)."""
        self._paused = True
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def resume(self) -> None:
        """Draw what changed while paused, and go on drawing."""
        self._paused = False
        for tile in self.tiles:
            tile.take_changes()
        self._changed.clear()
        self._forget()
        self.refresh()

    @property
    def paused(self) -> bool:
        """Whether the grid draws nothing for now."""
        return self._paused

    def _schedule(self) -> None:
        if self._timer is not None or self._paused or not self.is_mounted:
            return
        now = self.clock()
        delay = self._last_frame + FRAME - now
        if delay <= 0:
            # The first change after a quiet spell: drawn at once. A timer for it costs a task
            # and a turn of the event loop behind every session's parsing.
            self._frame(now)
            return
        self._timer = self.set_timer(delay, self._frame)

    def _frame(self, now: float | None = None) -> None:
        """Draw every tile that changed since the last frame: its changed rows only."""
        self._timer = None
        now = self._last_frame = self.clock() if now is None else now
        self.frames += 1
        regions: list[Region] = []
        waiting = set()
        for tile in self._changed:
            if not tile.ready(now):
                waiting.add(tile)  # a synchronized update is open: its end is drawn whole
                continue
            box = self._layout.boxes[tile.index]
            rows = tile.take_changes()
            top, width = box.y + BODY_TOP, tile.width
            if rows is None:
                regions.append(Region(box.x + 1, top, width, tile.height))
            else:
                regions += [Region(box.x + 1, top + y, width, n) for y, n in row_runs(rows)]
        self._changed = waiting
        if waiting:
            self._schedule()
        self._redraw([region for region in regions if region.area], whole=True)

    # -- drawing --------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """Line ``y`` before the app's line filters (Textual's path filters what it returns)."""
        return self._composed(y, ())

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines in ``crop``, through the app's line filters. The grid has no border,
        padding or tint of its own, so Textual's styles cache would add nothing to them but
        its cost: each line is composed once, and kept until it changes."""
        filters = tuple(self.get_line_filters())
        if filters != self._filters:
            self._filters = filters
            self._forget()
        lines = [self._line(y) for y in crop.line_range]
        left, right = crop.column_span
        if (left, right) != (0, self.size.width):
            lines = [line.crop(left, right) for line in lines]
        return lines

    def _line(self, y: int) -> Strip:
        line = self._lines.get(y)
        if line is None:
            parts = self._parts.get(y)
            stale = self._stale.pop(y, ())
            if parts is None:
                parts = self._parts[y] = self._columns(y, self._filters)
            else:
                for column in stale:
                    if column < len(parts) - 1:
                        parts[column] = self._column(y, column, self._filters)
            pieces = [strip for part in parts for strip in part]
            console = self.app.console
            for piece in pieces:  # each piece's escape codes made once: the line joins them
                piece.render(console)
            line = self._lines[y] = Strip.join(pieces)
        return line

    def _composed(self, y: int, filters: Filters) -> Strip:
        """Line ``y`` made anew (see :meth:`_columns`)."""
        return Strip.join([strip for part in self._columns(y, filters) for strip in part])

    def _columns(self, y: int, filters: Filters) -> list[list[Strip]]:
        """Line ``y`` in parts: each column's (the gap before it, its tile's pieces on the
        line), then the rest of the line. Each piece went through ``filters`` where it is kept
        (a line filter changes each segment on its own, so a line of filtered pieces is the
        filtered line; filtering whole lines went through every tile's segments at each
        frame); a line is joined again from its parts when one tile on it changes."""
        grid = self._layout
        width = self.size.width
        if grid.band_at(y) is None:
            return [[self._drawn.gap(width, filters)]]
        parts = [self._column(y, column, filters) for column in range(grid.columns)]
        left, span = grid.spans[-1]
        parts.append([self._drawn.gap(width - left - span, filters)] if left + span < width else [])
        return parts

    def _column(self, y: int, column: int, filters: Filters) -> list[Strip]:
        """Column ``column``'s part of line ``y``: the gap before it and its tile's pieces."""
        grid = self._layout
        band = grid.band_at(y)
        assert band is not None
        left, span = grid.spans[column]
        before = grid.spans[column - 1][0] + grid.spans[column - 1][1] if column else 0
        part = [self._drawn.gap(left - before, filters)] if left > before else []
        index = band * grid.columns + column
        if index < len(self.tiles):
            part += self._piece(self.tiles[index], y - grid.bands[band][0], span, filters)
        else:
            part.append(self._drawn.gap(span, filters))
        return part

    def _piece(self, tile: Tile, y: int, width: int, filters: Filters) -> list[Strip]:
        """Line ``y`` of ``tile``'s box, ``width`` cells wide, in pieces (joined once, with the
        whole line)."""
        height = self._layout.bands[tile.index // self._layout.columns][1]
        heavy = tile.attention
        part = "focus" if tile.index == self.cursor else "attention" if heavy else "border"
        if y == 0 or y == height - 1:
            key = ("edge", width, y == 0, heavy, part, filters)
            return [
                self._drawn.made(key, lambda: edge(width, y == 0, heavy, self._drawn.style(part)))
            ]
        if width < 2:
            return [self._drawn.made(("blank", width, part, filters), lambda: Strip.blank(width))]
        if y == TITLE_ROW:
            middle = self._drawn.title(tile, width - 2, filters)
        else:
            blank = self._drawn.style("terminal")
            middle = tile.line(
                y - BODY_TOP,
                self.palette,
                blank,
                filters=filters,
                styles=self._restyle,
                texts=self._texts,
                background=self._drawn.background,
            )
        side = self._drawn.made(
            ("side", heavy, part, filters), lambda: side_of(heavy, self._drawn.style(part))
        )
        return [side, middle, side]
