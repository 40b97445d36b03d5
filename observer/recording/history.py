"""What this client has seen of a live session since it connected, on disk, for live rewind.

The session core hands a :class:`SessionHistory` every byte its model is fed and every change of
its size (:class:`observer.client.parse_queue.FeedTap`); the app adds the markers (notifications,
takeovers, outages, the exit). The history writes them as asciicast v2 lines to files of its own
— through the recorders' :class:`~observer.recording.spool.Spool`, redacted as recordings are
(:mod:`observer.asciicast.redact`) — and keeps in memory only a
:class:`~observer.replay.timeline.Timeline` of where each line lies (the output is read back
when a seek needs it) and :class:`~observer.replay.live.LiveKeyframes` (snapshots of the live
model: nothing is parsed twice). So the replay engine rewinds it as it replays a recording.

Bounded:

- **memory**: output fed within :data:`COALESCE` seconds is one event, so a busy session adds
  at most a few events a second to the timeline; keyframes are thinned past their limit;
- **CPU**: what the core hands over is only gathered; the bytes are decoded, redacted and
  written once per event, and the live model is snapshot at most every
  :data:`KEYFRAME_EVERY` seconds (a flood reaches the keyframes' byte budget several times a
  second, and a snapshot costs about as much as parsing a screenful);
- **disk**: the lines go to segment files of :data:`SEGMENT` bytes; past ``cap`` bytes the oldest
  segment is deleted and the keyframes before the first event still on disk are forgotten (each
  segment starts with a keyframe, so what is left can be shown from its start); once more than
  half the timeline is before that, the timeline is replaced by its rest (so memory is bounded by
  the cap too, not by the session's length);
- **events**: past ``events`` events kept, the oldest segment goes too (a segment holds at most
  an eighth of them), and the timeline is replaced by its rest at each drop: an agent that
  writes little a second (a clock, a spinner) reaches a byte cap only after days, and the
  timeline's memory is a few dozen bytes an event, whatever its size.

A keyframe is a snapshot of the live model, which saw the agent's bytes before redaction; the
events after it are read back redacted. So that they fit, a keyframe is taken only after an event
that holds every byte fed so far: no UTF-8 character cut in two, nothing a redactor held back.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from observer.asciicast import MARKER, OUTPUT, RESIZE, Event, Header
from observer.asciicast.redact import Redactor
from observer.asciicast.writer import CastWriter
from observer.recording.recorder import HOLD_LIMIT
from observer.recording.spool import Spool
from observer.replay.keyframes import SPACING
from observer.replay.live import LiveKeyframes
from observer.replay.timeline import Timeline
from observer.terminal import TerminalModel
from observer.terminal.size import format_size

COALESCE = 0.1
"""Seconds of output gathered into one event (a seek lands on one of them)."""
SEGMENT = 16 * 1024 * 1024
"""Bytes of lines in one spool file before the next is started."""
DISK_CAP = 256 * 1024 * 1024
"""Bytes of spool files kept per session by default; the oldest are deleted past it."""
KEYFRAME_EVERY = 1.0
"""Seconds of the session at least between two keyframes (a seek then feeds at most this long's
output, about 40 ms of parsing for a build log at 500 KB/s)."""
SEGMENTS_PER_BOUND = 8
"""Segments an ``events`` bound is kept in (the oldest goes as a whole: what is kept stays
within an eighth of the bound below it)."""
WRITE_EVERY = 1.0
"""Seconds lines wait before the spool's thread writes them (a read writes them first)."""


@dataclass
class _Segment:
    """One spool file: its lines from global byte ``start`` on, from event ``first`` on."""

    path: Path
    start: int
    first: int
    spool: Spool
    reader: int
    size: int = 0


class SessionHistory:
    """One live session's history (see the module docstring); a ``FeedTap`` for its core.

    Args:
        folder: A private folder for the spool files (the caller removes it).
        model: The live model as the history starts.
        now: The time it starts (monotonic seconds; events are timed from it).
        redact: Mask secret shapes, as recordings do.
        secrets: Exact strings to mask whatever ``redact`` says.
        cap: Most bytes of spool files kept.
        segment: Bytes per spool file.
        coalesce: Seconds of output gathered into one event.
        keyframes: Most keyframes kept (default: what fits the replay engine's memory bound).
        spacing: Seconds of the session between keyframes at first (see :class:`LiveKeyframes`).
        events: Most events kept (default: as many as ``cap`` holds).
    """

    def __init__(
        self,
        folder: Path,
        model: TerminalModel,
        now: float,
        *,
        redact: bool = True,
        secrets: Iterable[str] = (),
        cap: int = DISK_CAP,
        segment: int = SEGMENT,
        coalesce: float = COALESCE,
        keyframes: int | None = None,
        spacing: float = SPACING,
        events: int | None = None,
    ) -> None:
        self.folder, self.cap, self.segment, self.coalesce = folder, cap, segment, coalesce
        self.events = events
        self._segment_events = max(1, events // SEGMENTS_PER_BOUND) if events else None
        self.start = now
        self.timeline = Timeline(model.cols, model.rows, source=self)
        self.keyframes = LiveKeyframes(self.timeline, model, spacing=spacing, limit=keyframes)
        self.dropped = 0
        """Spool files deleted to keep within ``cap``."""
        self.error: OSError | None = None
        """Why the history stopped (a spool file could not be written): it then keeps nothing
        more, and the session goes on."""
        self._files = threading.Lock()
        """Held to read the spool files (a search's thread) and to delete or add one."""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        secrets = [secret for secret in secrets if secret]
        self._redactor = Redactor(secrets, shapes=redact) if redact or secrets else None
        self._segments: list[_Segment] = []
        self._offset = 0
        self._line = 0
        self._last = 0.0
        self._pending: list[bytes] = []
        self._pending_size = 0
        self._pending_since = self._pending_last = 0.0
        self._counted = 0
        """The timeline's output bytes when the keyframes were last told of its events."""
        self._open_segment()
        header = Header(version=2, cols=model.cols, rows=model.rows, term_type="xterm-256color")
        self._writer = CastWriter(self, header)

    # -- what the core hands over ------------------------------------------------------------------

    def fed(
        self,
        data: bytes,
        model: TerminalModel,
        now: float,
        whole: Callable[[], object] | None = None,
    ) -> None:
        """``model`` was fed ``data`` at ``now``.

        Output is gathered for :data:`COALESCE` seconds into one event, timed at its last chunk.
        The model has been fed ``data`` already, so a keyframe is taken only when the event
        written holds it too (a keyframe shows the screen after every event before it); and
        ``whole()`` is called first, where given, to paint what a tile drew itself."""
        if self.error is not None:
            return
        time = self._time(now)
        if self._pending and time - self._pending_since >= self.coalesce:
            self._write_pending(None, release=time - self._pending_last >= HOLD_LIMIT)
        self._pending.append(data)
        self._pending_size += len(data)
        if len(self._pending) == 1:
            self._pending_since = time
        self._pending_last = time
        if self._keyframe_due(self._pending_size, time):
            if whole is not None:
                whole()
            self._write_pending(model)

    def resized(self, model: TerminalModel, now: float) -> None:
        """``model`` has a new size (and nothing on it yet): a resize event and a keyframe."""
        if self.error is not None:
            return
        self._write_pending(None, release=True)
        time = self._time(now)
        self._append(Event(time, RESIZE, format_size(model.cols, model.rows)))
        self._keyframe(model)

    def marker(self, label: str, now: float) -> None:
        """A marker (its label from :mod:`observer.asciicast.markers`) at ``now``."""
        if self.error is not None:
            return
        self._write_pending(None, release=True)
        self._append(Event(self._time(now), MARKER, label))

    def flush(self, model: TerminalModel, now: float) -> None:
        """Write the output gathered so far as one event (before a seek reads the history)."""
        if self.error is not None:
            return
        time = self._time(now)
        self._write_pending(model, release=time - self._pending_last >= HOLD_LIMIT)

    @property
    def duration(self) -> float:
        """Seconds from the start to the last event written."""
        return self.timeline.duration

    def time_of(self, now: float) -> float:
        """``now`` (monotonic) on the history's timeline."""
        return max(0.0, now - self.start)

    # -- writing -------------------------------------------------------------------------------

    def _time(self, now: float) -> float:
        self._last = max(self._last, now - self.start)
        return self._last

    def _write_pending(self, model: TerminalModel | None, *, release: bool = False) -> None:
        """One output event of what was gathered; a keyframe after it when due and whole.

        Text the redactor holds back (the end of what may be a secret) goes with it when a
        keyframe is due, or with ``release``: :data:`~observer.recording.recorder.HOLD_LIMIT`
        passed without more output, a marker or a resize, as a recording writes it."""
        if not self._pending:
            return
        data = b"".join(self._pending)
        self._pending, self._pending_size, self._pending_since = [], 0, 0.0
        text = self._decoder.decode(data)
        time = self._pending_last
        due = model is not None and self._keyframe_due(len(data), time)
        if self._redactor is not None:
            text = self._redactor.feed(text)
            if due or release:
                text += self._redactor.flush()
        if text:
            self._append(Event(time, OUTPUT, text))
        whole = not self._decoder.getstate()[0]
        if model is not None and whole and not (self._redactor and self._redactor.holding):
            rotate = self._segment_full()
            if rotate:
                try:
                    self._rotate()
                except OSError as error:  # a full disk: the history stops, the session goes on
                    self.error = error
                    return
            self._keyframe(model, force=rotate)

    def _segment_full(self) -> bool:
        """Whether the current spool file holds its bytes, or its share of the events bound."""
        last = self._segments[-1]
        if last.size >= self.segment:
            return True
        per = self._segment_events
        return per is not None and len(self.timeline) - last.first >= per

    def _keyframe_due(self, waiting: int, time: float) -> bool:
        """Whether a keyframe is due at ``time``, with ``waiting`` bytes gathered (and those
        written since the keyframes were last told: events written while the model was ahead
        of them count towards the budget too)."""
        if time - self.keyframes.keyframes[-1].time < KEYFRAME_EVERY:
            return False
        if self._segment_full():  # the next spool file starts with a keyframe
            return True
        return self.keyframes.due(self.timeline.output_bytes - self._counted + waiting, time)

    def _keyframe(self, model: TerminalModel, *, force: bool = False) -> None:
        """The events written so far end where ``model`` is: a keyframe there if due."""
        self.keyframes.appended(model, force=force)
        self._counted = self.timeline.output_bytes

    def _append(self, event: Event) -> None:
        self._writer.write_event(event.time, event.code, event.data, decoded=True)
        span = (self._offset - self._line, self._line) if event.code == OUTPUT else None
        self.timeline.append(event, span)

    def write(self, line: str) -> None:
        """The writer's one line (a ``TextSink``): into the current spool file."""
        size = len(line) if line.isascii() else len(line.encode("utf-8"))
        segment = self._segments[-1]
        segment.spool.write(line)
        segment.size += size
        self._offset += size
        self._line = size

    # -- files ---------------------------------------------------------------------------------

    def _open_segment(self) -> None:
        path = self.folder / f"history-{len(self._segments) + self.dropped:06d}.cast"
        # 0600, as recordings: the history holds whatever the agent showed.
        writer = io.FileIO(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w")
        reader = os.open(path, os.O_RDONLY)
        first = len(self.timeline)
        spool = Spool(writer, interval=WRITE_EVERY)
        self._segments.append(_Segment(path, self._offset, first, spool, reader))

    def _rotate(self) -> None:
        """Start the next spool file; delete the oldest ones past the cap."""
        with self._files:
            self._segments[-1].spool.close()
            self._open_segment()
            self._drop_oldest()

    def _drop_oldest(self) -> None:
        while len(self._segments) > 1 and self._over_bound():
            oldest = self._segments.pop(0)
            self._close(oldest)
            self.dropped += 1
            start = self.keyframes.forget_before(self._segments[0].first)
            # With an events bound each drop forgets a bounded share: memory stays at the bound.
            if start > len(self.timeline) // 2 or (self.events and start):
                self._compact(start)

    def _over_bound(self) -> bool:
        """More bytes than ``cap``, or more events than ``events``, are kept."""
        if sum(s.size for s in self._segments) > self.cap:
            return True
        kept = len(self.timeline) - self._segments[0].first
        return self.events is not None and kept > self.events

    def _compact(self, start: int) -> None:
        """Forget the events before ``start`` in memory too (more than half the timeline could
        no longer be shown): memory stays bounded by what the disk cap keeps. Views holding the
        old timeline and keyframes go on reading them; :attr:`timeline` is a new object."""
        self.timeline = self.timeline.since(start)
        self.keyframes = self.keyframes.rebased(self.timeline, start)
        for segment in self._segments:
            segment.first -= start

    def read(self, offset: int, size: int) -> bytes:
        """``size`` bytes of the lines from global ``offset`` (a ``SpanSource``).

        Raises:
            OSError: A spool file could not be written or read.
        """
        with self._files:
            return self._read(offset, size)

    def _read(self, offset: int, size: int) -> bytes:
        parts = []
        for segment in self._segments:
            end = segment.start + segment.size
            if offset >= end or offset + size <= segment.start:
                continue
            if segment is self._segments[-1]:
                segment.spool.flush()
            begin = max(offset, segment.start)
            count = min(offset + size, end) - begin
            parts.append(os.pread(segment.reader, count, begin - segment.start))
        return b"".join(parts)

    def write_out(self) -> None:
        """Hand every line waiting in memory to the OS now (else the spool's thread does).

        Raises:
            OSError: A spool file could not be written.
        """
        with self._files:
            self._segments[-1].spool.flush()

    def close(self) -> None:
        """Close and delete the spool files."""
        with self._files:
            for segment in self._segments:
                self._close(segment)
            self._segments = []

    @staticmethod
    def _close(segment: _Segment) -> None:
        with contextlib.suppress(OSError):
            segment.spool.close()
        os.close(segment.reader)
        with contextlib.suppress(OSError):  # gone already, or its folder is
            segment.path.unlink()
