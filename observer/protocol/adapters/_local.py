"""Shared parts of the adapters for peers without control arbitration (raw, ttyd, Jupyter).

Such peers accept input from any client, so this client keeps the watch/control switch itself:
``request_control`` flips it locally, and in watch mode ``send_input``/``send_resize`` return no
message at all — the only guard there is, since the peer would obey (ttyd honours resize even
when read-only).
"""

from __future__ import annotations

from observer.protocol.adapter import Message
from observer.protocol.events import Event, Mode, SessionStarted
from observer.terminal import sanitize


def sanitize_title(title: str) -> str:
    """Title text safe to show (:func:`observer.terminal.sanitize.sanitize_title`)."""
    return sanitize.sanitize_title(title)


class LocalControlSession:
    """Base class: local watch/control switch, ``SessionStarted`` on the first message."""

    subprotocol: str | None = None

    def __init__(
        self, *, mode: Mode = "watch", cols: int = 80, rows: int = 24, identifier: str = ""
    ) -> None:
        self._mode: Mode = mode
        self.cols = cols
        self.rows = rows
        self.identifier = identifier
        self._started = False
        self._offset = 0

    @property
    def mode(self) -> Mode:
        """``watch`` or ``control``, switched locally by request/release."""
        return self._mode

    def opening_messages(self) -> list[Message]:
        """Nothing by default."""
        return []

    def request_control(self) -> list[Message]:
        """Take the keyboard locally: the peer has no arbitration to ask."""
        self._mode = "control"
        return []

    def release_control(self) -> list[Message]:
        """Back to watch mode: from now on no input or resize leaves this client."""
        self._mode = "watch"
        return []

    def request_resync(self) -> list[Message]:
        """No snapshot support: nothing to send."""
        return []

    def _start(self, title: str = "") -> list[Event]:
        if self._started:
            return []
        self._started = True
        return [
            SessionStarted(
                identifier=self.identifier,
                mode=self._mode,
                cols=self.cols,
                rows=self.rows,
                offset=0,
                holder="you" if self._mode == "control" else "none",
                watchers=0,
                title=title,
                complete=False,
            )
        ]

    def _advance(self, size: int) -> int:
        """Return the offset of the next ``size`` output bytes (counted from this connection)."""
        offset = self._offset
        self._offset += size
        return offset
