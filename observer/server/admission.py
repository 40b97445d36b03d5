"""Who may open a connection, decided on the HTTP request before the WebSocket upgrade.

``GET /sessions?api-version=...`` (no upgrade) asks for the list of sessions: it is checked the
same way, up to the token, and answered with JSON. Refusals are plain HTTP responses with a short
text body, so that any client (curl included)
shows why: ``403`` ``Unauthenticated`` for a missing or unknown token, ``403`` for a watch-only
token asking for control or a browser ``Origin`` that is not allowed, ``400`` for a bad request
(naming what is supported; a duplicate ``Authorization`` or ``Origin`` header too), ``404`` for
an unknown identifier, ``503`` when the server is full.

What a connection carries follows the WebSocket subprotocol the client offers (RFC 6455 section
1.9; :data:`SUBPROTOCOLS`, in the order the server prefers them): ``observer.v1``, asciinema's
live protocols, or, when none is offered (the request as the platform documents it), the raw
terminal stream.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from typing import Final
from urllib.parse import parse_qsl, urlsplit

from observer.auth.token_file import Role
from observer.auth.tokens import Authenticator, Credential
from observer.protocol import frames

UNAUTHENTICATED = "Unauthenticated"
LISTING_PATH = "/sessions"
"""Where an authenticated GET (no upgrade) lists the server's sessions."""

RAW: Final = "raw"
"""The raw terminal stream: what a connection that offers no subprotocol gets too."""
SUBPROTOCOLS: Final = (frames.SUBPROTOCOL, "v1.alis", "v3.asciicast", "v2.asciicast", RAW)
"""What the server speaks, the one it prefers first when a client offers several
(asciinema-player offers the last four: ALiS carries resets and markers in the least bytes)."""
WATCH_ONLY_STREAMS: Final = frozenset({"v1.alis", "v3.asciicast", "v2.asciicast"})
"""Streams that carry nothing from the client: ``mode=control`` is refused."""


@dataclass(frozen=True, slots=True)
class Admission:
    """An accepted request: which session, with which rights, from where in the stream."""

    identifier: str
    role: Role
    want_control: bool
    since: int | None
    credential: Credential | None = None
    """What the token proved (``None`` on a server without authentication)."""
    features: frozenset[str] = frozenset()
    """Optional frames the client understands (``features=``; unknown names are kept, unused)."""
    subprotocol: str | None = frames.SUBPROTOCOL
    """The subprotocol the handshake selects (:func:`choose_subprotocol`); ``None``: the client
    offered none and gets the raw stream."""

    @property
    def stream(self) -> str:
        """What the connection carries: a name of :data:`SUBPROTOCOLS`."""
        return self.subprotocol or RAW


@dataclass(frozen=True, slots=True)
class Listing:
    """An accepted request for the list of sessions (``GET /sessions``, no upgrade)."""

    credential: Credential | None = None
    """What the token proved (a scoped token lists only its sessions)."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refused request: the HTTP status and the body that says why."""

    status: HTTPStatus
    body: str


def _single(headers: Mapping[str, Sequence[str]], name: str) -> str | None:
    values = headers.get(name, ())
    return values[0] if values else None


def _bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return token


SINGLE_HEADERS = ("authorization", "origin")
"""Headers the server reads one value of: sent twice, which one counts is anybody's guess (a
proxy may check the first, the server the last), so the request is refused."""


def admit(
    path: str,
    headers: Mapping[str, Sequence[str]],
    *,
    auth: Authenticator | None,
    allowed_origins: frozenset[str],
) -> Admission | Listing | Refusal:
    """Decide on one upgrade request (or one for the list of sessions).

    Args:
        path: the request target (``/?identifier=...``).
        headers: every value of ``authorization``, ``origin`` and ``sec-websocket-protocol``
            (lower-case keys; a missing header has no values).
        auth: what accepts tokens; ``None`` admits everybody with control (loopback-only option).
        allowed_origins: browser origins allowed to connect (``Origin`` header); empty: none.

    The order of the checks keeps what an unauthenticated caller learns to the minimum: after the
    duplicate-header and ``Origin`` checks, nothing but ``Unauthenticated`` until the token is
    good.
    """
    for name in SINGLE_HEADERS:
        if len(headers.get(name, ())) > 1:
            return Refusal(
                HTTPStatus.BAD_REQUEST, f"Duplicate {name.title()} header — send it once"
            )
    origin = _single(headers, "origin")
    if origin is not None and origin not in allowed_origins:
        return Refusal(
            HTTPStatus.FORBIDDEN, "Origin not allowed — start the server with --allow-origin"
        )
    target = urlsplit(path)
    credential = None
    if auth is not None:
        token = _bearer(_single(headers, "authorization"))
        credential = auth.check(token) if token is not None else None
        if credential is None:
            return Refusal(HTTPStatus.FORBIDDEN, UNAUTHENTICATED)
    role: Role = "control" if credential is None else credential.role
    if target.path not in ("/", LISTING_PATH):
        return Refusal(
            HTTPStatus.NOT_FOUND,
            "Not found — the endpoint is /?identifier=<id>&api-version=..., "
            "the list of sessions /sessions?api-version=...",
        )
    query: dict[str, str] = {}
    for key, value in parse_qsl(target.query, keep_blank_values=True):
        if key in query:
            return Refusal(HTTPStatus.BAD_REQUEST, f"Query parameter {key!r} given twice")
        query[key] = value
    if target.path == LISTING_PATH:
        unsupported = _unsupported_api_version(query)
        return unsupported if unsupported is not None else Listing(credential)
    decision = _check_query(query, role, ",".join(headers.get("sec-websocket-protocol", ())))
    if isinstance(decision, Admission):
        return dataclasses.replace(decision, credential=credential)
    return decision


def _unsupported_api_version(query: dict[str, str]) -> Refusal | None:
    if query.get("api-version") in frames.SUPPORTED_API_VERSIONS:
        return None
    supported = ", ".join(frames.SUPPORTED_API_VERSIONS)
    return Refusal(
        HTTPStatus.BAD_REQUEST, f"Unsupported or missing api-version; supported: {supported}"
    )


def _check_query(query: dict[str, str], role: Role, subprotocols: str) -> Admission | Refusal:
    unsupported = _unsupported_api_version(query)
    if unsupported is not None:
        return unsupported
    identifier = query.get("identifier", "")
    if not frames.IDENTIFIER.fullmatch(identifier):
        return Refusal(
            HTTPStatus.BAD_REQUEST,
            "Bad or missing identifier; use 1-64 letters, digits, '.', '_' or '-'",
        )
    mode = query.get("mode", "watch")
    if mode not in ("watch", "control"):
        return Refusal(HTTPStatus.BAD_REQUEST, "Bad mode; supported: watch, control")
    if mode == "control" and role != "control":
        return Refusal(
            HTTPStatus.FORBIDDEN, "This token allows watching only; connect with mode=watch"
        )
    since: int | None = None
    if "since" in query:
        text = query["since"]
        if not (text.isascii() and text.isdigit()) or len(text) > 19:
            return Refusal(
                HTTPStatus.BAD_REQUEST, "Bad since; it must be a stream offset (0 or more)"
            )
        since = int(text)
    features = frozenset(
        name.strip() for name in query.get(frames.FEATURES_PARAMETER, "").split(",") if name.strip()
    )
    admission = Admission(identifier, role, mode == "control", since, features=features)
    offered = [p.strip() for p in subprotocols.split(",") if p.strip()]
    return _with_stream(admission, offered)


def _with_stream(admission: Admission, offered: list[str]) -> Admission | Refusal:
    """``admission`` with the stream the client offered, or why that stream cannot be had."""
    subprotocol = choose_subprotocol(offered)
    if offered and subprotocol is None:
        return Refusal(
            HTTPStatus.BAD_REQUEST,
            f"Unsupported subprotocol; offer one of {', '.join(SUBPROTOCOLS)}, "
            "or none for the raw terminal stream",
        )
    if subprotocol == frames.SUBPROTOCOL:
        return admission
    stream = subprotocol or RAW
    if stream in WATCH_ONLY_STREAMS and admission.want_control:
        return Refusal(
            HTTPStatus.BAD_REQUEST, f"{stream} streams carry no input; connect with mode=watch"
        )
    if admission.since is not None:
        return Refusal(
            HTTPStatus.BAD_REQUEST,
            f"since= resumes {frames.SUBPROTOCOL} streams only; the {stream} stream "
            "starts from the current screen",
        )
    # Optional frames are observer.v1's: the other streams have none.
    return dataclasses.replace(admission, subprotocol=subprotocol, features=frozenset())


def choose_subprotocol(offered: Sequence[str]) -> str | None:
    """The subprotocol to select among those a client offered (``None``: none of ours)."""
    return next((name for name in SUBPROTOCOLS if name in offered), None)
