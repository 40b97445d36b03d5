"""Events a client-side protocol session yields, whatever the wire protocol.

Every adapter (native ``observer.v1``, raw, ttyd, Jupyter) turns received WebSocket messages into
these, so the transport, the recorder and the app never see a wire format. Names are past tense:
they report what the peer did. All are frozen, slotted dataclasses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Holder = Literal["you", "other", "none"]
Mode = Literal["watch", "control"]


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a peer protocol supports; the UI hides what it cannot do."""

    snapshot: bool
    """The peer can send the whole current screen (late join, resync)."""
    resume: bool
    """A reconnect can ask for the bytes since an offset (``since=``)."""
    control: bool
    """The peer arbitrates one controller; otherwise input is sent and trusted to the peer."""
    resize: bool
    """The client can resize the remote PTY (only ever while in control)."""


@dataclass(frozen=True, slots=True)
class SessionStarted:
    """The peer greeted us (native ``hello``, ttyd's first frames, Jupyter's ``setup``)."""

    identifier: str
    mode: Mode
    cols: int
    rows: int
    offset: int
    holder: Holder
    watchers: int
    title: str
    complete: bool = True
    """False when the peer sends no snapshot (raw, ttyd, Jupyter): the screen starts from what
    arrives after we joined and may lack what was drawn before. The UI says so until a full
    repaint. Defaults to True, so code written before this field existed is unaffected."""


@dataclass(frozen=True, slots=True)
class OutputReceived:
    """PTY output. ``offset`` is the stream offset of ``data[0]`` (0 where the peer has none)."""

    data: bytes
    offset: int


@dataclass(frozen=True, slots=True)
class SnapshotReceived:
    """Replace the screen: ``data`` is an ANSI repaint for a fresh terminal of ``cols`` x ``rows``.

    ``offset`` is the stream offset the repaint corresponds to; output continues from there.
    ``gap`` is True when it replaced bytes we asked for (``since=``) but could not get: the
    recording marks a gap.
    """

    data: bytes
    cols: int
    rows: int
    offset: int
    gap: bool


@dataclass(frozen=True, slots=True)
class Resized:
    """The remote PTY changed size."""

    cols: int
    rows: int


@dataclass(frozen=True, slots=True)
class ControlChanged:
    """Who holds the keyboard now, from our point of view."""

    holder: Holder


@dataclass(frozen=True, slots=True)
class PresenceChanged:
    """How many clients are connected to the session."""

    watchers: int


@dataclass(frozen=True, slots=True)
class TitleChanged:
    """The peer reported a window title out of band (ttyd). Already sanitized text."""

    title: str


@dataclass(frozen=True, slots=True)
class Exited:
    """The agent's process ended. ``status`` is its exit status (negative: killed by a signal)."""

    status: int | None


@dataclass(frozen=True, slots=True)
class EchoChanged:
    """The remote terminal started (``on``) or stopped showing what is typed, at this place in
    the stream. ``on`` is False at a password prompt: input typed meanwhile is a secret."""

    on: bool


@dataclass(frozen=True, slots=True)
class ScreenReceived:
    """Rows of the remote screen that changed (the ``screen`` view, for tiles): apply them with
    :class:`observer.protocol.screen_view.ScreenView`. ``offset`` is the stream offset the
    server's model stood at; ``lines`` holds ``(row, ANSI repaint of the row)``."""

    offset: int
    cols: int
    rows: int
    full: bool
    lines: tuple[tuple[int, str], ...]
    cursor: tuple[int, int]
    cursor_visible: bool
    title: str


@dataclass(frozen=True, slots=True)
class ErrorReported:
    """The peer refused something we sent (``code`` is a short machine word, ``message`` for people)."""

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class ProtocolViolation:
    """We received something malformed. The session goes on; the UI may show ``reason``."""

    reason: str


Event = (
    SessionStarted
    | OutputReceived
    | SnapshotReceived
    | Resized
    | ControlChanged
    | PresenceChanged
    | TitleChanged
    | Exited
    | EchoChanged
    | ScreenReceived
    | ErrorReported
    | ProtocolViolation
)
