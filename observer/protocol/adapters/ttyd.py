"""``ttyd`` (subprotocol ``tty``), as in ttyd 1.7's ``src/protocol.c`` and ``html/src/.../xterm``.

Client → server: the first message must be the JSON init ``{"AuthToken", "columns", "rows"}`` (it
sets the size of the process ttyd spawns for this connection; allowed in watch mode). Then one
command byte plus payload: ``0`` input, ``1`` resize JSON ``{"columns","rows"}``, ``2`` pause,
``3`` resume. Server → client: ``0`` output, ``1`` window title, ``2`` preferences JSON.

ttyd honours resize even from a read-only client: the client session core's mode table sends
neither ``0`` nor ``1`` in watch mode — nothing at all after the init. Each connection is a new
process (SIGHUP on disconnect), and when that process ends ttyd closes the socket without a close
frame: ``capabilities`` say so, and the core treats that close as the program's exit.
"""

from __future__ import annotations

import json

from observer.protocol.adapter import Message
from observer.protocol.adapters._local import LocalControlBase
from observer.protocol.events import (
    Capabilities,
    Event,
    OutputReceived,
    ProtocolViolation,
    TitleChanged,
)
from observer.terminal.sanitize import sanitize_title

OUTPUT, SET_WINDOW_TITLE, SET_PREFERENCES = ord("0"), ord("1"), ord("2")


class TtydAdapter(LocalControlBase):
    """Client side of a ttyd WebSocket.

    Args:
        auth_token: ttyd's ``AuthToken``: base64 of ``user:password`` when ttyd runs with ``-c``,
            else empty. Kept out of ``repr``.
    """

    subprotocol: str | None = "tty"
    capabilities = Capabilities(
        arbitration="none",
        snapshot=False,
        resume=False,
        resize=True,
        exit="close",
        reconnect="new program",
        watchers=False,
        identifier=False,
    )

    def __init__(
        self,
        *,
        cols: int = 80,
        rows: int = 24,
        identifier: str = "",
        auth_token: str = "",
    ) -> None:
        super().__init__(cols=cols, rows=rows, identifier=identifier)
        self.__auth_token = auth_token

    def __repr__(self) -> str:
        return f"TtydAdapter(cols={self.cols}, rows={self.rows})"

    def opening_messages(self) -> list[Message]:
        """The JSON init ttyd requires before anything else."""
        init = {"AuthToken": self.__auth_token, "columns": self.cols, "rows": self.rows}
        return [json.dumps(init, separators=(",", ":"))]

    def receive(self, message: Message) -> list[Event]:
        """Decode one server frame by its command byte."""
        data = message.encode("utf-8", "surrogateescape") if isinstance(message, str) else message
        if not data:
            return [*self._start(), ProtocolViolation("ttyd sent an empty frame")]
        command, payload = data[0], bytes(data[1:])
        if command == SET_WINDOW_TITLE:
            title = payload.decode("utf-8", "replace")
            events = self._start(title)
            return [*events, TitleChanged(sanitize_title(title))]
        events = self._start()
        if command == OUTPUT:
            if payload:
                events.append(OutputReceived(payload, self._advance(len(payload))))
        elif command != SET_PREFERENCES:  # preferences style ttyd's web page; nothing for us
            events.append(ProtocolViolation(f"ttyd sent an unknown command byte {command:#04x}"))
        return events

    def encode_input(self, data: bytes) -> list[Message]:
        """``0`` + input."""
        return [b"0" + bytes(data)] if data else []

    def encode_resize(self, cols: int, rows: int) -> list[Message]:
        """``1`` + ``{"columns","rows"}`` (ttyd does not gate resize: never sent in watch mode)."""
        self.cols, self.rows = cols, rows
        return [b"1" + json.dumps({"columns": cols, "rows": rows}, separators=(",", ":")).encode()]
