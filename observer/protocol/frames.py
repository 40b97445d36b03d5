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
from dataclasses import dataclass
from typing import Any, Final, Literal

SUBPROTOCOL: Final = "observer.v1"
"""WebSocket subprotocol (``Sec-WebSocket-Protocol``) the client offers and the server selects."""
PROTOCOL_VERSION: Final = 1
API_VERSION: Final = "2024-02-02-preview"
"""The only ``api-version`` query value the endpoint accepts."""
SUPPORTED_API_VERSIONS: Final = (API_VERSION,)
FEATURES_PARAMETER: Final = "features"
"""Query parameter naming the optional frames a client understands, comma-separated; a server
sends them only when asked (older clients take an unknown ``type`` for a malformed frame) and
ignores names it does not know."""
ECHO_FEATURE: Final = "echo"
"""Send ``echo`` frames (:class:`Echo`)."""

MAX_DIMENSION: Final = 1000
"""Largest ``cols`` or ``rows`` anybody may ask for; a terminal wider than this is a mistake."""

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


ServerFrame = Hello | Snapshot | Output | Resize | Control | Presence | Exit | Echo | Error
ClientFrame = Input | Take | Release | Resize | Resync
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
    Error: "error",
    Take: "take",
    Release: "release",
    Resync: "resync",
}


class _Bad(Exception):
    """Internal: a field is missing or has the wrong type (never escapes this module)."""


def _object(message: str) -> dict[str, Any]:
    try:
        value = json.loads(message)
    except (ValueError, RecursionError) as error:
        raise _Bad(f"text frame is not JSON ({type(error).__name__})") from None
    if not isinstance(value, dict):
        raise _Bad("text frame is not a JSON object")
    kind = value.get("type")
    if not isinstance(kind, str):
        raise _Bad("text frame has no string 'type'")
    return value


def _int(obj: dict[str, Any], key: str, low: int = 0, high: int | None = None) -> int:
    value = obj.get(key)
    # bool is an int subclass in Python; JSON true is not a number.
    if not isinstance(value, int) or isinstance(value, bool):
        raise _Bad(f"'{obj['type']}' field '{key}' must be an integer")
    if value < low or (high is not None and value > high):
        raise _Bad(f"'{obj['type']}' field '{key}' is out of range")
    return value


def _str(obj: dict[str, Any], key: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise _Bad(f"'{obj['type']}' field '{key}' must be a string")
    return value


def _choice(obj: dict[str, Any], key: str, allowed: frozenset[str]) -> Any:
    value = _str(obj, key)
    if value not in allowed:
        raise _Bad(f"'{obj['type']}' field '{key}' has unknown value")
    return value


def _size(obj: dict[str, Any]) -> Resize:
    return Resize(_int(obj, "cols", 1, MAX_DIMENSION), _int(obj, "rows", 1, MAX_DIMENSION))


def _server_text(obj: dict[str, Any]) -> ServerFrame:
    match obj["type"]:
        case "hello":
            return Hello(
                identifier=_str(obj, "identifier"),
                mode=_choice(obj, "mode", _MODES),
                cols=_int(obj, "cols", 1, MAX_DIMENSION),
                rows=_int(obj, "rows", 1, MAX_DIMENSION),
                offset=_int(obj, "offset"),
                holder=_choice(obj, "holder", _HOLDERS),
                watchers=_int(obj, "watchers"),
                title=_str(obj, "title"),
                protocol=_int(obj, "protocol", 1),
            )
        case "snapshot":
            size = _size(obj)
            return Snapshot(_int(obj, "offset"), size.cols, size.rows, _str(obj, "data"))
        case "resize":
            return _size(obj)
        case "control":
            return Control(_choice(obj, "holder", _HOLDERS))
        case "presence":
            return Presence(_int(obj, "watchers"))
        case "exit":
            status = obj.get("status")
            if status is None:
                return Exit(None)
            return Exit(_int(obj, "status", low=-(2**31)))
        case "echo":
            on = obj.get("on")
            if not isinstance(on, bool):
                raise _Bad("'echo' field 'on' must be true or false")
            return Echo(on)
        case "error":
            return Error(_str(obj, "code"), _str(obj, "message"))
    raise _Bad("unknown server frame type")


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
    raise _Bad("unknown client frame type")


def decode_server_frame(message: str | bytes) -> ServerFrame | Malformed:
    """Decode a message a client received. Never raises: bad input gives :class:`Malformed`."""
    if isinstance(message, bytes | bytearray | memoryview):
        return Output(bytes(message))
    try:
        return _server_text(_object(message))
    except _Bad as error:
        return Malformed(str(error))


def decode_client_frame(message: str | bytes) -> ClientFrame | Malformed:
    """Decode a message the server received. Never raises: bad input gives :class:`Malformed`."""
    if isinstance(message, bytes | bytearray | memoryview):
        return Input(bytes(message))
    try:
        return _client_text(_object(message))
    except _Bad as error:
        return Malformed(str(error))
