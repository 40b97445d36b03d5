"""A dashboard tile: one session's title line over its cropped live terminal (no widget).

The dashboard's one widget (:class:`~observer.app.widgets.fleet_grid.FleetGrid`) draws every
tile; a :class:`Tile` keeps what one of them shows between frames: its title, whether its agent
needs someone, which rows changed since the last frame, and the rows it painted, one strip per
(row, version) as Textual's ``Log`` keeps its lines.

The title line, most important first (a narrow tile cuts its end with ``…``): the tile's number,
the session's name (its profile's: the label's first part), a badge with what the agent needs
(``needs permission``...: the border says it too), then the agent's own words, or its state, or
why the session failed; its progress where it reports one; the rest of the label (the endpoint).

A tile asks its session for the screen's state rather than the byte stream (the screen view:
the server sends the rows that changed, at most :data:`TILE_FPS` times a second), where the peer
can send it and nothing records the session; the session core decides that. The tile tells its
session which rows its crop shows, and draws them from the frames itself
(:meth:`~observer.client.watched.WatchedSession.screen_line`, drawn by
:class:`~observer.app.widgets.strips.TextRows`): no row is parsed into its model until someone
reads the model (the prompt recognisers, the full view), so a tile costs the rows it shows (and
of those, the columns it shows), and those without a parse.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.color import Color
from textual.filter import LineFilter
from textual.strip import Strip

from observer.app.links import Link, endpoint_said_once, session_name
from observer.app.widgets import strips
from observer.app.widgets.viewport import Geometry, Window, window
from observer.client import state_words
from observer.client.status import SessionStatus
from observer.client.tile_view import TILE_FPS
from observer.protocol.screen_view import cut_row
from observer.render.rich_cells import Palette

SYNC_TIMEOUT = 0.15
"""Seconds a tile waits for a synchronized update (DECSET 2026) to end before drawing anyway."""


FROM_COLUMN = 0
"""The column a tile shows each row from: where text begins (a tile is read at a glance; the
cursor's column may be far right)."""


class Tile:
    """What one session's tile shows; the grid draws it at the size it gives."""

    def __init__(self, link: Link, index: int) -> None:
        self.link = link
        self.session = link.session
        self.index = index
        self.title = Text()
        """The whole title line (the grid cuts it to the tile's width)."""
        self.attention = False
        """Whether the agent needs someone (a heavy warning border)."""
        self.width = self.height = 0
        """The size of the terminal part (inside the border, under the title)."""
        self._versions: dict[int, int] = {}
        self._epoch = 0
        self._pending: set[int] = set()
        self._whole = True
        self._cursor: tuple[int, int, bool] = (-1, -1, False)
        self._window: Window | None = None
        self._sync_since: float | None = None
        self._strips: dict[int, tuple[tuple[object, ...], Strip]] = {}
        """Each screen row's strip as last drawn (-1: a blank row), with what it was drawn for."""
        self._shown: tuple[tuple[int, ...], range] = ((), range(0))
        self._showing = False

    def mark(self, rows: set[int], whole: bool) -> None:
        """The session's screen changed (its listener's arguments)."""
        if whole:
            self._whole = True
            self._epoch += 1
        for row in rows:
            self._versions[row] = self._versions.get(row, 0) + 1
        self._pending |= rows

    def resize(self, width: int, height: int) -> None:
        """Show the terminal in ``width`` x ``height`` cells (every row moves)."""
        if (width, height) == (self.width, self.height):
            return
        self.width, self.height = width, height
        self._strips.clear()
        self._whole = True
        if self._showing:
            self._tell_rows_shown()
        else:
            self.session.shown_changed()

    def show(self, showing: bool) -> None:
        """Whether the grid shows the tile: its session then paints only the rows the tile
        shows, up to its width (the tile shows each row from its first column); else all."""
        self._showing = showing
        if showing:
            self._tell_rows_shown()
        else:
            self.session.show_rows(None)

    def _tell_rows_shown(self) -> None:
        """Tell the session the rows the tile shows, and up to which column of them."""
        self.session.show_rows(self.rows_shown, FROM_COLUMN + self.width or None, drawn=True)

    def clear(self) -> None:
        """Forget every painted row (the palette changed)."""
        self._strips.clear()
        self._whole = True

    def watch_small(self) -> None:
        """Ask for the screen's state, as a tile shows it (the full view asks for the stream)."""
        self.session.choose_view("screen", TILE_FPS)

    # -- what changed ---------------------------------------------------------------------------

    def ready(self, now: float) -> bool:
        """Whether the tile may draw now: not while the agent holds a synchronized update open
        (up to :data:`SYNC_TIMEOUT`), so a frame never shows half a redraw."""
        if not self.session.model.synchronized:
            self._sync_since = None
            return True
        if self._sync_since is None:
            self._sync_since = now
        return now - self._sync_since >= SYNC_TIMEOUT

    def take_changes(self) -> list[int] | None:
        """The terminal rows of the tile to draw again since the last call (None: all)."""
        old, self._window = self._window, None
        shown = self.window()
        cursor = self.cursor()
        if cursor != self._cursor:
            self._pending |= {self._cursor[1], cursor[1]}
            self._cursor = cursor
        pending, self._pending = self._pending, set()
        whole, self._whole = self._whole or old != shown, False
        if whole:
            return None
        last = shown.first + shown.count
        return sorted(
            shown.pad_top + row - shown.first for row in pending if shown.first <= row < last
        )

    # -- drawing --------------------------------------------------------------------------------

    def cursor(self) -> tuple[int, int, bool]:
        """The cursor (column, row, visible) where the tile draws it: as the frames place it
        where the tile draws its rows from them, else as its session's model has it."""
        drawn = self.session.screen_cursor()
        if drawn is not None:
            return drawn
        model = self.session.model
        return int(model.cursor_x), int(model.cursor_y), bool(model.cursor_visible)

    def window(self) -> Window:
        """The part of the remote screen the tile shows: the rows around the cursor, from the
        lines' start (where text begins: a tile is read at a glance, the cursor's column may be
        far right), or centred."""
        if self._window is None:
            model = self.session.model
            cursor_x, cursor_y, _ = self.cursor()
            self._window = window(
                Geometry(
                    int(model.cols), int(model.rows), cursor_x, cursor_y, 0, self.width, self.height
                ),
                left=FROM_COLUMN,
            )
        return self._window

    def rows_shown(self, cols: int, rows: int, cursor_x: int, cursor_y: int) -> range:
        """The rows the tile shows of a screen of ``cols`` x ``rows`` with the cursor at
        ``(cursor_x, cursor_y)`` (for :meth:`~observer.client.watched.WatchedSession.show_rows`)."""
        key = (cols, rows, cursor_x, cursor_y, self.width, self.height)
        if self._shown[0] != key:  # asked at each screen frame, mostly of the same screen
            shown = window(Geometry(cols, rows, cursor_x, cursor_y, 0, self.width, self.height))
            self._shown = (key, range(shown.first, shown.first + shown.count))
        return self._shown[1]

    def line(
        self,
        y: int,
        palette: Palette,
        blank: Style,
        *,
        filters: tuple[LineFilter, ...],
        styles: strips.StyleFilters,
        texts: strips.TextRows,
        background: Color,
    ) -> Strip:
        """Row ``y`` of the tile's terminal part through the app's line ``filters`` (applied
        by ``styles``), kept per screen row until its version or place changes (a stale version
        never comes back: one strip per row is all a tile keeps)."""
        shown = self.window()
        model = self.session.model
        row = shown.first + y - shown.pad_top
        if not (0 <= y - shown.pad_top < shown.count and 0 <= row < model.rows):
            row = -1  # a blank row (centred: above or below the screen)
        cursor_x, cursor_y, visible = self.cursor()
        cursor = cursor_x if visible and row == cursor_y else None
        version = self._versions.get(row, 0)
        key = (self._epoch, version, cursor, shown.left, self.width, blank, filters, background)
        kept = self._strips.get(row)
        if kept is not None and kept[0] == key:
            return kept[1]
        text = None if row < 0 else self.session.screen_line(row)
        if row < 0:
            strip = Strip.blank(self.width, blank)
        elif text is not None:  # as the frame paints it, up to the columns shown
            if shown.left >= 0:
                text = cut_row(text, shown.left + self.width)
            strip = texts.strip(
                text,
                model.cols,
                palette,
                cursor=cursor,
                left=shown.left,
                width=self.width,
                blank=blank,
            )
        else:
            strip = strips.screen_row(
                model, row, palette, cursor=cursor, left=shown.left, width=self.width, blank=blank
            )
        strip = styles.apply(strip, filters, background)
        self._strips[row] = (key, strip)
        return strip

    # -- the title line -------------------------------------------------------------------------

    def update_title(self, now: float) -> tuple[bool, bool]:
        """Work out the title line and the border again: whether each changed."""
        status = self.session.status(now)
        attention = status.connection == "connected" and status.attention is not None
        title = title_line(self.index, self.link.label, status)
        changed = (title != self.title, attention != self.attention)
        if changed[0]:
            self.title = title
        self.attention = attention
        return changed


def title_line(index: int, label: str, status: SessionStatus) -> Text:
    """A tile's title line for the session labelled ``label``, most important first."""
    name, rest = session_name(label), label.partition(" · ")[2]
    attention = status.attention if status.connection == "connected" else None
    title = Text(no_wrap=True, overflow="ellipsis")
    title.append(f" {index + 1} ", "reverse")
    title.append(" ")
    title.append(name, "bold")  # first: a narrow tile cuts the end of the line
    title.append("  ")
    if status.holder == "other" and status.live:  # somebody else types into this agent
        title.append(f"⌨ {status.holder_label or 'someone'}", "bold")
        title.append("  ")
    if attention is not None:  # the heavy border says it too, even where the badge is cut
        title.append(f" {attention.reason} ", "bold reverse")
        title.append(f" {int(status.quiet_for)}s {attention.text}".rstrip())
    else:
        summary = endpoint_said_once(state_words.summary(status), label)
        title.append(summary, "bold" if status.connection == "connected" else "italic")
    progress = status.progress
    if progress is not None:
        title.append(f"  {progress.value}%" if progress.value is not None else "  …", "dim")
    if rest:
        title.append(f"  · {rest}", "dim")
    return title
