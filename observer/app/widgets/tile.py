"""A dashboard tile: one session's title line over its cropped live terminal.

The title line, most important first (a narrow tile cuts its end with ``…``): the tile's number,
the session's name (its profile's: the label's first part), a badge with what the agent needs
(``needs permission``...: the border says it too), then the agent's own words, or its state, or
why the session failed; its progress where it reports one; the rest of the label (the endpoint).
A tile whose agent needs someone has a heavy warning border.

A tile asks its session for the screen's state rather than the byte stream (the screen view:
the server sends the rows that changed, at most as often as a tile repaints), where the peer can
send it and nothing records the session; the session core decides that. The tile tells its
session which rows its crop shows: the rows it does not show are painted into its model only when
they are read (:meth:`~observer.client.watched.WatchedSession.show_rows`), so a tile costs the rows
it shows. While the dashboard is hidden or under a dialog, a tile draws
nothing (a dialog repaints the whole dashboard beneath it for each change of any tile: 40 tiles
made the command palette take seconds to open); it keeps the rows that changed meanwhile and
draws them when the dashboard shows again.
"""

from __future__ import annotations

import time

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical

from observer.app.links import Link, endpoint_said_once, live_screen, session_name
from observer.app.widgets.one_line import OneLine
from observer.app.widgets.terminal_view import TerminalView
from observer.client import state_words
from observer.client.status import SessionStatus
from observer.client.tile_view import TILE_FPS
from observer.render.rich_cells import Palette

TILE_FRAME = 1 / TILE_FPS
"""Seconds between a tile's repaints at most (as often as its screen-view frames come)."""


class Tile(Vertical, can_focus=True):
    """Focusable; the screen opens it full size on ``enter``."""

    DEFAULT_CSS = """
    Tile {
        border: round $panel;
        height: 1fr;
        width: 1fr;
    }
    Tile:focus {
        border: round $primary;
    }
    Tile.-attention {
        border: heavy $warning;
    }
    Tile.-attention:focus {
        border: heavy $primary;
    }
    Tile > .tile-title {
        height: 1;
        background: $panel;
    }
    """

    def __init__(self, link: Link, palette: Palette, index: int) -> None:
        super().__init__()
        self.link = link
        self.session = link.session
        self.palette = palette
        self.index = index
        self._title = Text()
        self._missed: tuple[set[int], bool] | None = None
        """While paused: the rows that changed, and whether the whole screen did."""

    def compose(self) -> ComposeResult:
        yield OneLine(classes="tile-title")
        view = TerminalView(live_screen(self.session), self.palette)
        view.frame = TILE_FRAME
        view.paced = lambda: self.session.paced
        view.can_focus = False
        yield view

    def on_mount(self) -> None:
        self.update_title()
        self.watch_small()
        # Rows the tile's crop does not show are not painted until it does: it costs what it shows.
        self.session.show_rows(self.query_one(TerminalView).rows_shown)

    def on_resize(self) -> None:
        self.session.shown_changed()

    def on_unmount(self) -> None:
        self.session.show_rows(None)

    @property
    def paused(self) -> bool:
        """Whether the tile draws nothing for now (see the module docstring)."""
        return self._missed is not None

    def pause(self) -> None:
        """Draw nothing until :meth:`resume`; note what changes meanwhile."""
        if self._missed is None:
            screen = live_screen(self.session)
            screen.unsubscribe(self.query_one(TerminalView).mark_dirty)
            self._missed = (set(), False)
            screen.subscribe(self._note)

    def resume(self) -> None:
        """Draw what changed while paused, and go on drawing."""
        if self._missed is None:
            return
        (rows, whole), self._missed = self._missed, None
        screen = live_screen(self.session)
        screen.unsubscribe(self._note)
        view = self.query_one(TerminalView)
        screen.subscribe(view.mark_dirty)
        if rows or whole:
            view.mark_dirty(rows, whole)

    def _note(self, rows: set[int], whole: bool) -> None:
        if self._missed is not None:
            self._missed[0].update(rows)
            self._missed = (self._missed[0], self._missed[1] or whole)

    def watch_small(self) -> None:
        """Ask for the screen's state, as a tile shows it (the full view asks for the stream)."""
        self.session.choose_view("screen", TILE_FPS)

    def update_title(self) -> None:
        """Refresh the title line: number, name, agent state (or why the session failed).

        Only when it changed, and without a layout pass (the line's size never changes; a layout
        pass lays out the whole dashboard).
        """
        status = self.session.status(getattr(self.app, "clock", time.monotonic)())
        attention = status.attention if status.connection == "connected" else None
        title = title_line(self.index, self.link.label, status)
        self.set_class(attention is not None, "-attention")
        if title != self._title:
            self._title = title
            self.query_one(".tile-title", OneLine).update(title)


def title_line(index: int, label: str, status: SessionStatus) -> Text:
    """A tile's title line for the session labelled ``label``, most important first."""
    name, rest = session_name(label), label.partition(" · ")[2]
    attention = status.attention if status.connection == "connected" else None
    title = Text(no_wrap=True, overflow="ellipsis")
    title.append(f" {index + 1} ", "reverse")
    title.append(" ")
    title.append(name, "bold")  # first: a narrow tile cuts the end of the line
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
