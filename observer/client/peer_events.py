"""What the peer says, applied to a watched session's parts.

The peer's adapter decodes each message into protocol events
(:mod:`observer.protocol.events`); :class:`PeerEvents` hands each to the part it concerns:
output and snapshots to the recording and the parse queue (bytes lost behind a snapshot are a
gap), screen-view frames to the tile view, the hello and the holder to control and the
lifecycle, the exit to all of them. It also keeps when the agent last printed: a screen that
shows nothing new (a tile opened, a reconnect that missed nothing) is no output.
"""

from __future__ import annotations

from dataclasses import dataclass

from observer.client.attention import AttentionTracker
from observer.client.control import Control
from observer.client.events import Outlet
from observer.client.lifecycle import Lifecycle
from observer.client.parse_queue import ParseQueue
from observer.client.recording_policy import RecordingPolicy
from observer.client.tile_view import TileView
from observer.protocol.adapter import Message
from observer.protocol.events import (
    ControlChanged,
    ControlRefused,
    EchoChanged,
    ErrorReported,
    Event,
    Exited,
    OutputReceived,
    PeopleListed,
    PresenceChanged,
    ProtocolViolation,
    Resized,
    ScreenReceived,
    SessionStarted,
    SnapshotReceived,
    TitleChanged,
)
from observer.terminal.sanitize import sanitize_title


@dataclass(frozen=True, slots=True)
class Parts:
    """One watched session's parts, as its façade wires them."""

    life: Lifecycle
    control: Control
    queue: ParseQueue
    tile: TileView
    attention: AttentionTracker
    outlet: Outlet
    recording: RecordingPolicy | None


class PeerEvents:
    """Applies the peer's events to one session's parts (see the module docstring)."""

    def __init__(self, parts: Parts) -> None:
        self._life, self._control, self._queue = parts.life, parts.control, parts.queue
        self._tile, self._attention = parts.tile, parts.attention
        self._outlet, self._recording = parts.outlet, parts.recording
        self.last_output: float | None = None
        """When the agent last printed (None: not yet)."""
        self.snapshots = 0

    def received(self, message: Message, now: float) -> None:
        """One message from the peer, through the connection's adapter."""
        adapter = self._life.adapter
        if adapter is not None:
            for event in adapter.receive(message):
                self._outlet.peer_event(event)
                self._apply(event, now)

    def _apply(self, event: Event, now: float) -> None:
        life, recording = self._life, self._recording
        match event:
            case OutputReceived(data, offset):
                self._output(data, offset, now)
            case SnapshotReceived():
                self._snapshot(event, now)
            case ScreenReceived():
                if life.printed_since(event.offset):
                    self._heard(now)
                self._tile.frame(event)
            case SessionStarted():
                self._started(event, now)
            case Resized(cols, rows):
                self._queue.remote_resized(cols, rows)
            case ControlChanged(holder):
                self._control.holder_changed(holder, now)
            case ControlRefused(code, message):
                self._control.refused(code, message, now)
            case PresenceChanged(watchers):
                life.watchers = watchers
                self._outlet.status_changed()
            case PeopleListed():
                self._control.people_listed(event, now)
            case TitleChanged(title):
                life.title = sanitize_title(title)
            case Exited(status):
                self._exit(status)
            case EchoChanged(on):
                life.echo = on
                if recording is not None:
                    recording.echo(on=on)
            case ErrorReported(code, message):
                life.tell(sanitize_title(message) or code, "warning")
            case ProtocolViolation(reason):
                life.tell(
                    f"The endpoint sent something malformed: {sanitize_title(reason)}", "warning"
                )

    def _started(self, event: SessionStarted, now: float) -> None:
        queue = self._queue
        if self._life.started(event):
            queue.restart()
        if (event.cols, event.rows) != (queue.model.cols, queue.model.rows):
            queue.queue(Resized(event.cols, event.rows))
        self._control.started(event, now)
        self._outlet.status_changed()

    def _heard(self, now: float) -> None:
        """The agent printed something (bytes, or a screen its output changed)."""
        if self._attention.output(now):
            self._outlet.status_changed()  # it printed again well after asking: answered elsewhere
        self.last_output = now

    def _output(self, data: bytes, offset: int, now: float) -> None:
        self._heard(now)
        self._tile.framed = False
        self._life.next_offset = offset + len(data)
        if self._recording is not None:
            self._recording.output(data, offset)
        self._queue.output(data)

    def _snapshot(self, event: SnapshotReceived, now: float) -> None:
        # Bytes were lost when the snapshot starts past what we received, unless we asked to
        # skip them (a resync): the screen is whole either way, the recording marks the gap.
        life, queue = self._life, self._queue
        skipped = life.next_offset is not None and event.offset > life.next_offset
        lost = skipped and not queue.catch_up.resyncing
        if self.last_output is None or life.printed_since(event.offset):
            self.last_output = now
        life.next_offset = event.offset
        life.remote_size = (event.cols, event.rows)
        life.complete = True
        self.snapshots += 1
        if self._recording is not None:
            self._recording.snapshot(event.data, event.cols, event.rows, event.offset)
        queue.catch_up.snapshot_applied(0, now)
        if lost:
            life.gaps += 1
            life.tell("Some output was missed while disconnected; showing the current screen")
        queue.replace(event)

    def _exit(self, status: int | None) -> None:
        if self._life.exited:
            return
        self._control.drop()
        self._control.want = False
        self._life.exit(status)
