"""What the server needs from websockets beyond its documented calls, in one place.

Everything here leans on websockets' internals (its sans-I/O protocol object, the asyncio
transport under a connection, the handshake's hooks) and is tested against each supported
version (``tests/unit/server/test_websocket_adapter.py``); the rest of the server uses only
these functions.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from http import HTTPStatus

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.exceptions import SecurityError
from websockets.http11 import Response

log = logging.getLogger("observer.server")


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
