"""``raw``: a bare byte pipe (e.g. a PTY bridge). Every frame received is output; input is binary.

Text frames are output too (UTF-8), since bridges differ in which frame type they use. No
greeting, no snapshot, no resume, no resize, no arbitration: on join the screen may be incomplete
(``SessionStarted.complete`` is False).
"""

from __future__ import annotations

from observer.protocol.adapter import Message
from observer.protocol.adapters._local import LocalControlSession
from observer.protocol.events import Capabilities, Event, OutputReceived


class RawClientSession(LocalControlSession):
    """Client side of a raw byte-stream WebSocket."""

    subprotocol: str | None = None
    capabilities = Capabilities(snapshot=False, resume=False, control=False, resize=False)

    def receive(self, message: Message) -> list[Event]:
        """Every frame is PTY output."""
        data = message.encode("utf-8", "surrogateescape") if isinstance(message, str) else message
        events = self._start()
        if data:
            events.append(OutputReceived(bytes(data), self._advance(len(data))))
        return events

    def send_input(self, data: bytes) -> list[Message]:
        """One binary frame, only in control mode."""
        if self._mode != "control" or not data:
            return []
        return [bytes(data)]

    def send_resize(self, cols: int, rows: int) -> list[Message]:
        """A raw pipe has no resize message."""
        return []
