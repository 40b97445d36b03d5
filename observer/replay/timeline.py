"""The events of one recording, held compactly and appended to while it loads.

A player must start before a long file is read to the end, so a :class:`Timeline` is filled in
batches by a loader (in the app, a thread worker) while the UI already reads from it. Appending
only ever adds to the end, and every list is replaced or grown with single operations, so a reader
on another thread sees a consistent prefix (CPython's list append and attribute assignment are
atomic).

Only what changes the screen is kept as bytes (output ``o``, UTF-8 encoded once, not at every
seek); resizes are kept as ``(cols, rows)``; markers as their label. Input (``i``), exit (``x``)
and unknown codes are kept too (step-by-step playback and the export show them) but never feed
the terminal.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass

from observer.asciicast import MARKER, OUTPUT, RESIZE, Event, parse_size

Payload = bytes | str | tuple[int, int]


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

    Attributes:
        complete: Set by the loader once the last event is in.
        markers: Every marker so far, in time order.
        output_bytes: Total bytes of output so far.
    """

    def __init__(self, cols: int, rows: int) -> None:
        self.cols = cols
        self.rows = rows
        self.complete = False
        self.markers: list[Marker] = []
        self.output_bytes = 0
        self._times: array[float] = array("d")
        self._codes: list[str] = []
        self._payloads: list[Payload] = []

    def __len__(self) -> int:
        return len(self._payloads)

    def append(self, event: Event) -> None:
        """Add the next event (times must not decrease; the reader guarantees it).

        Raises:
            ValueError: A resize event's size is not ``COLSxROWS`` within limits.
        """
        payload: Payload
        if event.code == OUTPUT:
            payload = event.data.encode("utf-8", "replace")
            self.output_bytes += len(payload)
        elif event.code == RESIZE:
            payload = parse_size(event.data)
        else:
            payload = event.data
        time = max(event.time, self._times[-1]) if self._times else max(0.0, event.time)
        index = len(self._payloads)
        if event.code == MARKER:
            self.markers.append(Marker(time, event.data, index))
        # The payload goes in last: readers size themselves by len(), i.e. by _payloads.
        self._times.append(time)
        self._codes.append(event.code)
        self._payloads.append(payload)

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
        return self._codes[index]

    def payload(self, index: int) -> Payload:
        """Output bytes, a ``(cols, rows)`` resize, or the event's text."""
        return self._payloads[index]

    def count_at(self, time: float) -> int:
        """How many events happened at or before ``time`` (the screen at ``time`` shows them)."""
        return bisect_right(self._times, time, 0, len(self))

    def count_before(self, time: float) -> int:
        """How many events happened strictly before ``time``."""
        return bisect_left(self._times, time, 0, len(self))

    def output(self, start: int, stop: int) -> bytes:
        """All output bytes of events ``start`` up to (not including) ``stop``."""
        codes, payloads = self._codes, self._payloads
        return b"".join(
            payload
            for code, payload in zip(codes[start:stop], payloads[start:stop], strict=True)
            if code == OUTPUT and isinstance(payload, bytes)
        )

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


__all__ = ["MARKER", "OUTPUT", "RESIZE", "Marker", "Payload", "Timeline", "size_of"]
