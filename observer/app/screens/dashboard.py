"""The dashboard: every session as a live tile; ``enter`` opens one full size.

Attention first: ``n`` focuses the next agent that needs you, the one that has waited longest
first (then the next, in that order); ``r`` replies to the focused agent from here (a line or a
key, confirmed, then the session core takes the keyboard, types and hands it back).

Tiles watch the screen's state (:meth:`Tile.watch_small`); ``enter`` switches the opened session
to the byte stream (with no gap: the peer sends a snapshot where the last frame stood), and
coming back switches it to the screen again.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from observer.app.links import Link, session_name
from observer.app.screens.confirm import ConfirmScreen
from observer.app.screens.reply import ReplyScreen
from observer.app.screens.watch import WatchScreen
from observer.app.sparse_compositor import SparseCompositor
from observer.app.widgets.terminal_view import TerminalView
from observer.app.widgets.tile import Tile
from observer.render.rich_cells import Palette


class DashboardScreen(Screen[None]):
    """A grid of :class:`Tile` s, one per session."""

    DEFAULT_CSS = """
    DashboardScreen Grid {
        grid-gutter: 0 1;
    }
    """

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    """Textual's, without its repaint of the whole screen for each change: the tiles that lose
    and gain the focus repaint themselves (their border), and a full repaint drew all 40 tiles
    (75 KB to the terminal) for each arrow key."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Open"),
        Binding("n", "next_attention", "Next needing you"),
        Binding("r", "reply", "Reply"),
        Binding("right", "move(1)", "Next", show=False),
        Binding("left", "move(-1)", "Previous", show=False),
        Binding("down", "move_row(1)", "Down", show=False),
        Binding("up", "move_row(-1)", "Up", show=False),
    ]

    def __init__(self, links: Sequence[Link], palette: Palette) -> None:
        super().__init__()
        self._compositor = SparseCompositor()  # 40 tiles: see its module docstring
        self.links = list(links)
        self.palette = palette
        self.columns = max(1, math.ceil(math.sqrt(len(self.links))))

    def compose(self) -> ComposeResult:
        grid = Grid()
        grid.styles.grid_size_columns = self.columns
        with grid:
            for index, link in enumerate(self.links):
                yield Tile(link, self.palette, index)
        yield Footer()

    def on_mount(self) -> None:
        self.query(Tile).first().focus()
        self.set_interval(1.0, self.update_titles)

    def update_titles(self) -> None:
        """Refresh every tile's title line (agent states change with time: ``idle 5s``);
        nothing while the dashboard is hidden or under a dialog (it would repaint all of it)."""
        if self.on_top:
            for tile in self.tiles:
                tile.update_title()

    def session_changed(self, link: Link) -> None:
        """A session's status changed: its tile's title shows it at once."""
        for tile in self.tiles:
            if tile.link is link and tile.is_mounted and self.on_top:
                tile.update_title()

    @property
    def on_top(self) -> bool:
        """Whether the dashboard is the screen in front (not under a dialog or a full view)."""
        return self.is_attached and self.app.screen is self

    def on_screen_suspend(self) -> None:
        for tile in self.tiles:
            tile.pause()  # hidden or under a dialog: see the tile's module docstring

    def on_screen_resume(self) -> None:
        for view in self.query(TerminalView):
            if view.palette != self.palette:  # the theme changed meanwhile
                view.set_palette(self.palette)  # (it redraws the whole tile)
        for tile in self.tiles:
            tile.watch_small()  # back from a full view
            tile.resume()
        self.update_titles()

    @property
    def tiles(self) -> list[Tile]:
        """The tiles in order."""
        return list(self.query(Tile))

    def _focused_index(self) -> int:
        focused = self.focused
        return focused.index if isinstance(focused, Tile) else 0

    def action_move(self, step: int) -> None:
        """Focus the next or previous tile."""
        tiles = self.tiles
        tiles[(self._focused_index() + step) % len(tiles)].focus()

    def action_move_row(self, step: int) -> None:
        """Focus the tile above or below."""
        index = self._focused_index() + step * self.columns
        if 0 <= index < len(self.tiles):
            self.tiles[index].focus()

    def action_open(self) -> None:
        """Open the focused tile's session full size."""
        link = self.links[self._focused_index()]
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
        focused = self.focused
        at = needing.index(focused) + 1 if isinstance(focused, Tile) and focused in needing else 0
        needing[at % len(needing)].focus()

    def action_reply(self) -> None:
        """Reply to the focused agent: a line or a key, confirmed, typed without staying in control."""
        tile = self.tiles[self._focused_index()]
        status = tile.session.status(self._now())
        if not status.may_take:
            self.notify(status.cannot_take, title="Cannot reply", severity="warning", markup=False)
            return
        asks = str(status.attention) if status.attention is not None else ""

        def confirm(data: bytes | None) -> None:
            if data is None:
                return
            shown = data.decode("utf-8", "replace").replace("\r", "⏎")
            question = f"Send {shown!r} to {session_name(tile.link.label)}?"
            detail = "observer takes control, types it, and hands control back."

            def answered(yes: bool | None) -> None:
                if yes:
                    tile.session.reply(data, self._now())

            self.app.push_screen(ConfirmScreen(question, detail), answered)

        self.app.push_screen(ReplyScreen(session_name(tile.link.label), asks), confirm)
