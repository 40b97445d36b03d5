"""The dashboard: every session as a live tile; ``enter`` opens one full size.

Attention first: ``n`` focuses the next agent that needs you, the one that has waited longest
first (then the next, in that order); ``r`` replies to the focused agent from here (a line or a
key in a dialog that names the agent and says what sending does: its ``enter`` is the one
confirmation; then the session core takes the keyboard, types and hands it back). ``q`` quits,
as in the replay (no key of the dashboard's types anything), and the footer says so.

One widget draws every tile (:class:`~observer.app.widgets.fleet_grid.FleetGrid`). Tiles watch
the screen's state (:meth:`Tile.watch_small`); ``enter`` switches the opened session to the byte
stream (with no gap: the peer sends a snapshot where the last frame stood), and coming back
switches it to the screen again.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer

from observer.app.links import Link, session_name
from observer.app.screens.reply import ReplyScreen
from observer.app.screens.watch import WatchScreen
from observer.app.widgets.fleet_grid import FleetGrid
from observer.app.widgets.tile import Tile
from observer.render.rich_cells import Palette


class BlankFooter(Footer):
    """Textual's footer, blank under its keys: Textual asks for the footer's line at each
    frame of the grid (the screen holds both), and a blank container answers with one blank
    line instead of its styles' work."""

    BLANK = True


class DashboardScreen(Screen[None]):
    """A grid of tiles, one per session."""

    BLANK = True
    """The screen draws nothing of its own (the grid and the footer cover it): Textual asks
    for every line of the screen beneath them at each frame of the grid, and a blank screen
    answers with one blank line instead of its styles' work for each."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Open"),
        Binding("n", "next_attention", "Next needing you"),
        Binding("r", "reply", "Reply"),
        Binding("q", "app.quit", "Quit"),
        Binding("right,tab", "move(1)", "Next", show=False),
        Binding("shift+tab", "move(-1)", "Previous", show=False),
        Binding("left", "move(-1)", "Previous", show=False),
        Binding("down", "move_row(1)", "Down", show=False),
        Binding("up", "move_row(-1)", "Up", show=False),
    ]

    def __init__(self, links: Sequence[Link], palette: Palette) -> None:
        super().__init__()
        self.links = list(links)
        self.grid = FleetGrid(self.links, palette)

    @property
    def palette(self) -> Palette:
        """The terminal colours the tiles draw in."""
        return self.grid.palette

    @palette.setter
    def palette(self, palette: Palette) -> None:
        if palette != self.grid.palette:
            self.grid.set_palette(palette)

    def compose(self) -> ComposeResult:
        yield self.grid
        yield BlankFooter()

    def on_mount(self) -> None:
        self.grid.clock = getattr(self.app, "clock", time.monotonic)
        self.grid.focus()
        self.update_titles()
        self.set_interval(1.0, self.update_titles)

    def update_titles(self) -> None:
        """Refresh every tile's title line (agent states change with time: ``idle 5s``);
        nothing while the dashboard is hidden or under a dialog (it would repaint all of it)."""
        if self.on_top:
            self.grid.update_titles(self._now())

    def session_changed(self, link: Link) -> None:
        """A session's status changed: its tile's title shows it at once."""
        if self.on_top:
            self.grid.update_titles(self._now(), [t for t in self.tiles if t.link is link])

    @property
    def on_top(self) -> bool:
        """Whether the dashboard is the screen in front (not under a dialog or a full view)."""
        return self.is_attached and self.app.screen is self

    def on_screen_suspend(self) -> None:
        self.grid.pause()  # hidden or under a dialog: see the grid's module docstring

    def on_screen_resume(self) -> None:
        for tile in self.tiles:
            tile.watch_small()  # back from a full view
        self.grid.resume()
        self.update_titles()

    @property
    def tiles(self) -> list[Tile]:
        """The tiles in order."""
        return self.grid.tiles

    @property
    def focused_tile(self) -> Tile:
        """The tile with the focus."""
        return self.grid.focused_tile

    def action_move(self, step: int) -> None:
        """Focus the next or previous tile."""
        self.grid.move_to((self.grid.cursor + step) % len(self.tiles))

    def action_move_row(self, step: int) -> None:
        """Focus the tile above or below."""
        self.grid.move_to(self.grid.cursor + step * self.grid.columns)

    def action_open(self) -> None:
        """Open the focused tile's session full size."""
        link = self.focused_tile.link
        link.session.choose_view("stream")  # full size: every byte, from where the tile stood
        self.app.push_screen(WatchScreen(link, self.palette, can_go_back=True))

    def _now(self) -> float:
        return float(getattr(self.app, "clock", time.monotonic)())

    def needing(self) -> list[Tile]:
        """The tiles whose agent needs someone, the one that has waited longest first."""
        now = self._now()
        waiting = []
        for tile in self.tiles:
            attention = tile.session.status(now).attention
            if attention is not None:
                waiting.append((attention.since, tile.index, tile))
        return [tile for _, _, tile in sorted(waiting, key=lambda entry: entry[:2])]

    def action_next_attention(self) -> None:
        """Focus the next agent that needs you (oldest first, then on in that order)."""
        needing = self.needing()
        if not needing:
            self.notify("No agent needs you now.", markup=False)
            return
        focused = self.focused_tile
        at = needing.index(focused) + 1 if focused in needing else 0
        self.grid.move_to(needing[at % len(needing)].index)

    def action_reply(self) -> None:
        """Reply to the focused agent: a line or a key, confirmed, typed without staying in control."""
        tile = self.focused_tile
        status = tile.session.status(self._now())
        if not status.may_take:
            self.notify(status.cannot_take, title="Cannot reply", severity="warning", markup=False)
            return
        asks = str(status.attention) if status.attention is not None else ""

        def send(data: bytes | None) -> None:
            if data is not None:  # the dialog named the agent and said what sending does
                tile.session.reply(data, self._now())

        self.app.push_screen(ReplyScreen(session_name(tile.link.label), asks), send)
