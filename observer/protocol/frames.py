"""Frames of the native protocol ``observer.v1``, with their wire encoding.

Text frames are JSON objects with a ``"type"`` field (UTF-8 WebSocket text frames, RFC 6455 §5.6);
binary frames carry terminal bytes: PTY output from server to client, keyboard input from client to
server. Decoding never raises: a malformed message becomes a :class:`Malformed` value carrying the
reason, which the session turns into a protocol-violation event (client) or an ``error`` frame
(server). Unknown fields are ignored so that later versions can add fields; an unknown ``type`` is
malformed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Final, Literal

from observer.protocol.fields import BadFrame, boolean, choice, integer, json_object, string
from observer.protocol.people_frames import (
    Ask,
    Decline,
    Hand,
    People,
    decode_people,
    decode_target,
    people_fields,
)
from observer.protocol.screen_frames import (
    Screen,
    SetView,
    decode_screen,
    decode_set_view,
    screen_fields,
    set_view_fields,
)
from observer.terminal.size import MAX_SIZE

SUBPROTOCOL: Final = "observer.v1"
"""WebSocket subprotocol (``Sec-WebSocket-Protocol``) the client offers and the server selects."""
PROTOCOL_VERSION: Final = 1
API_VERSION: Final = "2024-02-02-preview"
"""The only ``api-version`` query value the endpoint accepts."""
SUPPORTED_API_VERSIONS: Final = (API_VERSION,)

IDENTIFIER: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
"""A session identifier: 1-64 letters, digits, '.', '_', '-'; not starting with punctuation."""
MAX_DIMENSION: Final = MAX_SIZE
RESYNC_INTERVAL: Final = 1.0
"""Seconds: the server sends a client at most one snapshot per interval for its ``resync``
requests and for falling behind (docs/protocol.md, "Client to server"): asked sooner, it holds the
snapshot back, and sends nothing else meanwhile."""
"""Largest ``cols`` or ``rows`` anybody may ask for; a terminal wider than this is a mistake."""
FEATURES_PARAMETER: Final = "features"
"""Query parameter naming the optional frames a client understands, comma-separated; a server
sends them only when asked (older clients take an unknown ``type`` for a malformed frame) and
ignores names it does not know."""
ECHO_FEATURE: Final = "echo"
"""Send ``echo`` frames (:class:`Echo`)."""


Holder = Literal["you", "other", "none"]
Mode = Literal["watch", "control"]

# Error codes of ``error`` frames: short machine words; ``message`` is for people.
NOT_HOLDER: Final = "not_holder"
"""Input or resize from a client that does not hold control: dropped."""
CONTROL_HELD: Final = "control_held"
"""``take`` refused: another client holds control."""
WATCH_ONLY: Final = "watch_only"
"""``take`` refused: the client's token allows watching only."""
BAD_FRAME: Final = "bad_frame"
"""The message could not be decoded; it was ignored."""
EXITED: Final = "exited"
"""Input or resize after the session's process ended: dropped."""
INPUT_FULL: Final = "input_full"
"""Input dropped: the program has not read the earlier input (256 KiB wait for it)."""
DECLINED: Final = "declined"
"""``ask`` answered no: the holder declined, did not answer in time, or cannot be asked."""
HANDOVER_REFUSED: Final = "handover_refused"
"""``hand`` or ``decline`` refused: the sender does not hold the keyboard, or nobody of that
number may take it (or asks for it)."""

_HOLDERS: Final = frozenset({"you", "other", "none"})
_MODES: Final = frozenset({"watch", "control"})


# --- server to client -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """Always the first frame. ``offset`` is the stream offset of the live output at that moment."""

    identifier: str
    mode: Mode
    cols: int
    rows: int
    offset: int
    holder: Holder
    watchers: int
    title: str
    protocol: int = PROTOCOL_VERSION
    control: bool | None = None
    """Whether this connection's token may take control (None: the server does not say, as
    servers before this field; a client then learns it from a ``watch_only`` refusal)."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Replace the screen with ``data``, an ANSI repaint for a fresh ``cols`` x ``rows`` terminal.

    Output that follows continues from stream offset ``offset``.
    """

    offset: int
    cols: int
    rows: int
    data: str


@dataclass(frozen=True, slots=True)
class Output:
    """PTY output (a binary frame); the stream offset advances by ``len(data)``."""

    data: bytes


@dataclass(frozen=True, slots=True)
class Resize:
    """Server to client: the PTY now has this size. Client to server: please resize (holder only)."""

    cols: int
    rows: int


@dataclass(frozen=True, slots=True)
class Control:
    """Who holds the keyboard, from the receiving client's point of view."""

    holder: Holder


@dataclass(frozen=True, slots=True)
class Presence:
    """How many clients are connected to the session (this one included)."""

    watchers: int


@dataclass(frozen=True, slots=True)
class Exit:
    """The session's process ended; ``status`` is its exit status (negative: killed by that signal)."""

    status: int | None


@dataclass(frozen=True, slots=True)
class Echo:
    """Whether the terminal shows what is typed: ``on`` is False while it hides it (a password
    prompt: canonical mode with ECHO off). Only to clients that asked (``features=echo``)."""

    on: bool


@dataclass(frozen=True, slots=True)
class Error:
    """Something the client sent was refused or dropped."""

    code: str
    message: str


# --- client to server -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Input:
    """Keyboard input (a binary frame); the server writes it to the PTY only from the holder."""

    data: bytes


@dataclass(frozen=True, slots=True)
class Take:
    """Ask for control of the keyboard."""


@dataclass(frozen=True, slots=True)
class Release:
    """Hand control back."""


@dataclass(frozen=True, slots=True)
class Resync:
    """Ask for a fresh snapshot (the client fell behind and skips the backlog)."""


@dataclass(frozen=True, slots=True)
class Malformed:
    """A message that could not be decoded, and why. Never sent; only returned by ``decode_*``."""

    reason: str


ServerFrame = (
    Hello | Snapshot | Output | Resize | Control | Presence | Exit | Echo | Screen | People | Error
)
ClientFrame = Input | Take | Release | Resize | Resync | SetView | Ask | Hand | Decline
Frame = ServerFrame | ClientFrame


def encode(frame: Frame) -> str | bytes:
    """Return the WebSocket message for ``frame``: ``bytes`` for a binary frame, ``str`` for text."""
    if isinstance(frame, Output | Input):
        return frame.data
    fields: dict[str, Any]
    match frame:
        case Hello():
            fields = {
                "protocol": frame.protocol,
                "identifier": frame.identifier,
                "mode": frame.mode,
                "cols": frame.cols,
                "rows": frame.rows,
                "offset": frame.offset,
                "holder": frame.holder,
                "watchers": frame.watchers,
                "title": frame.title,
            }
            if frame.control is not None:
                fields["control"] = frame.control
        case Snapshot():
            fields = {"offset": frame.offset, "cols": frame.cols, "rows": frame.rows}
            fields["data"] = frame.data
        case Resize():
            fields = {"cols": frame.cols, "rows": frame.rows}
        case Control():
            fields = {"holder": frame.holder}
        case Presence():
            fields = {"watchers": frame.watchers}
        case Exit():
            fields = {"status": frame.status}
        case Echo():
            fields = {"on": frame.on}
        case Screen():
            fields = screen_fields(frame)
        case SetView():
            fields = set_view_fields(frame)
        case People() | Ask() | Hand() | Decline():
            fields = people_fields(frame)
        case Error():
            fields = {"code": frame.code, "message": frame.message}
        case Take() | Release() | Resync():
            fields = {}
    return json.dumps({"type": _TYPE_NAMES[type(frame)], **fields}, separators=(",", ":"))


_TYPE_NAMES: Final[dict[type, str]] = {
    Hello: "hello",
    Snapshot: "snapshot",
    Resize: "resize",
    Control: "control",
    Presence: "presence",
    Exit: "exit",
    Echo: "echo",
    Screen: "screen",
    Error: "error",
    SetView: "view",
    Take: "take",
    Release: "release",
    Resync: "resync",
    People: "people",
    Ask: "ask",
    Hand: "hand",
    Decline: "decline",
}


def _size(obj: dict[str, Any]) -> Resize:
    return Resize(integer(obj, "cols", 1, MAX_DIMENSION), integer(obj, "rows", 1, MAX_DIMENSION))


def _server_text(obj: dict[str, Any]) -> ServerFrame:
    match obj["type"]:
        case "hello":
            return Hello(
                identifier=string(obj, "identifier"),
                mode=choice(obj, "mode", _MODES),
                cols=integer(obj, "cols", 1, MAX_DIMENSION),
                rows=integer(obj, "rows", 1, MAX_DIMENSION),
                offset=integer(obj, "offset"),
                holder=choice(obj, "holder", _HOLDERS),
                watchers=integer(obj, "watchers"),
                title=string(obj, "title"),
                protocol=integer(obj, "protocol", 1),
                control=boolean(obj, "control") if "control" in obj else None,
            )
        case "snapshot":
            size = _size(obj)
            return Snapshot(integer(obj, "offset"), size.cols, size.rows, string(obj, "data"))
        case "resize":
            return _size(obj)
        case "control":
            return Control(choice(obj, "holder", _HOLDERS))
        case "presence":
            return Presence(integer(obj, "watchers"))
        case "exit":
            status = obj.get("status")
            if status is None:
                return Exit(None)
            return Exit(integer(obj, "status", low=-(2**31)))
        case "echo":
            return Echo(boolean(obj, "on"))
        case "screen":
            return decode_screen(obj, MAX_DIMENSION)
        case "people":
            return decode_people(obj)
        case "error":
            return Error(string(obj, "code"), string(obj, "message"))
    raise BadFrame("unknown server frame type")


def _client_text(obj: dict[str, Any]) -> ClientFrame:
    match obj["type"]:
        case "take":
            return Take()
        case "release":
            return Release()
        case "resync":
            return Resync()
        case "resize":
            return _size(obj)
        case "view":
            return decode_set_view(obj)
        case "ask":
            return Ask()
        case "hand" | "decline":
            return decode_target(obj)
    raise BadFrame("unknown client frame type")


def decode_server_frame(message: str | bytes) -> ServerFrame | Malformed:
    """Decode a message a client received. Never raises: bad input gives :class:`Malformed`."""
    if isinstance(message, bytes | bytearray | memoryview):
        return Output(bytes(message))
    try:
        return _server_text(json_object(message))
    except BadFrame as error:
        return Malformed(str(error))


def decode_client_frame(message: str | bytes) -> ClientFrame | Malformed:
    """Decode a message the server received. Never raises: bad input gives :class:`Malformed`."""
    if isinstance(message, bytes | bytearray | memoryview):
        return Input(bytes(message))
    try:
        return _client_text(json_object(message))
    except BadFrame as error:
        return Malformed(str(error))
