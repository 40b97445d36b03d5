"""A :class:`~observer.app.source.SessionSource` over a live :class:`observer.transport.Connection`.

It translates the transport's connection events into the app's, records the session when asked
(output always; input only while in control; markers for connects, gaps, takeovers and exit), and
reports the WebSocket keepalive's round-trip time as latency.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

from observer.app.source import ConnectionChanged, LatencyMeasured, SourceEvent
from observer.protocol.events import (
    Capabilities,
    ControlChanged,
    Exited,
    OutputReceived,
    Resized,
    SessionStarted,
    SnapshotReceived,
)
from observer.transport import Connected, Disconnected, GapDetected, Reconnecting

if TYPE_CHECKING:
    from observer.recording import Recorder
    from observer.transport import Connection

LATENCY_EVERY = 2.0
_ALL = Capabilities(snapshot=True, resume=True, control=True, resize=True)


class ConnectionSource:
    """The app's view of one :class:`Connection` (optionally recorded)."""

    def __init__(self, connection: Connection, *, label: str, record: Path | None = None) -> None:
        self.connection = connection
        self.label = label
        self.record = record
        self.recorder: Recorder | None = None
        self.recording = str(record) if record is not None else None
        self._last_latency = 0.0
        self._next_offset: int | None = None
        """Stream offset just past the last recorded byte (known once a snapshot came)."""

    def _start_recording(self, started: SessionStarted) -> None:
        from observer.recording import Recorder

        if self.record is None or self.recorder is not None:
            return
        self.recorder = Recorder(
            self.record,
            cols=started.cols,
            rows=started.rows,
            title=started.title or None,
            identifier=started.identifier,
            endpoint=self.connection.settings.url,
        )

    @property
    def capabilities(self) -> Capabilities:
        """What the connected peer supports (everything until we know)."""
        session = self.connection.session
        return session.capabilities if session is not None else _ALL

    @property
    def backlog(self) -> int:
        """Bytes of output the connection holds that :meth:`events` has not yielded yet."""
        return self.connection.backlog

    async def events(self) -> AsyncIterator[SourceEvent]:
        """The connection's events in the app's terms."""
        async for event in self.connection.events():
            self._record(event)
            if isinstance(event, Connected):
                yield ConnectionChanged("connected")
            elif isinstance(event, Reconnecting):
                yield ConnectionChanged("reconnecting", event.delay, event.reason)
            elif isinstance(event, GapDetected):
                yield ConnectionChanged("connected", reason=event.reason)
            elif isinstance(event, Disconnected):
                yield ConnectionChanged("closed", reason=event.reason)
            else:
                yield event
            latency = self._latency()
            if latency is not None:
                yield latency

    def _latency(self) -> LatencyMeasured | None:
        now = time.monotonic()
        if now - self._last_latency < LATENCY_EVERY:
            return None
        self._last_latency = now
        latency = self.connection.latency
        return LatencyMeasured(latency) if latency else None

    def _record(self, event: object) -> None:
        if isinstance(event, SessionStarted):
            self._start_recording(event)
        recorder = self.recorder
        if recorder is None or recorder.closed:
            return
        if isinstance(event, OutputReceived):
            self._record_output(recorder, event)
        elif isinstance(event, SnapshotReceived):
            self._record_snapshot(recorder, event)
        elif isinstance(event, Resized):
            recorder.resize(event.cols, event.rows)
        elif isinstance(event, Exited):
            recorder.exit(event.status if event.status is not None else -1)
        elif isinstance(event, ControlChanged):
            recorder.marker("takeover start" if event.holder == "you" else "takeover end")
        elif isinstance(event, Connected):
            recorder.marker("reconnected" if event.attempt > 1 else "connected")
        elif isinstance(event, GapDetected | Reconnecting):
            recorder.marker("gap" if isinstance(event, GapDetected) else "disconnected")

    def _record_output(self, recorder: Recorder, event: OutputReceived) -> None:
        data, end = event.data, event.offset + len(event.data)
        if self._next_offset is not None:
            # After a resync the server may resend bytes from its snapshot's offset on.
            if end <= self._next_offset:
                return
            data = data[max(0, self._next_offset - event.offset) :]
            self._next_offset = end
        recorder.output(data)

    def _record_snapshot(self, recorder: Recorder, event: SnapshotReceived) -> None:
        """Keep the recording a faithful stream across snapshots.

        The first snapshot is the screen the recording starts from; a gap's stands for lost
        bytes; a resync's is needed only when it skips bytes never received (its offset is past
        what was recorded). Otherwise the bytes from its offset on are already in the file.
        """
        skipped = self._next_offset is not None and event.offset > self._next_offset
        if event.gap or skipped:
            recorder.marker("gap")
        if event.gap or skipped or self._next_offset is None:
            recorder.output(event.data)
            self._next_offset = event.offset

    async def send_input(self, data: bytes) -> None:
        """Send input; recorded only if it actually left (that is, while in control)."""
        sent = await self.connection.send_input(data)
        if sent and self.recorder is not None and not self.recorder.closed:
            self.recorder.input(data)

    async def request_control(self) -> None:
        """Ask the endpoint for the keyboard."""
        await self.connection.take()

    async def release_control(self) -> None:
        """Hand the keyboard back."""
        await self.connection.release()

    async def request_resync(self) -> bool:
        """Ask for a snapshot instead of the backlog (native protocol only)."""
        return await self.connection.resync()

    async def close(self) -> None:
        """Close the connection and the recording."""
        await self.connection.close()
        if self.recorder is not None and not self.recorder.closed:
            self.recorder.close()
