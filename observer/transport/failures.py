"""Why a connection failed, in words that say what to do, and whether retrying can help.

Refusals (HTTP 400/401/403/404, a TLS certificate that does not verify, a policy close) are never
retried: the same request would be refused again, and retrying a rejected token only looks like an
attack. Network trouble (refused, unreachable, DNS, timeouts, 5xx) is retried with backoff once a
connection has worked.
"""

from __future__ import annotations

import socket
import ssl

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import InvalidHandshake, InvalidMessage, InvalidStatus, InvalidURI

from observer.credentials.store import token_advice
from observer.errors import ConnectionFailed
from observer.protocol.endpoints import Endpoint
from observer.terminal.sanitize import sanitize

#: RFC 6455 §7.4.1 close codes that mean "this request will never work": protocol error (1002),
#: unacceptable data (1003), bad payload (1007), policy violation (1008: ttyd's wrong credential),
#: message too big (1009), missing extension (1010).
FATAL_CLOSE_CODES = {1002, 1003, 1007, 1008, 1009, 1010}


def _one_line(text: str, limit: int) -> str:
    """The far side's words as one safe line: runs of white space become one space, then the
    one sanitizer shows what is left of controls, bidi and invisible characters."""
    return sanitize(" ".join(text[: limit * 4].split()))[:limit]


def _body(error: InvalidStatus) -> str:
    text = error.response.body.decode("utf-8", "replace") if error.response.body else ""
    text = _one_line(text, 300)
    return "" if text.startswith("<") else text  # an HTML page says nothing useful in one line


def describe_failure(
    error: Exception,
    endpoint: Endpoint,
    identifier: str,
    has_token: bool,
    profile: str | None = None,
) -> ConnectionFailed:
    """Map an exception from a connection attempt to a clear :class:`ConnectionFailed`.

    ``profile`` names the config profile the target came from: its fixes are in the config
    file, not on the command line.
    """
    origin = endpoint.origin
    login = token_advice(origin)
    if isinstance(error, ConnectionFailed):
        return error
    if isinstance(error, InvalidStatus):
        status, body = error.response.status_code, _body(error)
        if status in (401, 403):
            if not has_token:
                return ConnectionFailed(
                    f"{origin} requires a token", login, retryable=False, status=status
                )
            if body and body != "Unauthenticated":
                return ConnectionFailed(
                    f"the endpoint refused: {body} (HTTP {status})",
                    token_advice(origin, "a token that allows it"),
                    retryable=False,
                    status=status,
                )
            return ConnectionFailed(
                f"the endpoint rejected the token for {origin}",
                login,
                retryable=False,
                status=status,
            )
        if status == 400:
            return ConnectionFailed(
                f"the endpoint refused the request: {body or 'bad request'} (HTTP 400)",
                "check the URL, --identifier and --api-version",
                retryable=False,
                status=status,
            )
        if status == 404:
            return ConnectionFailed(
                f"{origin} has no session {identifier!r} (HTTP 404)",
                _no_session_advice(endpoint, profile),
                retryable=False,
                status=status,
            )
        if status >= 500 or status == 429:
            return ConnectionFailed(
                f"{origin} is unavailable (HTTP {status}{': ' + body if body else ''})",
                "retrying",
                retryable=True,
                status=status,
            )
        return ConnectionFailed(
            f"{origin} refused the WebSocket upgrade (HTTP {status}{': ' + body if body else ''})",
            "is this a WebSocket endpoint? check the URL and --protocol",
            retryable=False,
            status=status,
        )
    if isinstance(error, ssl.SSLCertVerificationError):
        return ConnectionFailed(
            f"the TLS certificate of {origin} did not verify ({error.verify_message})",
            "the token was not sent; check the host name or install the CA certificate",
            retryable=False,
        )
    if endpoint.secure and _not_tls(error):
        return ConnectionFailed(
            f"the TLS handshake with {origin} failed: the server does not speak TLS on this port",
            f"use {_plain(endpoint)} if it serves plain WebSocket",
            retryable=False,
        )
    if isinstance(error, ssl.SSLError):
        return ConnectionFailed(
            f"TLS with {origin} failed ({error.reason or error})",
            "does the endpoint speak TLS on this port?",
            retryable=False,
        )
    if isinstance(error, socket.gaierror):
        return ConnectionFailed(
            f"cannot resolve {endpoint.host} (DNS)",
            "check the host name and your network",
            retryable=True,
        )
    if isinstance(error, ConnectionRefusedError):
        return ConnectionFailed(
            f"{origin} refused the connection",
            f"is the server running on port {endpoint.port}?",
            retryable=True,
        )
    if isinstance(error, TimeoutError):
        return ConnectionFailed(
            f"{origin} did not answer in time",
            "check the network, a proxy or a firewall",
            retryable=True,
        )
    if isinstance(error, OSError):
        reason = error.strerror or type(error).__name__
        return ConnectionFailed(
            f"cannot reach {origin}: {reason}", "check the network", retryable=True
        )
    if isinstance(error, InvalidMessage):
        return ConnectionFailed(
            f"{origin} closed the connection during the upgrade",
            "is it a WebSocket endpoint, and is the token right? (ttyd closes without an answer when it is not)",
            retryable=isinstance(error.__cause__, EOFError),
        )
    if isinstance(error, InvalidURI):
        return ConnectionFailed(
            f"not a WebSocket URL: {error.uri}", "use ws:// or wss://", retryable=False
        )
    if isinstance(error, InvalidHandshake):
        return ConnectionFailed(
            f"the WebSocket upgrade with {origin} failed ({error})",
            "check --protocol",
            retryable=False,
        )
    return ConnectionFailed(
        f"connection to {origin} failed: {type(error).__name__}", retryable=False
    )


def _not_tls(error: Exception) -> bool:
    """The far side answered our TLS hello as something else: a plain HTTP answer
    (``WRONG_VERSION_NUMBER``: its first bytes are no TLS record), or a close in the middle of
    the handshake (asyncio's ``ConnectionResetError`` without an errno; a reset by the network
    carries ``ECONNRESET``)."""
    if isinstance(error, ssl.SSLError) and not isinstance(error, ssl.SSLCertVerificationError):
        return error.reason in ("WRONG_VERSION_NUMBER", "HTTP_REQUEST") or isinstance(
            error, ssl.SSLEOFError
        )
    return isinstance(error, ConnectionResetError) and error.errno is None


def _plain(endpoint: Endpoint) -> str:
    """The same endpoint without TLS, as a URL to try."""
    host = f"[{endpoint.host}]" if ":" in endpoint.host else endpoint.host
    query = f"?{endpoint.query}" if endpoint.query else ""
    return f"ws://{host}:{endpoint.port}{endpoint.path or '/'}{query}"


def _no_session_advice(endpoint: Endpoint, profile: str | None) -> str:
    listing = f"`observer sessions {endpoint.origin}{endpoint.path}` lists them"
    if profile is None:
        return f"check --identifier and the URL path; {listing}"
    return f"fix the identifier of profile {profile!r} (`observer config` shows it); {listing}"


def close_failure(websocket: ClientConnection, endpoint: Endpoint) -> ConnectionFailed | None:
    """A fatal close (see :data:`FATAL_CLOSE_CODES`) as an error, else None."""
    code = websocket.close_code
    if code not in FATAL_CLOSE_CODES:
        return None
    reason = _one_line(websocket.close_reason or "", 200)
    hint = (
        f"check the token: {token_advice(endpoint.origin)}" if code == 1008 else "check --protocol"
    )
    return ConnectionFailed(
        f"{endpoint.origin} closed the connection (code {code}{': ' + reason if reason else ''})",
        hint,
        retryable=False,
    )
