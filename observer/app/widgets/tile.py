"""A dashboard tile: one session's title line over its cropped live terminal."""

from __future__ import annotations

import time

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from observer.app.session import LiveSession
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

    def __init__(self, session: LiveSession, palette: Palette, index: int) -> None:
        super().__init__()
        self.session = session
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
        """Refresh the title line: number, endpoint and identifier, agent state."""
        state = self.session.status_line(getattr(self.app, "clock", time.monotonic)())
        title = Text(no_wrap=True, overflow="ellipsis")
        title.append(f" {self.index + 1} ", "reverse")
        title.append(" ")
        title.append(state, "bold")
        title.append("  ")
        title.append(self.session.label)
        self.set_class(state.startswith("waiting"), "-waiting")
        self.query_one(".tile-title", Static).update(title)
