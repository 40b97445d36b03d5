"""``jupyter``: Jupyter Server terminals (terminado's JSON arrays on ``/terminals/websocket/<name>``).

Server → client: ``["setup", {}]``, ``["stdout", text]``, ``["disconnect", code]``. Client →
server: ``["stdin", text]``, ``["set_size", rows, cols]``. A new client first receives the
terminal's recent output buffer: context, not a guaranteed full screen (``complete`` is False).
"""

from __future__ import annotations

import codecs
import json

from observer.protocol.adapter import Message
from observer.protocol.adapters._local import LocalControlBase
from observer.protocol.events import (
    Capabilities,
    Event,
    Exited,
    OutputReceived,
    ProtocolViolation,
)


class JupyterAdapter(LocalControlBase):
    """Client side of a Jupyter Server terminal WebSocket."""

    subprotocol: str | None = None
    capabilities = Capabilities(
        arbitration="none",
        snapshot=False,
        resume=False,
        resize=True,
        exit="frame",
        reconnect="rejoin",
        watchers=False,
        identifier=True,
    )

    def __init__(self, *, cols: int = 80, rows: int = 24, identifier: str = "") -> None:
        super().__init__(cols=cols, rows=rows, identifier=identifier)
        # Keystrokes arrive as bytes and may split a UTF-8 sequence; JSON carries text.
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def receive(self, message: Message) -> list[Event]:
        """Decode one terminado JSON array."""
        text = message.decode("utf-8", "replace") if isinstance(message, bytes) else message
        events = self._start()
        try:
            frame = json.loads(text)
        except ValueError:
            return [
                *events,
                ProtocolViolation("the Jupyter terminal sent a frame that is not JSON"),
            ]
        if not isinstance(frame, list) or not frame or not isinstance(frame[0], str):
            return [
                *events,
                ProtocolViolation("the Jupyter terminal sent a frame that is not [type, ...]"),
            ]
        kind = frame[0]
        if kind == "stdout":
            if len(frame) < 2 or not isinstance(frame[1], str):
                return [*events, ProtocolViolation("a Jupyter stdout frame carried no text")]
            data = frame[1].encode("utf-8", "surrogatepass")
            if data:
                events.append(OutputReceived(data, self._advance(len(data))))
        elif kind == "disconnect":
            # The code is terminado's reason, not the process's exit status.
            events.append(Exited(None))
        # "setup" only greets; unknown kinds are ignored for forward compatibility.
        return events

    def encode_input(self, data: bytes) -> list[Message]:
        """``["stdin", text]``."""
        text = self._decoder.decode(bytes(data))
        return [json.dumps(["stdin", text])] if text else []

    def encode_resize(self, cols: int, rows: int) -> list[Message]:
        """``["set_size", rows, cols]``."""
        self.cols, self.rows = cols, rows
        return [json.dumps(["set_size", rows, cols])]
