"""``TimelineBar``: a recording's whole length on one line, with its markers; a click seeks.

Markers are drawn as ``◆`` (their labels are untrusted text and only appear in the status line,
as text), search matches as ``▴``, the played part as a heavy line. Clicking a cell seeks to the
moment it stands for; a click on (or next to) a marker seeks exactly to the marker.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

SNAP = 1
"""Cells either side of a marker that still count as a click on it."""


class TimelineBar(Widget):
    """The position, markers and search matches of a recording, across the widget's width."""

    DEFAULT_CSS = """
    TimelineBar {
        height: 1;
        background: $panel;
    }
    """

    class Seek(Message):
        """The user clicked the timeline: show the recording at ``time``."""

        def __init__(self, time: float) -> None:
            super().__init__()
            self.time = time

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.duration = 0.0
        self.position = 0.0
        self.markers: Sequence[float] = ()
        self.matches: Sequence[float] = ()
        self.loaded = True

    def show(
        self,
        *,
        duration: float,
        position: float,
        markers: Sequence[float],
        matches: Sequence[float],
        loaded: bool,
    ) -> None:
        """Update what is drawn (repaints only when something changed)."""
        state = (duration, position, len(markers), tuple(matches), loaded)
        if state != (
            self.duration,
            self.position,
            len(self.markers),
            tuple(self.matches),
            self.loaded,
        ):
            self.duration, self.position, self.loaded = duration, position, loaded
            self.markers, self.matches = markers, matches
            self.refresh()

    def cell_of(self, time: float, width: int) -> int:
        """The cell standing for ``time``."""
        if self.duration <= 0 or width <= 1:
            return 0
        return min(width - 1, max(0, round(time / self.duration * (width - 1))))

    def time_of(self, cell: int, width: int) -> float:
        """The moment a click on ``cell`` seeks to (a marker's own time if one is that close)."""
        near = [m for m in self.markers if abs(self.cell_of(m, width) - cell) <= SNAP]
        if near:
            return min(near, key=lambda m: abs(self.cell_of(m, width) - cell))
        if width <= 1:
            return 0.0
        return max(0.0, min(self.duration, cell / (width - 1) * self.duration))

    def render(self) -> Text:
        width = self.size.width
        variables = self.app.theme_variables
        here = self.cell_of(self.position, width)
        cells = ["━" if x <= here else "─" for x in range(width)]
        styles = [variables["primary"] if x <= here else "dim" for x in range(width)]
        for time in self.matches:
            x = self.cell_of(time, width)
            cells[x], styles[x] = "▴", f"bold {variables['success']}"
        for time in self.markers:
            x = self.cell_of(time, width)
            cells[x], styles[x] = "◆", f"bold {variables['warning']}"
        if width:
            cells[here], styles[here] = "●", f"bold {variables['primary']}"
        text = Text(no_wrap=True, overflow="crop")
        for cell, style in zip(cells, styles, strict=True):
            text.append(cell, style)
        return text

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Seek(self.time_of(event.x, self.size.width)))
