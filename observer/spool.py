"""Hand a recording's lines to the operating system in batches, never later than a deadline.

Writing every event line with its own ``write()`` system call (line buffering) made the recorder
spend about 40 % of its time in the kernel on a busy session. The spool keeps lines in memory and
writes them in one call when ``FLUSH_BYTES`` have gathered, when the recorder asks (markers, exit,
close), and otherwise at most ``FLUSH_INTERVAL`` seconds after the first waiting line arrived — the
last from a thread of its own, so the deadline holds whatever the caller does (an event loop busy
for a second, a program that records one line and then waits for minutes).

What a kill costs: lines the operating system has are in the file even if the process is killed
with ``SIGKILL`` (they are in the page cache); lines still in the spool are lost. So a killed
recorder loses at most the events of its last ``FLUSH_INTERVAL`` seconds (issue: at most 100 ms),
and at worst its last line is cut mid-write, which readers treat as absent.
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
FLUSH_BYTES: Final = 64 * 1024
"""Characters gathered that are written at once, without waiting for the deadline."""


class Spool:
    """Lines on their way to a binary file (a text sink for :class:`~observer.asciicast.CastWriter`).

    Args:
        file: An open binary file; the spool writes to it from its own thread too, and closes it
            in :meth:`close`.
        interval: The deadline (seconds) for a line to reach the OS.

    Attributes:
        error: The first write error of the flushing thread, raised by the next :meth:`write` or
            :meth:`flush`, so it reaches the caller.
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
        self._fsync = fsync
        self._sync_wanted = False
        self._lines: list[str] = []
        self._size = 0
        self._closing = False
        # Writers take the plain lock (its C __enter__ is cheaper than the Condition's).
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._thread = threading.Thread(target=self._run, name="recording spool", daemon=True)
        self._thread.start()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run."""
        return self.file.closed

    def write(self, text: str) -> None:
        """Queue ``text`` (whole lines) for the file.

        Raises:
            OSError: An earlier write of the flushing thread failed.
        """
        with self._lock:
            if self.error is not None:
                raise self.error
            if not self._lines:
                self._ready.notify()  # start the deadline
            self._lines.append(text)
            self._size += len(text)
            if self._size >= FLUSH_BYTES:
                self._write_waiting()

    def flush(self) -> None:
        """Hand every waiting line to the OS now.

        Raises:
            OSError: Writing failed (now or in the flushing thread).
        """
        with self._ready:
            if self.error is not None:
                raise self.error
            self._write_waiting()

    def sync_soon(self) -> None:
        """Hand every waiting line to the OS now, and have the thread ``fsync`` the file next.

        The caller does not wait for the disk (an fsync can take tens of milliseconds on a busy
        one); :meth:`close` waits for a requested fsync to finish.

        Raises:
            OSError: Writing failed (now or in the flushing thread).
        """
        with self._lock:
            if self.error is not None:
                raise self.error
            self._write_waiting()
            self._sync_wanted = True
            self._ready.notify()

    def close(self) -> None:
        """Write what waits, stop the thread and close the file; further calls do nothing.

        Raises:
            OSError: The last write failed (the file is closed all the same).
        """
        with self._ready:
            if self.file.closed:
                return
            self._closing = True
            self._ready.notify()
        self._thread.join()
        try:
            self.flush()
        finally:
            self.file.close()

    def _run(self) -> None:
        with self._ready:
            while True:
                if self._sync_wanted:
                    self._sync_unlocked()
                elif self._closing:
                    return
                elif not self._lines:
                    self._ready.wait()
                else:
                    self._ready.wait(self.interval)
                    try:
                        self._write_waiting()
                    except OSError as error:
                        self.error = self.error or error
                        self._lines.clear()  # reported to the caller; keep memory bounded
                        self._size = 0

    def _sync_unlocked(self) -> None:
        """fsync without holding the lock, so writers never wait for the disk (lock held)."""
        self._sync_wanted = False
        self._lock.release()
        try:
            self._fsync(self.file.fileno())
        except OSError as error:
            self.error = self.error or error
        finally:
            self._lock.acquire()

    def _write_waiting(self) -> None:
        """Write the waiting lines with as few system calls as the OS allows (lock held)."""
        if not self._lines:
            return
        # The writer replaced lone surrogates, so every line encodes.
        data = memoryview("".join(self._lines).encode("utf-8"))
        self._lines.clear()
        self._size = 0
        while data:
            written = self.file.write(data)
            if not written:
                raise OSError(errno.EIO, "the file accepted no more bytes")
            data = data[written:]
