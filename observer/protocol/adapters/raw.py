"""``raw``: a bare byte pipe (e.g. a PTY bridge). Every frame received is output; input is binary.

Text frames are output too (UTF-8), since bridges differ in which frame type they use. No
greeting, no snapshot, no resume, no resize, no arbitration, and the socket's close is the
program's end: on join the screen may be incomplete (``SessionStarted.complete`` is False).
"""

from __future__ import annotations

from observer.protocol.adapter import Message
from observer.protocol.adapters._local import LocalControlBase
from observer.protocol.events import Capabilities, Event, OutputReceived


class RawAdapter(LocalControlBase):
    """Client side of a raw byte-stream WebSocket."""

    subprotocol: str | None = None
    capabilities = Capabilities(
        arbitration="none",
        snapshot=False,
        resume=False,
        resize=False,
        exit="close",
        reconnect="rejoin",
        watchers=False,
        identifier=False,
    )

    def receive(self, message: Message) -> list[Event]:
        """Every frame is PTY output."""
        data = message.encode("utf-8", "surrogateescape") if isinstance(message, str) else message
        events = self._start()
        if data:
            events.append(OutputReceived(bytes(data), self._advance(len(data))))
        return events

    def encode_input(self, data: bytes) -> list[Message]:
        """One binary frame."""
        return [bytes(data)] if data else []

    def encode_resize(self, cols: int, rows: int) -> list[Message]:
        """A raw pipe has no resize message."""
        return []
