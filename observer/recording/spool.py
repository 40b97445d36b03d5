"""Hand a recording's lines to the operating system in batches, never later than a deadline.

Writing every event line with its own ``write()`` system call (line buffering) made the recorder
spend about 40 % of its time in the kernel on a busy session. The spool keeps lines in a list and
writes them in one call: when the recorder asks (markers, resizes, exit, close), and otherwise every
``FLUSH_INTERVAL`` seconds, from a thread of its own, so the deadline holds whatever the caller
does (an event loop busy for a second, a program that records one line and then waits).

Appending a line is a bare ``list.append`` (one atomic operation, no lock: the recorder calls it
for every chunk of a live session). Only the consumers — the thread and :meth:`Spool.flush` — take
a lock; each takes the first ``n`` lines and deletes exactly those, so lines appended meanwhile
wait for the next batch.

What a kill costs: lines the operating system has are in the file even if the process is killed
with ``SIGKILL`` (they are in the page cache); lines still in the spool are lost. So a killed
recorder loses at most the events of its last ``FLUSH_INTERVAL`` seconds (the promise is at most
100 ms), and at worst its last line is cut mid-write, which readers treat as absent.
"""

from __future__ import annotations

import errno
import io
import os
import threading
from collections.abc import Callable
from typing import Final

FLUSH_INTERVAL: Final = 0.05
"""Longest time, in seconds, a line waits in memory before it is handed to the OS."""


class Spool:
    """Lines on their way to a binary file (a text sink for :class:`~observer.asciicast.CastWriter`).

    Args:
        file: An open unbuffered binary file; the spool writes to it from its own thread too, and
            closes it in :meth:`close`.
        interval: The deadline (seconds) for a line to reach the OS.
        fsync: Called with the file descriptor when :meth:`sync_soon` asked for it.

    Attributes:
        write: Queue a text of whole lines (``list.append`` of the waiting lines).
        error: The first write error of the flushing thread; :meth:`flush` raises it, and the
            recorder checks it before every event, so it reaches the caller.
    """

    def __init__(
        self,
        file: io.FileIO,
        *,
        interval: float = FLUSH_INTERVAL,
        fsync: Callable[[int], None] = os.fsync,
    ) -> None:
        self.file = file
        self.interval = interval
        self.error: OSError | None = None
        self.lines: list[str] = []
        self.write = self.lines.append
        self._fsync = fsync
        self._sync_wanted = False
        self._closing = False
        self._consume = threading.Lock()
        self._wake = threading.Event()
        self._thread = threading.Thread(target=self._run, name="recording spool", daemon=True)
        self._thread.start()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run."""
        return self.file.closed

    def flush(self) -> None:
        """Hand every waiting line to the OS now.

        Raises:
            OSError: Writing failed (now or earlier in the flushing thread).
        """
        with self._consume:
            if self.error is not None:
                raise self.error
            self._write_waiting()

    def sync_soon(self) -> None:
        """Hand every waiting line to the OS now, and have the thread ``fsync`` the file next.

        The caller does not wait for the disk (an fsync can take tens of milliseconds on a busy
        one); :meth:`close` waits for a requested fsync to finish.

        Raises:
            OSError: Writing failed (now or earlier in the flushing thread).
        """
        self.flush()
        self._sync_wanted = True
        self._wake.set()

    def close(self) -> None:
        """Write what waits, stop the thread and close the file; further calls do nothing.

        Raises:
            OSError: The last write failed (the file is closed all the same).
        """
        if self.file.closed:
            return
        self._closing = True
        self._wake.set()
        self._thread.join()
        try:
            self.flush()
        finally:
            self.file.close()

    def _run(self) -> None:
        while True:
            closing = self._closing  # read first: after close() asks, one last pass runs
            if not closing:
                self._wake.wait(self.interval)
                self._wake.clear()
            with self._consume:
                try:
                    self._write_waiting()
                except OSError as error:
                    self.error = self.error or error
            if self._sync_wanted:
                self._sync_wanted = False
                try:  # without the lock: flushes never wait for the disk
                    self._fsync(self.file.fileno())
                except OSError as error:
                    self.error = self.error or error
            if closing:
                return

    def _write_waiting(self) -> None:
        """Write the waiting lines with as few system calls as the OS allows (lock held)."""
        count = len(self.lines)
        if not count:
            return
        # The writer replaced lone surrogates, so every line encodes.
        data = memoryview("".join(self.lines[:count]).encode("utf-8"))
        del self.lines[:count]  # lines appended since stay, in order, for the next batch
        while data:
            written = self.file.write(data)
            if not written:
                raise OSError(errno.EIO, "the file accepted no more bytes")
            data = data[written:]
