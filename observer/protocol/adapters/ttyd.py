"""``ttyd`` (subprotocol ``tty``), as in ttyd 1.7's ``src/protocol.c`` and ``html/src/.../xterm``.

Client → server: the first message must be the JSON init ``{"AuthToken", "columns", "rows"}`` (it
sets the size of the process ttyd spawns for this connection; allowed in watch mode). Then one
command byte plus payload: ``0`` input, ``1`` resize JSON ``{"columns","rows"}``, ``2`` pause,
``3`` resume. Server → client: ``0`` output, ``1`` window title, ``2`` preferences JSON.

ttyd honours resize even from a read-only client, so in watch mode this session sends neither
``0`` nor ``1`` — nothing at all after the init.
"""

from __future__ import annotations

import json

from observer.protocol.adapter import Message
from observer.protocol.adapters._local import LocalControlSession, sanitize_title
from observer.protocol.events import (
    Capabilities,
    Event,
    Mode,
    OutputReceived,
    ProtocolViolation,
    TitleChanged,
)

OUTPUT, SET_WINDOW_TITLE, SET_PREFERENCES = ord("0"), ord("1"), ord("2")


class TtydClientSession(LocalControlSession):
    """Client side of a ttyd WebSocket.

    Args:
        auth_token: ttyd's ``AuthToken``: base64 of ``user:password`` when ttyd runs with ``-c``,
            else empty. Kept out of ``repr``.
    """

    subprotocol: str | None = "tty"
    capabilities = Capabilities(snapshot=False, resume=False, control=False, resize=True)

    def __init__(
        self,
        *,
        mode: Mode = "watch",
        cols: int = 80,
        rows: int = 24,
        identifier: str = "",
        auth_token: str = "",
    ) -> None:
        super().__init__(mode=mode, cols=cols, rows=rows, identifier=identifier)
        self.__auth_token = auth_token

    def __repr__(self) -> str:
        return f"TtydClientSession(mode={self._mode!r}, cols={self.cols}, rows={self.rows})"

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
            title = sanitize_title(payload.decode("utf-8", "replace"))
            return [*self._start(title), TitleChanged(title)]
        events = self._start()
        if command == OUTPUT:
            if payload:
                events.append(OutputReceived(payload, self._advance(len(payload))))
        elif command != SET_PREFERENCES:  # preferences style ttyd's web page; nothing for us
            events.append(ProtocolViolation(f"ttyd sent an unknown command byte {command:#04x}"))
        return events

    def send_input(self, data: bytes) -> list[Message]:
        """``0`` + input, only in control mode."""
        if self._mode != "control" or not data:
            return []
        return [b"0" + bytes(data)]

    def send_resize(self, cols: int, rows: int) -> list[Message]:
        """``1`` + ``{"columns","rows"}``, only in control mode (ttyd does not gate resize)."""
        if self._mode != "control":
            return []
        self.cols, self.rows = cols, rows
        return [b"1" + json.dumps({"columns": cols, "rows": rows}, separators=(",", ":")).encode()]
