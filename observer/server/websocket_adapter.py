"""What the server needs from websockets beyond its documented calls, in one place.

Everything here leans on websockets' internals (its sans-I/O protocol object, the asyncio
transport under a connection, the handshake's hooks) and is tested against each supported
version (``tests/unit/server/test_websocket_adapter.py``); the rest of the server uses only
these functions.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import struct
from collections.abc import Callable
from http import HTTPStatus

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.exceptions import SecurityError
from websockets.http11 import Response
from websockets.protocol import State

log = logging.getLogger("observer.server")

Message = str | bytes
UNSENT_LIMIT = 128 * 1024
"""Bytes the kernel may hold for a client before sending them (``TCP_NOTSENT_LOWAT``)."""


def wire_frame(message: Message) -> bytes:
    """The WebSocket frame a server sends for ``message``, built once for every client.

    RFC 6455 section 5.2: FIN set, opcode 1 (text, UTF-8) or 2 (binary), no mask from a server,
    the payload length in 7 bits, or 126 + 16 bits, or 127 + 64 bits. Only for connections
    without extensions (:attr:`FrameSocket.direct`): compression changes the payload.
    """
    if isinstance(message, str):
        payload, opcode = message.encode(), 0x81
    else:
        payload, opcode = message, 0x82
    length = len(payload)
    if length < 126:
        head = struct.pack("!BB", opcode, length)
    elif length < 65536:
        head = struct.pack("!BBH", opcode, 126, length)
    else:
        head = struct.pack("!BBQ", opcode, 127, length)
    return head + payload


class FrameSocket:
    """A websockets server connection that prebuilt frames are written to directly.

    ``send()`` serializes each message again for each client; with a hundred watchers the server
    writes one frame (:func:`wire_frame`) to every socket instead. That takes websockets'
    internals: its sans-I/O protocol's state and extensions, the connection's flow-control flag
    (``paused``) and ``drain()``, and the asyncio transport under it. This class is the only
    place that touches them.
    """

    def __init__(self, connection: ServerConnection) -> None:
        self.connection = connection
        self.direct = not connection.protocol.extensions
        """Frames can be written as they are (no compression negotiated)."""

    def takes_writes(self) -> bool:
        """Open, not paused by flow control, and its transport not closing: a write goes out."""
        connection = self.connection
        return not connection.paused and self.open()

    def open(self) -> bool:
        """The connection is open and its transport is not closing."""
        connection = self.connection
        return connection.protocol.state is State.OPEN and not connection.transport.is_closing()

    @property
    def paused(self) -> bool:
        """websockets paused writing: its transport's buffer is over the high-water mark."""
        return bool(self.connection.paused)

    def write(self, frame: bytes) -> None:
        """Write a frame built by :func:`wire_frame` (only when :attr:`direct`)."""
        self.connection.transport.write(frame)

    def unsent(self) -> int:
        """Bytes the transport holds for the client (not yet taken by the kernel)."""
        return int(self.connection.transport.get_write_buffer_size())

    async def drain(self) -> None:
        """Wait until the transport takes writes again (or the connection is lost)."""
        await self.connection.drain()

    async def send(self, message: Message) -> None:
        """websockets' own ``send()`` (a compressed connection; raises ``ConnectionClosed``)."""
        await self.connection.send(message)

    def limit_unsent(self, limit: int = UNSENT_LIMIT) -> None:
        """Keep at most ``limit`` unsent bytes for this connection in the kernel.

        By default Linux lets a socket's send buffer grow to 4 MiB (``net.ipv4.tcp_wmem``): a
        client on a slow link would lag that far behind, unseen by the server's bound, and then
        read seconds of stale output. With ``TCP_NOTSENT_LOWAT`` (tcp(7)) writes stop being
        taken once ``limit`` bytes wait to be sent, so the rest waits where the bound counts it
        (the transport's buffer, then the client's queue). Bytes in flight are not limited: a
        fast link is not slowed.
        """
        sock = self.connection.transport.get_extra_info("socket")
        option = getattr(socket, "TCP_NOTSENT_LOWAT", None)
        if sock is None or option is None:  # pragma: no cover - not Linux, or not TCP
            return
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, option, limit)


def printable(text: str, limit: int = 160) -> str:
    """``text`` as one short line for a log: controls escaped, cut at ``limit`` characters.

    Refusal bodies may quote what a client sent (websockets names a bad header's value), and a
    log line must not carry a client's line breaks or escape sequences.
    """
    line = text.strip().splitlines()[0] if text.strip() else ""
    escaped = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in line[:limit])
    return escaped + ("…" if len(line) > limit else "")


def peer(connection: ServerConnection) -> str:
    """The client's address as ``host:port`` (``?`` once the socket is gone)."""
    address = connection.remote_address
    if not address:
        return "?"
    host, port = address[0], address[1]
    return f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"


def log_refusal(connection: ServerConnection, status: int, body: str) -> None:
    """One log line for a refused request (every 4xx and 5xx answer the server gives)."""
    phrase = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else ""
    log.info("refused %d %s from %s: %s", status, phrase, peer(connection), printable(body))


def plain_response(
    connection: ServerConnection, status: HTTPStatus, body: str, content_type: str | None = None
) -> Response:
    """An HTTP response that ends the connection (a refusal, or an answer without upgrade).

    Never cached by proxies (``Cache-Control: no-store``), saying nothing about the server
    software. ``content_type`` replaces websockets' ``text/plain``.
    """
    response = connection.respond(status, body)
    items = [
        (name, value)
        for name, value in response.headers.raw_items()
        if content_type is None or name.lower() != "content-type"
    ]
    if content_type is not None:
        items.append(("Content-Type", content_type))
    response.headers = Headers([*items, ("Cache-Control", "no-store")])
    return response


_TOO_LARGE = {
    "RequestLineTooLong": HTTPStatus.REQUEST_URI_TOO_LONG,
    "HeaderLineTooLong": HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
    "TooManyHeaders": HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
}
"""The status websockets answers each request it finds too large with (by exception name:
the classes appeared in websockets 14)."""


def logging_connection(
    on_refused: Callable[[ServerConnection, HTTPStatus, str], None],
) -> type[ServerConnection]:
    """A connection class (``serve(create_connection=...)``) that reports the requests
    websockets refuses itself, before any hook sees them: a request line or headers too long
    (414, 431). ``on_refused`` gets the connection, the status and the reason.
    """

    class LoggingConnection(ServerConnection):
        async def handshake(self, *args: object, **kwargs: object) -> None:
            await super().handshake(*args, **kwargs)  # type: ignore[arg-type]
            error = self.protocol.handshake_exc
            if self.request is None and isinstance(error, SecurityError):
                status = _TOO_LARGE.get(type(error).__name__, HTTPStatus.BAD_REQUEST)
                on_refused(self, status, str(error))

    return LoggingConnection
