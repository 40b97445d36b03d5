"""What a terminal view draws: a live session's screen, or a replay's model (the narrow interface)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from observer.terminal import TerminalModel

Listener = Callable[[set[int], bool], None]


class ScreenSource(Protocol):
    """What a view draws: a live session's screen (``LiveScreen``), or a replay's model."""

    @property
    def model(self) -> TerminalModel:
        """The terminal to draw. Its rows (``line(y)``, ``history``) carry each cell's OSC 8
        link and whether the row wraps onto the next, which a click on a link reads
        (:func:`observer.app.urls.url_at`)."""
        ...

    @property
    def behind(self) -> bool:
        """Output is waiting to be parsed: draw fewer frames."""
        ...

    @property
    def in_control(self) -> bool:
        """Keys typed go to the agent."""
        ...

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(dirty_rows, whole)`` after each change."""
        ...

    def unsubscribe(self, listener: Listener) -> None:
        """Stop calling ``listener``."""
        ...
