"""Events a client-side protocol session yields, whatever the wire protocol.

Every adapter (native ``observer.v1``, raw, ttyd, Jupyter) turns received WebSocket messages into
these, so the transport, the recorder and the app never see a wire format. Names are past tense:
they report what the peer did. All are frozen, slotted dataclasses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from observer.protocol.people_frames import Person
from observer.terminal.notifications import BellRung, NotificationSent, ProgressReported

Holder = Literal["you", "other", "none"]
Mode = Literal["watch", "control"]


Arbitration = Literal["server", "none"]
ExitReport = Literal["frame", "close"]
Reconnect = Literal["resume", "rejoin", "new program"]


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a peer does, in words that mean one thing everywhere (docs/client-core.md, "Peers and
    their capabilities").

    The client session core reads these and nothing else to decide what a user may do and what a
    reconnect means; the UI shows only what is true for the peer.
    """

    arbitration: Arbitration
    """Who decides who types: ``server`` (native ``take``/``release``) or ``none``: the peer takes
    input from any client, so taking control is our own decision and the peer may still ignore
    the input (a read-only ttyd)."""
    snapshot: bool
    """The peer can send the whole current screen (late join, resync)."""
    resume: bool
    """A reconnect can ask for the bytes since an offset (``since=``)."""
    resize: bool
    """The client can resize the remote PTY (only ever while in control)."""
    exit: ExitReport
    """How the program's end is reported: a ``frame`` (native ``exit``, Jupyter ``disconnect``),
    or the socket's ``close`` (ttyd closes without a close frame when its program ends)."""
    reconnect: Reconnect
    """What a new connection gives: the same stream resumed, the same program rejoined (its
    screen may be incomplete), or a ``new program`` (ttyd starts one per connection)."""
    watchers: bool
    """The peer reports how many clients watch (otherwise the count is unknown, not 0)."""
    identifier: bool
    """The identifier selects something at the peer (native session, Jupyter terminal name);
    False where the peer ignores it (ttyd, raw), so it is optional."""
    echo: bool = False
    """The peer says when the program turns echo off (``observer.v1``'s ``echo`` frame): only
    then can keys typed at a password prompt be kept out of a recording."""
    screen: bool = False
    """The peer can send the screen's state instead of the byte stream (``observer.v1``'s
    ``screen`` view, for tiles: :meth:`~observer.protocol.adapter.Adapter.encode_view`)."""
    reports_size: bool = False
    """The peer tells its clients when the PTY's size changes (``observer.v1``'s ``resize``).
    Where it does not (ttyd, Jupyter), a resize the controller sends is the remote's size from
    then on: the client's own screen takes it, or full-width lines wrap early."""


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
    may_control: bool | None = None
    """Whether this connection may take control, where the peer says (native ``hello``'s
    ``control``); None where it does not."""


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
class ControlRefused:
    """The peer refused our request for the keyboard (``code``: ``control_held``, ``watch_only``)."""

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class PresenceChanged:
    """How many clients are connected to the session."""

    watchers: int


@dataclass(frozen=True, slots=True)
class PeopleListed:
    """Who is connected (``people``, labels already clean), which of them we are (``you``),
    who holds the keyboard (``holder``, None: nobody) and who asks for it (native ``people``)."""

    you: int
    holder: int | None
    people: tuple[Person, ...]


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
    server's model stood at; ``lines`` holds ``(row, ANSI repaint of the row)``;
    ``notifications`` what the agent sent to be noticed since the previous frame (its desktop
    notifications, bells, progress: a repaint of rows cannot carry them)."""

    offset: int
    cols: int
    rows: int
    full: bool
    lines: tuple[tuple[int, str], ...]
    cursor: tuple[int, int]
    cursor_visible: bool
    title: str
    notifications: tuple[NotificationSent | BellRung | ProgressReported, ...] = ()


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
    | ControlRefused
    | PresenceChanged
    | PeopleListed
    | TitleChanged
    | Exited
    | EchoChanged
    | ScreenReceived
    | ErrorReported
    | ProtocolViolation
)
