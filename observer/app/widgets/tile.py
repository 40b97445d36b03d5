"""A dashboard tile: one session's title line over its cropped live terminal."""

from __future__ import annotations

import time

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from observer.app.links import Link
from observer.app.widgets.terminal_view import TerminalView
from observer.rendering import Palette


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
    Tile.-waiting {
        border: round $warning;
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

    def compose(self) -> ComposeResult:
        yield Static(classes="tile-title")
        view = TerminalView(self.session, self.palette)
        view.can_focus = False
        yield view

    def on_mount(self) -> None:
        self.update_title()
        self.set_interval(1.0, self.update_title)

    def update_title(self) -> None:
        """Refresh the title line: number, name, agent state (or why the session failed)."""
        status = self.session.status(getattr(self.app, "clock", time.monotonic)())
        state = status.summary()
        title = Text(no_wrap=True, overflow="ellipsis")
        title.append(f" {self.index + 1} ", "reverse")
        title.append(" ")
        title.append(self.link.label, "bold")
        title.append("  ")
        title.append(state, "bold" if status.connection == "connected" else "italic")
        self.set_class(state.startswith("waiting"), "-waiting")
        self.query_one(".tile-title", Static).update(title)
