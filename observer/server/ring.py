"""The last few MiB of a session's output, addressed by stream offset.

Every output byte of a session has an offset (0 for the first byte the PTY produced). A client that
reconnects with ``since=<offset>`` gets the bytes from there if the ring still holds them; a client
that joins late gets a snapshot at the model's offset followed by the bytes after it.
"""

from __future__ import annotations

from collections import deque


class OutputRing:
    """Append-only byte stream that forgets its oldest chunks beyond ``capacity`` bytes.

    Chunks are kept whole (dropping a chunk is O(1), trimming a bytearray is a memmove), so the
    ring holds at least the last ``capacity`` bytes and at most one chunk more.
    """

    def __init__(self, capacity: int) -> None:
        if capacity <= 0:
            raise ValueError("ring capacity must be positive")
        self.capacity = capacity
        self._chunks: deque[bytes] = deque()
        self._size = 0
        self.start = 0
        """Offset of the oldest byte still held."""
        self.end = 0
        """Offset one past the newest byte: the total number of bytes ever appended."""

    def __len__(self) -> int:
        return self._size

    def append(self, data: bytes) -> None:
        """Add ``data`` at offset :attr:`end`; forget whole old chunks beyond the capacity."""
        if not data:
            return
        self._chunks.append(data)
        self._size += len(data)
        self.end += len(data)
        while self._size - len(self._chunks[0]) >= self.capacity:
            dropped = self._chunks.popleft()
            self._size -= len(dropped)
            self.start += len(dropped)

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
        skip = offset - self.start
        parts: list[bytes] = []
        for chunk in self._chunks:
            if skip >= len(chunk):
                skip -= len(chunk)
                continue
            parts.append(chunk[skip:] if skip else chunk)
            skip = 0
        return b"".join(parts)
