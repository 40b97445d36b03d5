"""One connected client on the server: its protocol state and its bounded outbound queue.

Output reaches every client through its own queue, so a client that stops reading never holds up
the PTY reader or the other clients. When what the server holds for a client (its queue and its
transport's buffer; the kernel keeps little, see :meth:`FrameSocket.limit_unsent`) passes the byte limit,
its backlog is dropped and the client is marked *overflowed*: when its socket drains, it gets a
fresh snapshot instead of the bytes it missed (docs/protocol.md, "Flow control").
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Iterable

from observer.protocol.arbiter import ServerConnection
from observer.server.screen_sync import ScreenFeed
from observer.server.websocket_adapter import FrameSocket, Message, wire_frame

Entry = tuple[Message, bytes | None]
"""A queued message and its :func:`wire_frame`, if already built (shared between clients)."""

MAX_BATCH = 256 * 1024
"""Consecutive output chunks are sent as one binary frame of at most this many bytes."""
RESYNC_RETRY = 0.05
"""Seconds after which a client refused a snapshot during a flood asks again."""
FANOUT_SHARE = 0.1
"""Share of the time that writing output to clients may take (CPU time of the loop's thread)."""
FANOUT_WINDOW = 0.1
STREAMS_PER_TOKEN = 4
"""Connections of one token in one session that get every byte of output; the token's newer
ones get the screen by snapshot instead, at most one a second each (see
:func:`beyond_token_streams`)."""


class Client:
    """A client's queue and its writer task's state.

    Args:
        socket: the WebSocket connection.
        connection: the client's protocol state (role, control mode).
        limit: queued bytes beyond which the backlog is dropped.
        resync: called (synchronously) when the client drained after overflowing; it queues a
            snapshot and returns 0.0, or returns the seconds after which to ask again.
        features: optional frames the client understands.
        token: the key of the token it connected with (``None``: no authentication).
    """

    def __init__(
        self,
        socket: FrameSocket,
        connection: ServerConnection,
        limit: int,
        resync: Callable[[Client], float],
        features: frozenset[str] = frozenset(),
        *,
        token: str | None = None,
    ) -> None:
        self.socket = socket
        self.token = token
        """Whose connection it is (a credential's key), for shedding fairly."""
        self.features = features
        """Optional frames the client asked for (``features=`` in its request)."""
        self.connection = connection
        self.limit = limit
        self._resync = resync
        self._queue: deque[Entry] = deque()
        self._opening: deque[Message] = deque()
        """``hello``, until it is sent: dropping a backlog never drops it (a client whose first
        frame is not ``hello`` cannot read the stream)."""
        self.queued = 0
        """Bytes (or characters) waiting in the queue."""
        self.overflowed = False
        self.overflows = 0
        """How many times this client's backlog was dropped."""
        self._wakeup = asyncio.Event()
        self.last_resync = float("-inf")
        """``time.monotonic()`` of the last snapshot sent after an overflow."""
        socket.limit_unsent()
        # A compressed connection needs a frame of its own (per-connection deflate context).
        self._direct = socket.direct
        self.direct_writes = 0
        """Frames written straight to the socket (not through the queue)."""
        self.shed = False
        """Dropped to snapshots because the fan-out took too much of the server's time."""
        self.requested = False
        """The client asked for a snapshot (``resync``) and has not been sent it yet."""
        self.screen: ScreenFeed | None = None
        """The client's screen view (``view`` ``screen``): it gets ``screen`` frames, no bytes."""

    def deliver(self, message: Message, frame: bytes) -> None:
        """Send ``message``, whose :func:`wire_frame` is ``frame``, in stream order.

        Straight to the socket when nothing is queued ahead and the socket takes it now (open,
        not paused by flow control, so its buffer is below websockets' high-water mark);
        otherwise through the bounded queue, exactly like :meth:`push`.
        """
        if (
            self._direct
            and not self._queue
            and not self._opening
            and not self.overflowed
            and self.socket.takes_writes()
        ):
            self.socket.write(frame)
            self.direct_writes += 1
        else:
            self.push(message, frame)

    def push(self, message: Message, frame: bytes | None = None) -> None:
        """Queue ``message`` (with its :func:`wire_frame` if built already); past the limit,
        drop the whole backlog and mark the client overflowed."""
        if self.overflowed:
            return
        self._queue.append((message, frame))
        self.queued += len(message)
        if self.lag > self.limit:
            self.drop_backlog()
            self.overflowed = True
            self.overflows += 1
        self._wakeup.set()

    @property
    def lag(self) -> int:
        """Bytes the server holds for this client: its queue and the transport's buffer.

        (What the kernel holds is kept small by :func:`limit_unsent`.)
        """
        return self.queued + self.socket.unsent()

    def shed_backlog(self) -> None:
        """Stop sending this client every byte: drop its backlog, send a snapshot later.

        Called when writing output to all clients takes more than :data:`FANOUT_SHARE` of the
        server's time (see :class:`FanoutBudget`); the client then catches up by snapshot, like
        a client that fell behind on its own.
        """
        if self.overflowed:
            return
        self.drop_backlog()
        self.overflowed = True
        self.overflows += 1
        self.shed = True
        self._wakeup.set()

    def request_snapshot(self) -> None:
        """The client asked for a snapshot: drop its backlog; the writer sends the snapshot when
        the client's interval allows (see ``resync``), once however often it asks meanwhile."""
        if self.overflowed:
            return  # a snapshot is on its way already
        self.drop_backlog()
        self.overflowed = True
        self.requested = True
        self._wakeup.set()

    def open_with(self, message: Message) -> None:
        """Queue the connection's first message (``hello``): sent before anything else, and kept
        when the backlog behind it is dropped (an overflow or a shed right after joining)."""
        self._opening.append(message)
        self._wakeup.set()

    def push_unbounded(self, message: Message, frame: bytes | None = None) -> None:
        """Queue a message that must not be dropped (a snapshot right after a resync)."""
        self._queue.append((message, frame))
        self.queued += len(message)
        self._wakeup.set()

    def drop_backlog(self) -> None:
        """Forget everything queued (the client will get a snapshot instead)."""
        self._queue.clear()
        self.queued = 0

    async def run_writer(self) -> None:
        """Send queued messages until cancelled or the connection closes (then ``send`` raises)."""
        while True:
            while self._opening:
                await self.socket.send(self._opening.popleft())
            if not self._queue and not self.overflowed:
                self._wakeup.clear()
                await self._wakeup.wait()
                continue
            if self.overflowed:
                # Only once the socket took what it was given (its buffer is under websockets'
                # low-water mark) does the client read again: a snapshot queued earlier would
                # sit there, and age. Then queue the snapshot and what followed it in one
                # synchronous step, so nothing slips between.
                if self.socket.paused:
                    # Woken by the transport when it takes writes again (or the connection is
                    # lost), not by polling: a hundred shed watchers would otherwise wake
                    # thousands of times a second.
                    await self.socket.drain()
                    continue
                wait = self._resync(self)
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue
                self.overflowed = self.requested = False
            if not self._queue:
                continue
            if self._direct:
                await self._write_frames()
            else:
                message, _ = self._queue.popleft()
                self.queued -= len(message)
                await self.socket.send(message)

    async def _write_frames(self) -> None:
        """Write queued frames (shared ones as they are) up to :data:`MAX_BATCH` bytes, then
        wait until the socket takes more: what ``send()`` does, without serializing each
        message again for each client."""
        connection = self.socket
        written = 0
        while self._queue and written < MAX_BATCH:
            message, frame = self._queue.popleft()
            self.queued -= len(message)
            if not connection.open():
                await connection.send(message)  # raises ConnectionClosed, as send() would
                return
            frame = wire_frame(message) if frame is None else frame
            connection.write(frame)
            written += len(frame)
        await connection.drain()


def beyond_token_streams(
    clients: Iterable[Client], streams: int = STREAMS_PER_TOKEN
) -> list[Client]:
    """The streaming clients of each token beyond its first ``streams``, when the session has
    clients of more than one token: shed at every batch.

    Every byte written to N sockets costs the server N copies, however the clients came by
    their connections: fifty connections of one token reading the stream cost the agent a
    tenth of its rate or more, and everyone else's share of the server with it. A person
    watching one session has a window or a few; a token's connections beyond those are given
    the screen by snapshot (a shared repaint, at most one a second each), so their number costs
    the fan-out nothing. The oldest keep the stream; the holder of the keyboard is never shed
    (it sees its typing echoed at once), nor is a screen viewer (its cost is its frame rate,
    not the output's). A session watched through one token only (a team sharing it) has nobody
    to be fair to: the fan-out's budget (:class:`FanoutBudget`) keeps its cost in bounds.
    """
    clients = list(clients)
    if len({client.token for client in clients}) < 2:
        return []
    held: dict[str, int] = {}
    beyond = []
    for client in clients:
        token = client.token
        if client.screen is not None or token is None:
            continue
        held[token] = count = held.get(token, 0) + 1
        if count > streams and client.connection.holder != "you":
            beyond.append(client)
    return beyond


def beyond_fair_share(clients: Iterable[Client]) -> list[Client]:
    """The streaming clients to shed first: each token's beyond its fair share.

    A token's fair share is as many streaming connections as the token with the fewest has, so
    fifty readers of one token are shed down to one before another token's watcher is shed.
    The newest go first. Empty when no token holds more than its share (then all are shed).
    """
    by_token: dict[str | None, list[Client]] = {}
    for client in clients:
        if client.screen is None:  # a screen viewer costs its frame rate, not the output's
            by_token.setdefault(client.token, []).append(client)
    if len(by_token) < 2:
        return []
    fair = min(len(group) for group in by_token.values())
    return [client for group in by_token.values() for client in group[fair:]]


class FanoutBudget:
    """How much of the server's time writing output to clients may take.

    Every byte written to N sockets is copied N times by the kernel: with a hundred watchers on a
    small machine that alone can take the CPU the agent needs. The session measures the CPU time
    of each fan-out (:meth:`spend`); when over a window of :data:`FANOUT_WINDOW` seconds (or more) it took more
    than :data:`FANOUT_SHARE` of the time, :meth:`spend` answers True and the session sheds its
    clients to snapshots (at most one a second each) until the flood ebbs.

    Args:
        share: the fraction of wall time the fan-out may take.
        window: the shortest stretch of time over which the share is measured.
        clock: wall-clock seconds, monotonic (a parameter for tests).
    """

    def __init__(
        self,
        share: float = FANOUT_SHARE,
        window: float = FANOUT_WINDOW,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.share = share
        self.window = window
        self._clock = clock
        self._start = clock()
        self._spent = 0.0
        self.exceeded = 0
        """How many times the budget was exceeded."""

    def spend(self, seconds: float) -> bool:
        """Count ``seconds`` of fan-out; True if that exceeds the budget (a new window starts)."""
        now = self._clock()
        self._spent += seconds
        elapsed = now - self._start
        over = self._spent > self.share * max(elapsed, self.window)
        if over or elapsed >= self.window:
            self._start = now
            self._spent = 0.0
        if over:
            self.exceeded += 1
        return over
