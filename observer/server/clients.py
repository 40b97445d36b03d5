"""One connected client on the server: its protocol state and its bounded outbound queue.

Output reaches every client through its own queue, so a client that stops reading never holds up
the PTY reader or the other clients. When a queue passes its byte limit, its backlog is dropped
and the client is marked *overflowed*: when its socket drains, it gets a fresh snapshot instead of
the bytes it missed (DESIGN.md, "A slow watcher never slows the agent").
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Protocol

from observer.protocol.arbiter import ServerConnection

Message = str | bytes

MAX_BATCH = 256 * 1024
RESYNC_RETRY = 0.05
"""Consecutive output chunks are sent as one binary frame of at most this many bytes."""


class Socket(Protocol):
    """The part of a websockets connection the writer uses."""

    async def send(self, message: Message) -> None: ...


class Client:
    """A client's queue and its writer task's state.

    Args:
        socket: the WebSocket connection.
        connection: the client's protocol state (role, control mode).
        limit: queued bytes beyond which the backlog is dropped.
        resync: called (synchronously) when the client drained after overflowing; it queues a
            snapshot and returns True, or returns False to be asked again a little later.
    """

    def __init__(
        self,
        socket: Socket,
        connection: ServerConnection,
        limit: int,
        resync: Callable[[Client], bool],
    ) -> None:
        self.socket = socket
        self.connection = connection
        self.limit = limit
        self._resync = resync
        self._queue: deque[Message] = deque()
        self.queued = 0
        """Bytes (or characters) waiting in the queue."""
        self.overflowed = False
        self.overflows = 0
        """How many times this client's backlog was dropped."""
        self._wakeup = asyncio.Event()
        self.last_resync = float("-inf")
        """``time.monotonic()`` of the last snapshot sent after an overflow."""

    def push(self, message: Message) -> None:
        """Queue ``message``; past the limit, drop the whole backlog and mark the client overflowed."""
        if self.overflowed:
            return
        self._queue.append(message)
        self.queued += len(message)
        if self.queued > self.limit:
            self.drop_backlog()
            self.overflowed = True
            self.overflows += 1
        self._wakeup.set()

    def push_unbounded(self, message: Message) -> None:
        """Queue a message that must not be dropped (a snapshot right after a resync)."""
        self._queue.append(message)
        self.queued += len(message)
        self._wakeup.set()

    def drop_backlog(self) -> None:
        """Forget everything queued (the client will get a snapshot instead)."""
        self._queue.clear()
        self.queued = 0

    async def run_writer(self) -> None:
        """Send queued messages until cancelled or the connection closes (then ``send`` raises)."""
        while True:
            if not self._queue and not self.overflowed:
                self._wakeup.clear()
                await self._wakeup.wait()
            if self.overflowed:
                # The socket accepted everything we gave it: the client reads again. Queue the
                # snapshot and what followed it in one synchronous step, so nothing slips between.
                if not self._resync(self):
                    await asyncio.sleep(RESYNC_RETRY)
                    continue
                self.overflowed = False
            message = self._next_batch()
            if message is not None:
                await self.socket.send(message)

    def _next_batch(self) -> Message | None:
        if not self._queue:
            return None
        first = self._queue.popleft()
        self.queued -= len(first)
        if isinstance(first, str):
            return first
        parts = [first]
        size = len(first)
        while self._queue and isinstance(self._queue[0], bytes):
            if size + len(self._queue[0]) > MAX_BATCH:
                break
            chunk = self._queue.popleft()
            assert isinstance(chunk, bytes)
            self.queued -= len(chunk)
            parts.append(chunk)
            size += len(chunk)
        return parts[0] if len(parts) == 1 else b"".join(parts)
