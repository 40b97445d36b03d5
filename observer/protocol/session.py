"""The client side of ``observer.v1`` as a sans-I/O session.

:class:`NativeClientSession` implements :class:`observer.protocol.adapter.ClientSession`: the
transport feeds it every received WebSocket message and writes whatever its ``send_*`` methods
return. It tracks the stream offset of the next output byte, so that a reconnect can ask for
``since=<offset>`` and get exactly the bytes it missed, and it keeps the client's copy of the mode
table: in watch mode ``send_input`` and ``send_resize`` return no message at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlencode

from observer.protocol import frames
from observer.protocol.adapter import ClientSession
from observer.protocol.events import (
    Capabilities,
    ControlChanged,
    EchoChanged,
    ErrorReported,
    Event,
    Exited,
    Mode,
    OutputReceived,
    PresenceChanged,
    ProtocolViolation,
    Resized,
    ScreenReceived,
    SessionStarted,
    SnapshotReceived,
)
from observer.protocol.modes import ControlEvent, ControlMode, may_send_input, next_mode
from observer.protocol.screen_frames import DEFAULT_FPS, Screen, SetView, View

Message = str | bytes

#: Error codes with which the server answers a ``take`` it refuses.
_TAKE_REFUSALS = frozenset({frames.CONTROL_HELD, frames.WATCH_ONLY})


class NativeClientSession:
    """One client connection to an ``observer serve`` endpoint (or the platform's own).

    Args:
        since: stream offset to resume from (the previous session's :attr:`offset`), or ``None``
            for a fresh join, which starts with a snapshot of the current screen.
        control: ask for control at connect (``mode=control`` in the query) instead of watching.
    """

    subprotocol: str | None = frames.SUBPROTOCOL
    capabilities = Capabilities(snapshot=True, resume=True, control=True, resize=True)

    def __init__(self, *, since: int | None = None, control: bool = False) -> None:
        self._since = since
        self._ask_control = control
        self._control = ControlMode.REQUESTING if control else ControlMode.WATCH
        self._offset: int | None = since
        self._greeted = False

    @property
    def mode(self) -> Mode:
        """``control`` only while the server agrees that this client holds the keyboard."""
        return "control" if may_send_input(self._control) else "watch"

    @property
    def control_mode(self) -> ControlMode:
        """The full mode, including the transient requesting and released states."""
        return self._control

    @property
    def offset(self) -> int | None:
        """Stream offset of the next output byte (``None`` before ``hello``); resume from it."""
        return self._offset

    def query(self, identifier: str) -> str:
        """The request target for the upgrade: ``/?identifier=...&api-version=...[&mode][&since]``."""
        params = {"identifier": identifier, "api-version": frames.API_VERSION}
        params["mode"] = "control" if self._ask_control else "watch"
        if self._since is not None:
            params["since"] = str(self._since)
        params[frames.FEATURES_PARAMETER] = frames.ECHO_FEATURE
        return "/?" + urlencode(params)

    def opening_messages(self) -> list[Message]:
        """Nothing: everything the server needs is in the request."""
        return []

    def receive(self, message: Message) -> list[Event]:
        """Feed one received message; return what it means. Never raises."""
        frame = frames.decode_server_frame(message)
        events: list[Event] = []
        if not self._greeted and not isinstance(frame, frames.Hello | frames.Malformed):
            events.append(ProtocolViolation("the server did not start with 'hello'"))
        match frame:
            case frames.Malformed(reason):
                events.append(ProtocolViolation(reason))
            case frames.Hello():
                events.append(self._hello(frame))
            case frames.Snapshot(offset, cols, rows, data):
                gap = self._offset is not None and offset != self._offset
                self._offset = offset
                events.append(SnapshotReceived(data.encode(), cols, rows, offset, gap))
            case frames.Output(data):
                start = self._offset or 0
                self._offset = start + len(data)
                events.append(OutputReceived(data, start))
            case frames.Resize(cols, rows):
                events.append(Resized(cols, rows))
            case frames.Control(holder):
                self._move(ControlEvent.GRANTED if holder == "you" else ControlEvent.LOST)
                events.append(ControlChanged(holder))
            case frames.Presence(watchers):
                events.append(PresenceChanged(watchers))
            case frames.Exit(status):
                events.append(Exited(status))
            case frames.Echo(on):
                events.append(EchoChanged(on))
            case Screen():
                # The view stands at the model's offset: a snapshot there after switching back
                # to the stream is no gap.
                self._offset = frame.offset
                events.append(
                    ScreenReceived(
                        frame.offset,
                        frame.cols,
                        frame.rows,
                        frame.full,
                        frame.lines,
                        frame.cursor,
                        frame.cursor_visible,
                        frame.title,
                    )
                )
            case frames.Error(code, text):
                if code in _TAKE_REFUSALS:
                    self._move(ControlEvent.DENIED)
                events.append(ErrorReported(code, text))
        return events

    def send_input(self, data: bytes) -> list[Message]:
        """Keyboard input as one binary frame; nothing unless in control."""
        if not data or not may_send_input(self._control):
            return []
        return [bytes(data)]

    def send_resize(self, cols: int, rows: int) -> list[Message]:
        """Ask the server to resize the PTY; nothing unless in control or if the size is absurd."""
        if not may_send_input(self._control):
            return []
        if not (1 <= cols <= frames.MAX_DIMENSION and 1 <= rows <= frames.MAX_DIMENSION):
            return []
        return [frames.encode(frames.Resize(cols, rows))]

    def request_control(self) -> list[Message]:
        """Send ``take`` (nothing if already in control or asking)."""
        if self._control in (ControlMode.CONTROL, ControlMode.REQUESTING):
            return []
        self._move(ControlEvent.REQUEST)
        return [frames.encode(frames.Take())]

    def release_control(self) -> list[Message]:
        """Send ``release``; input stops at once, before the server confirms."""
        if self._control not in (ControlMode.CONTROL, ControlMode.REQUESTING):
            return []
        self._move(ControlEvent.RELEASE)
        return [frames.encode(frames.Release())]

    def request_view(self, view: View, fps: int = DEFAULT_FPS) -> list[Message]:
        """Ask for the screen's state (``screen``, at most ``fps`` frames a second: a tile) or
        the byte stream (``stream``: a snapshot at the view's offset, then the bytes)."""
        return [frames.encode(SetView(view, fps))]

    def request_resync(self) -> list[Message]:
        """Ask for a fresh snapshot; the output backlog before it will be skipped."""
        return [frames.encode(frames.Resync())]

    def _hello(self, hello: frames.Hello) -> SessionStarted:
        self._greeted = True
        # hello.offset is where the stream that follows begins (the snapshot's offset, or the
        # replayed since=). A resume keeps its own offset so that a snapshot instead shows a gap.
        if self._since is None or self._offset is None:
            self._offset = hello.offset
        if hello.mode == "control":
            self._move(ControlEvent.GRANTED)
        return SessionStarted(
            identifier=hello.identifier,
            mode=hello.mode,
            cols=hello.cols,
            rows=hello.rows,
            offset=hello.offset,
            holder=hello.holder,
            watchers=hello.watchers,
            title=hello.title,
        )

    def _move(self, event: ControlEvent) -> None:
        # A pair the table does not allow (e.g. DENIED while watching) leaves the mode as it is.
        self._control = next_mode(self._control, event) or self._control


if TYPE_CHECKING:  # mypy proves that the native session is a ClientSession

    def _is_a_client_session(session: NativeClientSession) -> ClientSession:
        return session
