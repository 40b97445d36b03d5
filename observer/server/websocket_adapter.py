"""What the server needs from websockets beyond its documented calls, in one place.

Everything here leans on websockets' internals (its sans-I/O protocol object, the asyncio
transport under a connection, the handshake's hooks, its reading flow control) and is tested
against each supported version (``tests/unit/server/test_websocket_adapter.py``); the rest of
the server uses only these functions.

websockets answers a client's pings itself, below any handler: pings are no messages, and each
pong is written to the transport whether or not the client reads. A client flooding pings
without reading would make the server read as fast as it sends and buffer every pong. So the
server's connection class (:func:`guarded_connection`) counts control frames against the
connection's :class:`Budget`, stops reading a client whose unsent bytes pass
:data:`UNSENT_BOUND` and closes it after :data:`UNSENT_GRACE` seconds (1008), and closes a
client whose receive window stays shut longer than the keepalive allows (websockets' own
keepalive waits, unbounded, to write its ping into that full transport).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import struct
from collections.abc import Callable
from http import HTTPStatus
from typing import Any, Protocol

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.exceptions import SecurityError
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State

log = logging.getLogger("observer.server")

Message = str | bytes
UNSENT_LIMIT = 128 * 1024
"""Bytes the kernel may hold for a client before sending them (``TCP_NOTSENT_LOWAT``)."""
UNSENT_BOUND = 1024 * 1024
"""Bytes the transport may hold for a client when it sends something: beyond, it is not read.
(Output alone never gets there: a client's queue drops its backlog past its own limit, and
output is written only while websockets' high-water mark is not reached.)"""
UNSENT_GRACE = 5.0
"""Seconds a client over :data:`UNSENT_BOUND` has to read before it is closed."""
WINDOW_SHUT = 40.0
"""Seconds a client may take nothing at all (websockets' keepalive: 20 s interval + 20 s
timeout) before it is closed as the keepalive would."""
NOT_READING = 1008
"""Close code for a client over the bound (policy violation, RFC 6455 section 7.4.1)."""
SILENT = 1011
"""Close code for a shut receive window: the one websockets' keepalive uses."""
CONTROL_OPCODES = (Opcode.PING, Opcode.PONG)


class Budget(Protocol):
    """What paces a connection's reading (:class:`observer.server.limits.ReadBudget`)."""

    def spend(self) -> float:
        """Count one frame; the seconds to wait before reading more (0.0: at once)."""
        ...


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


class _ReadingGate:
    """Reads from a transport while nobody has a reason to stop: websockets' message queue
    (full), the budget (spent), the unsent bound (passed). One reason resuming must not undo
    another's pause."""

    def __init__(self, transport: asyncio.Transport) -> None:
        self._transport = transport
        self.reasons: set[str] = set()

    def close(self, reason: str) -> None:
        if not self.reasons:
            self._transport.pause_reading()
        self.reasons.add(reason)

    def open(self, reason: str) -> None:
        if reason in self.reasons:
            self.reasons.discard(reason)
            if not self.reasons and not self._transport.is_closing():
                self._transport.resume_reading()


def set_budget(connection: ServerConnection, budget: Budget) -> None:
    """Count ``connection``'s control frames against ``budget`` (messages spend it as well)."""
    if isinstance(connection, GuardedConnection):
        connection.budget = budget


class GuardedConnection(ServerConnection):
    """websockets' server connection, guarded as the module says; reports the requests
    websockets refuses itself (``on_refused``, set by :func:`guarded_connection`)."""

    on_refused: Callable[[ServerConnection, HTTPStatus, str], None] | None = None
    budget: Budget | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._gate: _ReadingGate | None = None
        self._deadline: asyncio.TimerHandle | None = None
        self._shut: asyncio.TimerHandle | None = None

    async def handshake(self, *args: Any, **kwargs: Any) -> None:
        await super().handshake(*args, **kwargs)
        error = self.protocol.handshake_exc
        if self.request is None and isinstance(error, SecurityError) and self.on_refused:
            status = _TOO_LARGE.get(type(error).__name__, HTTPStatus.BAD_REQUEST)
            self.on_refused(self, status, str(error))

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        gate = self._gate = _ReadingGate(self.transport)
        # websockets pauses reading when its message queue fills: through the gate, so that
        # its resuming does not undo the budget's pause, nor the budget's its own.
        self.recv_messages.pause = lambda: gate.close("queue")
        self.recv_messages.resume = lambda: gate.open("queue")

    def process_event(self, event: Any) -> None:
        super().process_event(event)
        if isinstance(event, Frame) and event.opcode in CONTROL_OPCODES and self.budget:
            pause = self.budget.spend()
            if pause > 0 and self._gate is not None and "budget" not in self._gate.reasons:
                self._gate.close("budget")
                self.loop.call_later(pause, self._gate.open, "budget")

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        gate = self._gate
        if gate is None or "unsent" in gate.reasons or self.transport.is_closing():
            return
        unsent = self.transport.get_write_buffer_size()
        if unsent > UNSENT_BOUND:
            gate.close("unsent")
            log.info(
                "not reading %s: %d bytes unsent; closing in %.0f s unless it reads",
                peer(self),
                unsent,
                UNSENT_GRACE,
            )
            self._deadline = self.loop.call_later(
                UNSENT_GRACE, self._give_up, NOT_READING, "client not reading"
            )

    def pause_writing(self) -> None:
        super().pause_writing()
        self._shut = self.loop.call_later(
            WINDOW_SHUT, self._give_up, SILENT, "keepalive ping timeout"
        )

    def resume_writing(self) -> None:
        super().resume_writing()
        for timer in (self._shut, self._deadline):
            if timer is not None:
                timer.cancel()
        self._shut = self._deadline = None
        if self._gate is not None:
            self._gate.open("unsent")

    def connection_lost(self, exc: Exception | None) -> None:
        for timer in (self._shut, self._deadline):
            if timer is not None:
                timer.cancel()
        super().connection_lost(exc)

    def _give_up(self, code: int, reason: str) -> None:
        """Close now: the close frame goes after what the client did not read, and the
        transport is cut after websockets' close timeout, read or not."""
        if self.transport.is_closing():
            return
        log.info("closing %s: %s (%d)", peer(self), reason, code)
        if self.protocol.state is State.OPEN:
            self.protocol.fail(code, reason)
            self.send_data()
        self.loop.call_later(self.close_timeout or 0.0, self.transport.abort)


def guarded_connection(
    on_refused: Callable[[ServerConnection, HTTPStatus, str], None],
) -> type[ServerConnection]:
    """The server's connection class (``serve(create_connection=...)``), see
    :class:`GuardedConnection`. ``on_refused`` gets the connection, the status and the reason
    of each request websockets refuses itself: a request line or headers too long (414, 431).
    """
    return type("ServerConnection", (GuardedConnection,), {"on_refused": staticmethod(on_refused)})
