"""The last few MiB of a session's output, addressed by stream offset.

Every output byte of a session has an offset (0 for the first byte the PTY produced). A client that
reconnects with ``since=<offset>`` gets the bytes from there if the ring still holds them; a client
that joins late gets a snapshot at the model's offset followed by the bytes after it.

The bytes live in one anonymous memory map of the ring's capacity, written round and round, not
in the reads' own ``bytes`` objects. Kept as objects, the ring held thousands of live blocks of a
few KiB each in C malloc's heap (an agent that redraws ten times a second writes one per frame),
freed oldest first while the same heap served the reads, frames and rows of every session in
between: the holes they left rarely fit what came next, so the heap, and the server's RSS, grew
for hours though what it held did not. A map is outside malloc's heap, costs exactly its
capacity at most, and its pages are only touched (resident) as output reaches them: an idle
session's ring costs next to nothing.
"""

from __future__ import annotations

import mmap


class OutputRing:
    """Append-only byte stream that keeps the newest ``capacity`` bytes, in a memory map of
    exactly that size (allocated once; a page is resident once output reached it)."""

    def __init__(self, capacity: int) -> None:
        if capacity <= 0:
            raise ValueError("ring capacity must be positive")
        self.capacity = capacity
        self._buffer = mmap.mmap(-1, capacity)
        self.start = 0
        """Offset of the oldest byte still held."""
        self.end = 0
        """Offset one past the newest byte: the total number of bytes ever appended."""

    def __len__(self) -> int:
        return self.end - self.start

    def append(self, data: bytes) -> None:
        """Add ``data`` at offset :attr:`end`; forget the oldest bytes beyond the capacity."""
        if not data:
            return
        self.end += len(data)
        if len(data) > self.capacity:
            data = data[-self.capacity :]
        at = (self.end - len(data)) % self.capacity
        first = min(len(data), self.capacity - at)
        self._buffer[at : at + first] = data[:first]
        if first < len(data):
            self._buffer[: len(data) - first] = data[first:]
        self.start = max(self.start, self.end - self.capacity)

    def holds(self, offset: int) -> bool:
        """Whether the bytes from ``offset`` to :attr:`end` are all still here."""
        return self.start <= offset <= self.end

    def since(self, offset: int) -> bytes:
        """The bytes from ``offset`` to :attr:`end`.

        Raises:
            ValueError: the ring no longer (or never) held ``offset``.
        """
        if not self.holds(offset):
            raise ValueError(f"offset {offset} is outside [{self.start}, {self.end}]")
        at, size = offset % self.capacity, self.end - offset
        first = min(size, self.capacity - at)
        head = self._buffer[at : at + first]
        return head if first == size else head + self._buffer[: size - first]
