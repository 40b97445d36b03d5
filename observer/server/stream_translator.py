"""One client's ``observer.v1`` stream, told again in the protocol it asked for.

The server sends every client the same ``observer.v1`` messages (``hello``, a snapshot, output,
``resize``, ``control``, ``exit``...: the joins, resyncs, overflows and fairness of
:mod:`observer.server.terminal_session` and :mod:`observer.server.clients` hold for every client
alike). A client of another protocol has a translator in front of its socket: it reads those
messages as the native client adapter reads them (:class:`NativeAdapter`: offsets, gaps), has the
recording policy decide what the stream holds (:class:`RecordingPolicy`: the first screen, a
gap's reset, takeover markers, exit), and writes it with the protocol's sink
(:mod:`observer.server.stream_formats`). Translation happens as messages are sent, so a backlog
dropped for a slow client is never translated: the snapshot after it shows as a gap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from observer.asciicast import Header
from observer.client.attention import AttentionTracker
from observer.client.recording_policy import RecordingPolicy, RecordSink
from observer.protocol.adapters.native import NativeAdapter
from observer.protocol.events import (
    ControlChanged,
    Event,
    Exited,
    Holder,
    OutputReceived,
    Resized,
    SessionStarted,
    SnapshotReceived,
)
from observer.protocol.screen_frames import Notified
from observer.server.stream_formats import AlisSink, CastSink, RawSink, StreamSink
from observer.server.websocket_adapter import Message

STREAMS = ("v1.alis", "v3.asciicast", "v2.asciicast", "raw")
"""The protocols a translator speaks (``observer.v1`` needs none)."""


class StreamTranslator:
    """Turns the ``observer.v1`` messages meant for one client into ``stream``'s messages.

    Args:
        stream: one of :data:`STREAMS`.
        clock: monotonic seconds (event times count from the translator's creation).
        wall: Unix time (the asciicast header's ``timestamp``).
    """

    def __init__(self, stream: str, clock: Callable[[], float], wall: Callable[[], float]) -> None:
        if stream not in STREAMS:
            raise ValueError(f"no translator for {stream!r}")
        self.stream = stream
        self._clock = clock
        self._wall = wall
        self._start = clock()
        self._adapter = NativeAdapter()
        self._policy = RecordingPolicy(self._open)
        self._attention = AttentionTracker()
        self._sink: StreamSink | None = None
        self._holder: Holder | None = None
        """The holder ``hello`` named, marked once the first screen is written."""
        self.ended = False
        """The program exited and the stream's last message was given: close after it."""

    def translate(self, message: Message) -> list[Message]:
        """The messages to send for one ``observer.v1`` message (none after the end)."""
        if not self.ended:
            for event in self._adapter.receive(message):
                self._apply(event)
        return self._take()

    def notified(self, events: Sequence[Notified]) -> list[Message]:
        """The agent asked for attention (the server's model saw it): markers, as recorders
        write them."""
        if not self.ended:
            for text in self._attention.notified(events, self._elapsed()):
                self._policy.notification(text)
        return self._take()

    def _apply(self, event: Event) -> None:
        policy = self._policy
        match event:
            case SessionStarted(cols=cols, rows=rows, title=title, holder=holder):
                policy.started(cols, rows, title, complete=True)
                self._holder = holder
            case SnapshotReceived(data, cols, rows, offset):
                policy.snapshot(data, cols, rows, offset)
                if self._holder is not None:
                    policy.held(self._holder)
                    self._holder = None
            case OutputReceived(data, offset):
                policy.output(data, offset)
            case Resized(cols, rows):
                policy.resized(cols, rows)
            case ControlChanged(holder):
                policy.held(holder)
            case Exited(status):
                policy.exited(status)
                policy.close()
                self.ended = True

    def _open(self, cols: int, rows: int, title: str) -> RecordSink:
        clock = self._elapsed
        sink: StreamSink
        if self.stream == "raw":
            sink = RawSink(clock, cols, rows)
        elif self.stream == "v1.alis":
            sink = AlisSink(clock, cols, rows)
        else:
            header = Header(
                version=3 if self.stream == "v3.asciicast" else 2,
                cols=cols,
                rows=rows,
                timestamp=int(self._wall()),
                title=title or None,
            )
            sink = CastSink(clock, "v3" if header.version == 3 else "v2", header)
        self._sink = sink
        return sink

    def _elapsed(self) -> float:
        return self._clock() - self._start

    def _take(self) -> list[Message]:
        if self._sink is None or not self._sink.out:
            return []
        out, self._sink.out = self._sink.out, []
        return out
