"""Drain a PTY from a thread of its own, so that the agent never waits for the event loop.

A Linux PTY buffers only about 20 KiB of output. Read from the event loop, the agent blocks
whenever one loop iteration takes long, and with 100 watchers an iteration (100 socket sends)
takes milliseconds. This thread spends its life in ``poll``/``read`` (both release the GIL),
collects what it read and hands it to the loop in one callback per batch (small output such as
an echo at once; while output streams, at most one batch every :attr:`PtyReader.interval`,
2 ms: the model gets it that soon whatever the audience, while clients get their output in
batches that grow with their number, :func:`batch_interval`, see :mod:`observer.server.fanout`).
The loop takes the batch whenever it
gets to it; the thread keeps reading meanwhile, up to ``limit`` bytes not yet
taken (then it pauses; the session sets that to its model's backlog, so a loop busy with many
clients never lets the model fall further behind than the ring holds). Each time the PTY is
readable the thread reads until it has nothing more (or 64 KiB), into one buffer.
"""

from __future__ import annotations

import asyncio
import os
import select
import threading
import time
from collections.abc import Callable
from typing import cast

from observer.server.echo import input_shown

READ_SIZE = 64 * 1024
"""Most bytes read per readiness (a Linux PTY hands out at most 4 KiB per ``read``)."""
BATCH_INTERVAL = 0.002
MAX_INTERVAL = 0.016
"""A streaming batch is never held longer than this (about one frame of a 60 Hz display)."""
PER_CLIENT_INTERVAL = 0.0001
SMALL_BATCH = 2048


def batch_interval(clients: int) -> float:
    """How long streaming output may collect before it goes to ``clients`` clients (the
    fan-out costs per frame and per client, not per byte)."""
    return min(MAX_INTERVAL, max(BATCH_INTERVAL, clients * PER_CLIENT_INTERVAL))


class PtyReader:
    """Reads ``fd`` until EOF or :meth:`stop`; calls ``on_output(data)``/``on_eof()`` in ``loop``.

    Args:
        fd: the PTY master (non-blocking).
        loop: the event loop that owns the session.
        on_output: called in the loop with every batch, in order.
        on_eof: called in the loop once, after the last batch, when the PTY is closed.
        limit: bytes read but not yet taken by the loop before the thread pauses.
        on_echo: called in the loop, in stream order, when the terminal starts or stops showing
            what is typed (:func:`~observer.server.echo.input_shown`). The thread looks after
            every read and every 50 ms when idle: a change lands after the bytes read before it
            was seen (a prompt printed before echo went off comes first, as a reader sees it).
    """

    def __init__(
        self,
        fd: int,
        loop: asyncio.AbstractEventLoop,
        on_output: Callable[[bytes], None],
        on_eof: Callable[[], None],
        *,
        limit: int = 16 * 1024 * 1024,
        on_echo: Callable[[bool], None] | None = None,
    ) -> None:
        self._fd = fd
        self._on_echo = on_echo
        self._shown = True
        self._marks = 0
        """Echo changes among the chunks (most batches have none)."""
        self._loop = loop
        self._on_output = on_output
        self._on_eof = on_eof
        self._limit = limit
        self._lock = threading.Lock()
        self._chunks: list[bytes | bool] = []
        self._size = 0
        self._scheduled = False
        self._eof = False
        self._last_delivery = float("-inf")
        self._last_size = 0
        self.interval = BATCH_INTERVAL
        """Least time between two streaming batches (echoes and other small output go at once)."""
        self._stopping = threading.Event()
        self._room = threading.Event()
        self._room.set()
        self._unpaused = threading.Event()
        self._unpaused.set()
        self._thread = threading.Thread(target=self._run, name=f"pty-reader-{fd}", daemon=True)
        self._thread.start()

    def pause(self) -> None:
        """Stop reading the PTY until :meth:`resume` (the program then blocks on its writes)."""
        self._unpaused.clear()

    def resume(self) -> None:
        """Read the PTY again after :meth:`pause`."""
        self._unpaused.set()

    def stop(self) -> None:
        """Ask the thread to end (it notices within 50 ms) and wait for it."""
        self._stopping.set()
        self._room.set()
        self._unpaused.set()
        self._thread.join(timeout=1.0)

    def drain_now(self) -> None:
        """Deliver what the thread has read so far (called in the loop, e.g. at child exit)."""
        self._deliver(force=True)

    def _run(self) -> None:
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)
        # One buffer for the thread's life: a fresh 64 KiB object per 4 KiB read would cost an
        # allocation (often an mmap) and a shrink each time, and fragment the heap.
        buffer = bytearray(READ_SIZE)
        view = memoryview(buffer)
        while not self._stopping.is_set():
            self._room.wait()
            self._unpaused.wait()
            if poller.poll(50):
                size, ended = self._read_into(view)
                if size:
                    self._hand_over(bytes(view[:size]))
                if ended:
                    self._hand_over(b"")
                    return
            if self._on_echo is not None:
                shown = input_shown(self._fd)
                if shown is not None and shown != self._shown:
                    self._shown = shown
                    self._hand_over(shown)

    def _read_into(self, view: memoryview) -> tuple[int, bool]:
        """Read until the PTY has nothing more right now or ``view`` is full: (size, EOF)."""
        size = 0
        while size < len(view):
            try:
                count = os.readv(self._fd, [view[size:]])
            except BlockingIOError:
                return size, False
            except OSError:  # EIO: every slave fd is closed (Linux)
                return size, True
            if not count:
                return size, True
            size += count
        return size, False

    def _hand_over(self, data: bytes | bool) -> None:
        with self._lock:
            if isinstance(data, bool):
                self._chunks.append(data)
                self._marks += 1
            elif data:
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

    def _deliver(self, force: bool = False) -> None:
        # Echoes and other small output go out at once; a stream (the last batch was large) is
        # handed over at most every `interval`, so that each client gets fewer, larger
        # frames: with many watchers the cost is per send, not per byte.
        now = time.monotonic()
        wait = self._last_delivery + self.interval - now
        if wait > 0 and self._last_size >= SMALL_BATCH and not force:
            self._loop.call_later(wait, self._deliver)
            return
        self._last_delivery = now
        with self._lock:
            self._last_size = self._size
            chunks, self._chunks = self._chunks, []
            marks, self._marks = self._marks, 0
            self._size = 0
            self._scheduled = False
            eof, self._eof = self._eof, False
            self._room.set()
        if marks:
            self._deliver_in_order(chunks)
        elif chunks:
            data = cast("list[bytes]", chunks)
            self._on_output(data[0] if len(data) == 1 else b"".join(data))
        if eof:
            self._on_eof()

    def _deliver_in_order(self, chunks: list[bytes | bool]) -> None:
        """Output and echo changes, each change after the bytes read before it."""
        pending: list[bytes] = []
        for chunk in chunks:
            if isinstance(chunk, bytes):
                pending.append(chunk)
                continue
            if pending:
                self._on_output(b"".join(pending))
                pending = []
            assert self._on_echo is not None
            self._on_echo(chunk)
        if pending:
            self._on_output(b"".join(pending))
