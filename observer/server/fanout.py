"""Output to clients in batches, apart from the model's feed.

The PTY reader hands its reads to the loop at least every 2 ms whatever the audience, so the model parses as early with 100 watchers as with none (when the
reader's own interval grew with the audience, the model waited up to 10 ms for each batch, the
PTY reader hit its limit meanwhile and the agent waited on its writes: 100 watchers cost the
agent about a fifth of its rate for about 5 % more CPU). Clients get the output in larger
batches instead: the fan-out costs per frame and per client, not per byte, and each message
costs every watcher a wake-up and a frame to parse, so a stream (output following a large
batch) goes to them at most every 16 ms, a frame of a 60 Hz display; small output such as an
echo, and the first batch after a quiet spell (a redrawing UI's frame), go at once.
"""

from __future__ import annotations

import asyncio
import time

from observer.server.clients import (
    MAX_BATCH,
    Client,
    FanoutBudget,
    beyond_fair_share,
    beyond_token_streams,
)
from observer.server.pty_reader import BATCH_INTERVAL, MAX_INTERVAL, SMALL_BATCH, batch_interval
from observer.server.websocket_adapter import wire_frame


class Fanout:
    """Writes output to ``clients`` in batches (one shared frame per batch).

    Whatever changes a client's stream (a join, a snapshot, a broadcast frame) must call
    :meth:`flush` first, so that the output collected so far keeps its place in the stream.

    Args:
        loop: the session's event loop.
        clients: the session's clients (the same list, kept up to date by the session).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, clients: list[Client]) -> None:
        self._loop = loop
        self._clients = clients
        self.budget = FanoutBudget()
        self.cpu = 0.0
        """CPU seconds spent writing output to clients (the shared path; see ``clients.py``)."""
        self._chunks: list[bytes] = []
        self._timer: asyncio.TimerHandle | None = None
        self._last_flush = float("-inf")
        self._last_size = 0

    def add(self, data: bytes) -> None:
        """Output for the clients: sent at once if small or due, else at the end of the batch."""
        if not self._clients:
            return
        self._chunks.append(data)
        if self._timer is not None:
            return
        interval = batch_interval(len(self._clients))
        if self._last_size >= SMALL_BATCH:
            # A stream (the last batch was large): one message a display frame at most, even
            # to one client. Each message costs a watcher a wake-up, a frame to parse and a
            # slice of its parse queue, and a flood read every 2 ms is not seen any sooner.
            interval = MAX_INTERVAL
        if interval <= BATCH_INTERVAL:  # the reader batches that much already: no timer
            self.flush()
            return
        wait = self._last_flush + interval - time.monotonic()
        if wait > 0 and self._last_size >= SMALL_BATCH:
            self._timer = self._loop.call_later(wait, self.flush)
        else:
            self.flush()

    def flush(self) -> None:
        """Send what was collected now."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self._chunks:
            return
        chunks, self._chunks = self._chunks, []
        data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        self._last_flush = time.monotonic()
        self._last_size = len(data)
        # CPU time of this thread, not wall time: waiting for the GIL or for a core on a busy
        # machine is not the fan-out's cost.
        began = time.thread_time()
        for client in beyond_token_streams(self._clients):
            client.shed_backlog()  # a snapshot a second instead (it does nothing once shed)
        for start in range(0, len(data), MAX_BATCH):
            piece = data[start : start + MAX_BATCH] if len(data) > MAX_BATCH else data
            frame = wire_frame(piece)  # built once, written to every client that keeps up
            for client in self._clients:
                if client.screen is None:  # a screen viewer gets the state, not the bytes
                    client.deliver(piece, frame)
        spent = time.thread_time() - began
        self.cpu += spent
        if self.budget.spend(spent):
            # Fairly: a token's connections beyond its share first, everyone only when no
            # token holds more than its share.
            for client in beyond_fair_share(self._clients) or self._clients:
                client.shed_backlog()
