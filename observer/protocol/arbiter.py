"""The server side of ``observer.v1``: per-connection state and control arbitration, sans-I/O.

The server keeps one :class:`ControlArbiter` per terminal session and one :class:`ServerConnection`
per connected client. A connection is fed each received message and returns *decisions* for the
I/O shell: write these bytes to the PTY, resize it, send this frame to this client, tell everybody
that the holder changed, send a snapshot, close. Input and resize reach the PTY only from the
holder, checked with the same mode table the client uses (:mod:`observer.protocol.modes`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from observer.protocol import frames
from observer.protocol.modes import ControlEvent, ControlMode, may_send_input, next_mode
from observer.protocol.screen_frames import SetView, View

Role = Literal["watch", "control"]
"""What a client's credentials allow: watching only, or also taking control."""

MAX_VIOLATIONS: Final = 64
"""Malformed frames one connection may send before it is closed with 1008 (policy violation)."""


@dataclass(frozen=True, slots=True)
class WriteToPty:
    """Write the holder's keyboard input to the PTY."""

    data: bytes


@dataclass(frozen=True, slots=True)
class ResizePty:
    """Resize the PTY (and the server's model), then tell every client."""

    cols: int
    rows: int


@dataclass(frozen=True, slots=True)
class Reply:
    """Send ``frame`` to this client only."""

    frame: frames.ServerFrame


@dataclass(frozen=True, slots=True)
class ControlMoved:
    """The holder changed: send every client a ``control`` frame from its point of view."""


@dataclass(frozen=True, slots=True)
class SendSnapshot:
    """The client asked for a fresh snapshot (``resync``)."""


@dataclass(frozen=True, slots=True)
class SwitchView:
    """Send this client the screen's state (``screen``, at most ``fps`` a second) or the stream."""

    view: View
    fps: int


@dataclass(frozen=True, slots=True)
class Disconnect:
    """Close the connection with this WebSocket close code (RFC 6455 §7.4.1)."""

    code: int
    reason: str


Decision = WriteToPty | ResizePty | Reply | ControlMoved | SendSnapshot | SwitchView | Disconnect


class ControlArbiter:
    """Which connection of one session holds the keyboard (at most one)."""

    def __init__(self) -> None:
        self.holder: int | None = None

    def view(self, connection_id: int) -> frames.Holder:
        """The holder as connection ``connection_id`` sees it: you, other or none."""
        if self.holder is None:
            return "none"
        return "you" if self.holder == connection_id else "other"


class ServerConnection:
    """One client connection as the server sees it.

    Args:
        connection_id: unique among the session's connections.
        role: what the client's token allows.
        arbiter: the session's arbiter, shared by all its connections.
    """

    def __init__(self, connection_id: int, role: Role, arbiter: ControlArbiter) -> None:
        self.id = connection_id
        self.role = role
        self._arbiter = arbiter
        self.mode = ControlMode.WATCH
        self.violations = 0

    @property
    def holder(self) -> frames.Holder:
        """Who holds control, from this connection's point of view."""
        return self._arbiter.view(self.id)

    def open(self, want_control: bool) -> list[Decision]:
        """The client connected; with ``want_control`` (``mode=control``) try to take control."""
        return self._take() if want_control else []

    def receive(self, message: str | bytes, *, exited: bool = False) -> list[Decision]:
        """Feed one message from the client; return what the server should do. Never raises."""
        frame = frames.decode_client_frame(message)
        match frame:
            case frames.Malformed(reason):
                self.violations += 1
                if self.violations > MAX_VIOLATIONS:
                    return [Disconnect(1008, "too many malformed frames")]
                return [Reply(frames.Error(frames.BAD_FRAME, reason))]
            case frames.Input(data):
                refusal = self._refuse_pty_access("input", exited)
                if refusal is not None:
                    return [refusal]
                return [WriteToPty(data)] if data else []
            case frames.Resize(cols, rows):
                refusal = self._refuse_pty_access("resize", exited)
                return [refusal] if refusal is not None else [ResizePty(cols, rows)]
            case frames.Take():
                return self._take()
            case frames.Release():
                return self._release()
            case frames.Resync():
                return [SendSnapshot()]
            case SetView(view, fps):  # any role: watching a tile is watching
                return [SwitchView(view, fps)]
        return []

    def close(self) -> list[Decision]:
        """The client went away: a holder's disconnect releases control."""
        if self._arbiter.holder == self.id:
            self._arbiter.holder = None
            self.mode = ControlMode.WATCH
            return [ControlMoved()]
        return []

    def _refuse_pty_access(self, what: str, exited: bool) -> Reply | None:
        if exited:
            return Reply(frames.Error(frames.EXITED, f"{what} dropped: the process has exited"))
        if not may_send_input(self.mode):
            message = f"{what} dropped: you are watching; take control first"
            return Reply(frames.Error(frames.NOT_HOLDER, message))
        return None

    def _take(self) -> list[Decision]:
        if self.role != "control":
            return [Reply(frames.Error(frames.WATCH_ONLY, "this token allows watching only"))]
        if self.mode is ControlMode.CONTROL:
            return [Reply(frames.Control("you"))]
        self.mode = next_mode(self.mode, ControlEvent.REQUEST)
        if self._arbiter.holder is not None:
            self.mode = next_mode(self.mode, ControlEvent.DENIED)
            message = "another client holds control; ask them to release it"
            return [Reply(frames.Error(frames.CONTROL_HELD, message))]
        self._arbiter.holder = self.id
        self.mode = next_mode(self.mode, ControlEvent.GRANTED)
        return [ControlMoved()]

    def _release(self) -> list[Decision]:
        if self.mode is not ControlMode.CONTROL:
            return [Reply(frames.Error(frames.NOT_HOLDER, "you do not hold control"))]
        self.mode = next_mode(self.mode, ControlEvent.RELEASE)
        self._arbiter.holder = None
        self.mode = next_mode(self.mode, ControlEvent.LOST)
        return [ControlMoved()]
