"""Shared parts of the adapters for peers without control arbitration (raw, ttyd, Jupyter).

Such peers accept input from any client: nobody asks them for the keyboard, so ``encode_take`` and
``encode_release`` are empty and the client session core takes control on its own side. They
greet with nothing that says who we are: the first message stands for ``SessionStarted``.
"""

from __future__ import annotations

from observer.protocol.adapter import Message
from observer.protocol.events import Event, SessionStarted
from observer.protocol.screen_frames import View
from observer.terminal.sanitize import sanitize_title


class LocalControlBase:
    """Base class: ``SessionStarted`` on the first message, offsets counted from this connection."""

    subprotocol: str | None = None

    def __init__(self, *, cols: int = 80, rows: int = 24, identifier: str = "") -> None:
        self.cols = cols
        self.rows = rows
        self.identifier = identifier
        self._started = False
        self._offset = 0

    def opening_messages(self) -> list[Message]:
        """Nothing by default."""
        return []

    def encode_take(self) -> list[Message]:
        """Nothing: the peer has no arbitration to ask."""
        return []

    def encode_release(self) -> list[Message]:
        """Nothing: the peer has no arbitration to tell."""
        return []

    def encode_resync(self) -> list[Message]:
        """No snapshot support: nothing to send."""
        return []

    def encode_view(self, view: View, fps: int) -> list[Message]:
        """Nothing: these peers send only the byte stream."""
        return []

    def _start(self, title: str = "") -> list[Event]:
        if self._started:
            return []
        self._started = True
        return [
            SessionStarted(
                identifier=self.identifier,
                mode="watch",
                cols=self.cols,
                rows=self.rows,
                offset=0,
                holder="none",
                watchers=0,
                title=sanitize_title(title),
                complete=False,
            )
        ]

    def _advance(self, size: int) -> int:
        """Return the offset of the next ``size`` output bytes (counted from this connection)."""
        offset = self._offset
        self._offset += size
        return offset
