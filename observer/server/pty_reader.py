"""Drain a PTY from a thread of its own, so that the agent never waits for the event loop.

A Linux PTY buffers only about 20 KiB of output. Read from the event loop, the agent blocks
whenever one loop iteration takes long, and with 100 watchers an iteration (100 socket sends)
takes milliseconds. This thread spends its life in ``poll``/``read`` (both release the GIL),
collects what it read and hands it to the loop in one callback per batch. The loop takes the
batch whenever it gets to it; the thread keeps reading meanwhile, up to ``limit`` bytes not yet
taken (then it pauses, which only happens if the loop is stuck).
"""

from __future__ import annotations

import asyncio
import os
import select
import threading
from collections.abc import Callable

READ_SIZE = 256 * 1024


class PtyReader:
    """Reads ``fd`` until EOF or :meth:`stop`; calls ``on_output(data)``/``on_eof()`` in ``loop``.

    Args:
        fd: the PTY master (non-blocking).
        loop: the event loop that owns the session.
        on_output: called in the loop with every batch, in order.
        on_eof: called in the loop once, after the last batch, when the PTY is closed.
        limit: bytes read but not yet taken by the loop before the thread pauses.
    """

    def __init__(
        self,
        fd: int,
        loop: asyncio.AbstractEventLoop,
        on_output: Callable[[bytes], None],
        on_eof: Callable[[], None],
        limit: int = 16 * 1024 * 1024,
    ) -> None:
        self._fd = fd
        self._loop = loop
        self._on_output = on_output
        self._on_eof = on_eof
        self._limit = limit
        self._lock = threading.Lock()
        self._chunks: list[bytes] = []
        self._size = 0
        self._scheduled = False
        self._eof = False
        self._stopping = threading.Event()
        self._room = threading.Event()
        self._room.set()
        self._thread = threading.Thread(target=self._run, name=f"pty-reader-{fd}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Ask the thread to end (it notices within 50 ms) and wait for it."""
        self._stopping.set()
        self._room.set()
        self._thread.join(timeout=1.0)

    def drain_now(self) -> None:
        """Deliver what the thread has read so far (called in the loop, e.g. at child exit)."""
        self._deliver()

    def _run(self) -> None:
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)
        while not self._stopping.is_set():
            self._room.wait()
            if not poller.poll(50):
                continue
            try:
                data = os.read(self._fd, READ_SIZE)
            except BlockingIOError:
                continue
            except OSError:  # EIO: every slave fd is closed (Linux)
                data = b""
            self._hand_over(data)
            if not data:
                return

    def _hand_over(self, data: bytes) -> None:
        with self._lock:
            if data:
                self._chunks.append(data)
                self._size += len(data)
                if self._size >= self._limit:
                    self._room.clear()
            else:
                self._eof = True
            if self._scheduled:
                return
            self._scheduled = True
        try:
            self._loop.call_soon_threadsafe(self._deliver)
        except RuntimeError:  # the loop is closed: nobody is listening any more
            self._stopping.set()

    def _deliver(self) -> None:
        with self._lock:
            chunks, self._chunks = self._chunks, []
            self._size = 0
            self._scheduled = False
            eof, self._eof = self._eof, False
            self._room.set()
        if chunks:
            self._on_output(chunks[0] if len(chunks) == 1 else b"".join(chunks))
        if eof:
            self._on_eof()
