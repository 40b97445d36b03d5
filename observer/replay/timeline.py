"""The events of one recording, held compactly and appended to while it loads.

A player must start before a long file is read to the end, so a :class:`Timeline` is filled in
batches by a loader (in the app, a thread worker) while the UI already reads from it. Appending
only ever adds to the end, and every list is replaced or grown with single operations, so a reader
on another thread sees a consistent prefix (CPython's list append and attribute assignment are
atomic).

Output (``o``) is what takes the room, so with a :class:`SpanSource` (the recording's file) a
timeline keeps only where each output event's line lies in the file — under 32 bytes an event
with its time and code, whatever the output's size — and reads the data back when a seek, the keyframe index or a search
needs it (a range is read in one go: a seek reads the few hundred KiB after its keyframe). So a
1 GB recording does not need 1 GB of memory. Without a source (a v1 document, events made in
memory) output is kept as the text it was read as. Resizes are kept as ``(cols, rows)``;
markers as their label. Input (``i``), exit (``x``) and unknown codes are kept too
(step-by-step playback and the export show them) but never feed the terminal.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

from observer.asciicast import MARKER, OUTPUT, RESIZE, Event
from observer.asciicast.spans import event_data
from observer.errors import CastFormatError
from observer.terminal.size import format_size, parse_size

Payload = bytes | str | tuple[int, int]

READ_AT_ONCE = 1024 * 1024
"""Most bytes of the file read in one call when a range of events is read back."""
MAX_CODES = 65535
"""Most kinds of events (codes) one timeline numbers (an unsigned 16-bit number each)."""


class SpanSource(Protocol):
    """Where a timeline reads output back: the recording's bytes (e.g. its file)."""

    def read(self, offset: int, size: int) -> bytes:
        """``size`` bytes from ``offset`` (fewer only at the end of the file)."""


@dataclass(frozen=True, slots=True)
class Marker:
    """A marker of the recording.

    Attributes:
        time: Seconds on the (idle-capped) timeline.
        label: The marker's text (untrusted: show it as text).
        index: Position of the marker event among all events.
    """

    time: float
    label: str
    index: int


class Timeline:
    """Append-only events of a recording, searchable by time.

    Args:
        cols: Terminal width at the start (the header's).
        rows: Terminal height at the start.
        source: The recording's bytes, for output events appended with their line's span.

    Attributes:
        complete: Set by the loader once the last event is in.
        markers: Every marker so far, in time order.
        output_bytes: Total bytes of output so far.
    """

    def __init__(self, cols: int, rows: int, source: SpanSource | None = None) -> None:
        self.cols = cols
        self.rows = rows
        self.source = source
        self.complete = False
        self.markers: list[Marker] = []
        self.output_bytes = 0
        self._times: array[float] = array("d")
        """Each event's time; appended last, so readers size themselves by it."""
        self._codes: array[int] = array("H")
        """Each event's code, as its number in :attr:`_code_names`."""
        self._code_names: list[str] = []
        self._code_numbers: dict[str, int] = {}
        self._payloads: dict[int, Payload] = {}
        """By event: payloads kept in memory; the others are read back from ``source`` at
        the span below (a dict: most events of a long recording are spans)."""
        self._offsets: array[int] = array("q")
        self._lengths: array[int] = array("I")
        """Line length in the file, 0 for events kept in memory."""
        self._sizes: array[int] = array("I")
        """Output bytes of each event (0 for other codes)."""

    def __len__(self) -> int:
        return len(self._times)

    def append(self, event: Event, span: tuple[int, int] | None = None) -> None:
        """Add the next event (times must not decrease; the reader guarantees it).

        Args:
            event: The event.
            span: ``(offset, length)`` of its line in :attr:`source`; an output event with a
                span is read back from there instead of being kept in memory.

        Raises:
            ValueError: A resize event's size is not ``COLSxROWS`` within limits.
        """
        payload: Payload | None
        size = offset = length = 0
        if event.code == OUTPUT:
            payload = event.data
            size = len(payload) if payload.isascii() else len(payload.encode("utf-8", "replace"))
            self.output_bytes += size
            if span is not None and self.source is not None:
                payload = None
                offset, length = span
        elif event.code == RESIZE:
            payload = parse_size(event.data)
        else:
            payload = event.data
        time = max(event.time, self._times[-1]) if self._times else max(0.0, event.time)
        index = len(self._times)
        code = self._code_number(event.code)
        if event.code == MARKER:
            self.markers.append(Marker(time, event.data, index))
        # The time goes in last: readers size themselves by len(), i.e. by _times.
        if payload is not None:
            self._payloads[index] = payload
        self._codes.append(code)
        self._offsets.append(offset)
        self._lengths.append(length)
        self._sizes.append(size)
        self._times.append(time)

    def extend(self, events: Iterable[Event]) -> None:
        """Append several events."""
        for event in events:
            self.append(event)

    @property
    def duration(self) -> float:
        """Time of the last event so far (0.0 when empty)."""
        count = len(self)
        return self._times[count - 1] if count else 0.0

    def time(self, index: int) -> float:
        """Time of event ``index``."""
        return self._times[index]

    def code(self, index: int) -> str:
        """Code of event ``index`` (``o r m i x`` or another kept as read)."""
        return self._code_names[self._codes[index]]

    def payload(self, index: int) -> Payload:
        """Output bytes, a ``(cols, rows)`` resize, or the event's text."""
        return next(self.payloads(index, index + 1))

    def first(self, code: str) -> int | None:
        """Index of the first event with ``code`` loaded so far, or None."""
        try:
            return self._codes.index(self._code_numbers[code], 0, len(self))
        except (KeyError, ValueError):
            return None

    def size(self, index: int) -> int:
        """Output bytes of event ``index`` (0 for other codes), without reading them back."""
        return self._sizes[index]

    def payloads(self, start: int, stop: int) -> Iterator[Payload]:
        """The payloads of events ``start`` up to (not including) ``stop``, in order.

        Raises:
            CastFormatError: The file no longer holds an event where one was read (it changed).
        """
        codes, output = self._codes, self._code_numbers.get(OUTPUT)
        for index, payload in enumerate(self._stored(start, stop), start):
            if codes[index] == output and isinstance(payload, str):
                yield payload.encode("utf-8", "replace")
            else:
                yield payload

    def events(self, start: int, stop: int) -> Iterator[Event]:
        """Events ``start`` up to (not including) ``stop`` as read (for :func:`observer.asciicast.feeding.feed`).

        Raises:
            CastFormatError: The file no longer holds an event where one was read (it changed).
        """
        codes, names, times = self._codes, self._code_names, self._times
        for index, payload in enumerate(self._stored(start, stop), start):
            if isinstance(payload, tuple):
                yield Event(times[index], names[codes[index]], format_size(*payload))
            else:
                assert isinstance(payload, str)
                yield Event(times[index], names[codes[index]], payload)

    def _stored(self, start: int, stop: int) -> Iterator[Payload]:
        """Payloads as stored: output as text, read back from the source where it is a span.

        Output kept as a span is read back a group at a time: one read for the lines that end
        within :data:`READ_AT_ONCE` bytes of the group's first, so memory stays bounded however
        long the range.
        """
        stop = min(stop, len(self))
        payloads, offsets, lengths = self._payloads, self._offsets, self._lengths
        index = start
        while index < stop:
            end, begin, finish = index, -1, 0
            while end < stop:
                if end not in payloads:
                    line_end = offsets[end] + lengths[end]
                    if begin < 0:
                        begin = offsets[end]
                    elif line_end - begin > READ_AT_ONCE:
                        break
                    finish = line_end
                end += 1
            block = self._read(begin, finish - begin) if begin >= 0 else b""
            for at in range(index, end):
                payload = payloads.get(at)
                if payload is None:
                    skip = offsets[at] - begin
                    payload = self._data(block[skip : skip + lengths[at]])
                yield payload
            index = end

    def _read(self, offset: int, size: int) -> bytes:
        assert self.source is not None  # spans are only kept with a source
        data = self.source.read(offset, size)
        if len(data) != size:
            raise self._changed()
        return data

    def _data(self, line: bytes) -> str:
        try:
            return event_data(line)
        except ValueError:
            raise self._changed() from None

    @staticmethod
    def _changed() -> CastFormatError:
        return CastFormatError(
            "the recording changed on disk while it was replayed", "open it again"
        )

    def count_at(self, time: float) -> int:
        """How many events happened at or before ``time`` (the screen at ``time`` shows them)."""
        return bisect_right(self._times, time, 0, len(self))

    def count_before(self, time: float) -> int:
        """How many events happened strictly before ``time``."""
        return bisect_left(self._times, time, 0, len(self))

    def output(self, start: int, stop: int) -> bytes:
        """All output bytes of events ``start`` up to (not including) ``stop``."""
        codes, output = self._codes[start:stop], self._code_numbers.get(OUTPUT)
        return b"".join(
            payload
            for code, payload in zip(codes, self.payloads(start, stop), strict=True)
            if code == output and isinstance(payload, bytes)
        )

    def since(self, start: int) -> Timeline:
        """A new timeline of the events from ``start`` on, numbered from 0 (live rewind drops
        what its spool no longer holds). Spans and :attr:`output_bytes` are kept as they were:
        output is read back from the same source, and byte counts stay comparable."""
        tail = Timeline(self.cols, self.rows, self.source)
        tail.complete, tail.output_bytes = self.complete, self.output_bytes
        tail.markers = [
            Marker(m.time, m.label, m.index - start) for m in self.markers if m.index >= start
        ]
        tail._times, tail._codes = self._times[start:], self._codes[start:]
        tail._code_names, tail._code_numbers = self._code_names, self._code_numbers
        tail._offsets, tail._lengths = self._offsets[start:], self._lengths[start:]
        tail._sizes = self._sizes[start:]
        tail._payloads = {i - start: p for i, p in self._payloads.items() if i >= start}
        return tail

    def _code_number(self, code: str) -> int:
        """``code``'s number in :attr:`_codes` (a new one for a code not met before).

        Raises:
            CastFormatError: The recording uses more kinds of events than a timeline numbers
                (a file made to exhaust memory: asciicast has a handful).
        """
        number = self._code_numbers.get(code)
        if number is None:
            if len(self._code_names) >= MAX_CODES:
                raise CastFormatError(
                    f"the recording uses more than {MAX_CODES} kinds of events",
                    "it was not written by a recorder; check where it came from",
                )
            number = self._code_numbers[code] = len(self._code_names)
            self._code_names.append(code)
        return number

    def marker_at(self, time: float) -> Marker | None:
        """The last marker at or before ``time``, if any."""
        markers = self.markers
        lo, hi = 0, len(markers)
        while lo < hi:
            mid = (lo + hi) // 2
            if markers[mid].time <= time:
                lo = mid + 1
            else:
                hi = mid
        return markers[lo - 1] if lo else None


def size_of(payload: Payload) -> tuple[int, int]:
    """The ``(cols, rows)`` of a resize payload."""
    assert isinstance(payload, tuple)
    return payload


__all__ = ["MARKER", "OUTPUT", "RESIZE", "Marker", "Payload", "SpanSource", "Timeline", "size_of"]
