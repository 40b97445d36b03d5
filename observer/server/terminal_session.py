"""One identifier's terminal: a PTY, the server's own terminal model, the ring, the clients.

The PTY is drained by a thread of its own (:mod:`observer.server.pty_reader`) as fast as the
agent writes; each batch goes to the ring (for ``since=`` resumes), to every client (the same
frame for all that keep up, else each one's bounded queue: :mod:`observer.server.clients`), and to
the model's backlog (:mod:`observer.server.model_feed`), which never skips a byte: the reader waits
for it, never for a watcher. Snapshots are taken at the model's offset and followed by the ring's
bytes after it, so a client's stream stays exact.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Mapping, Sequence

from observer.protocol import frames
from observer.protocol.arbiter import ControlArbiter
from observer.protocol.screen_frames import View
from observer.server.clients import MAX_BATCH, RESYNC_RETRY, Client
from observer.server.fanout import Fanout
from observer.server.model_feed import ModelFeed, ScreenModel
from observer.server.pty_input import PtyInput
from observer.server.pty_process import PtyProcess, describe_exit
from observer.server.pty_reader import PtyReader
from observer.server.ring import OutputRing
from observer.server.screen_sync import ScreenViews
from observer.server.snapshots import PacedSnapshots, Taken
from observer.server.threads import in_thread
from observer.server.websocket_adapter import wire_frame

log = logging.getLogger("observer.server")

MODEL_BACKLOG = 64 * 1024
"""Output read but not yet parsed by the model, at most, before the PTY is left unread (the
agent then waits on its writes, as in tmux). When the server's loop is saturated, every tile of
the session is this far behind its agent, and the reader reads ahead by as much again. So the
bound is kept small, for short tile lag, yet large enough that a flood's throughput does not
drop (the figures behind the choice: docs/benchmarks.md, "Figures behind constants")."""
RESYNC_INTERVAL = frames.RESYNC_INTERVAL
TICK_SLACK = 0.001
"""A timer may fire a hair early: waking after the tick makes sure the interval has passed."""


class TerminalSession:
    """The PTY session behind one identifier; it lives until the server stops."""

    def __init__(
        self,
        identifier: str,
        command: Sequence[str],
        model: ScreenModel,
        *,
        ring_size: int,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.identifier = identifier
        self.model = model
        self.ring = OutputRing(ring_size)
        self.arbiter = ControlArbiter()
        self.clients: list[Client] = []
        self.exit_status: int | None = None
        self.exited = False
        self.ended = asyncio.Event()
        """Set once the program has exited and its last output and ``exit`` are queued."""
        self.last_output: float | None = None
        """When the program last wrote (monotonic seconds), if it has."""
        self._tail_cache: tuple[tuple[int, int], list[tuple[bytes, bytes]]] | None = None
        self._loop = asyncio.get_running_loop()
        self.fanout = Fanout(self._loop, self.clients)
        """Output to clients, in batches of its own (the model gets it as soon as it is read)."""
        self.pty = PtyProcess(command, model.cols, model.rows, env=env)
        self._input = PtyInput(self._loop, self.pty)
        self._reading = True
        backlog = max(64 * 1024, min(MODEL_BACKLOG, ring_size // 2))
        # The thread reads ahead of the loop by at most the model's backlog: a busy loop then
        # leaves the model at most two backlogs behind the PTY, within the ring at its default.
        self.echo = True
        """Whether the terminal shows what is typed (False at a password prompt)."""
        self._reader = PtyReader(
            self.pty.fd,
            self._loop,
            self._output,
            self._stop_reading,
            limit=backlog,
            on_echo=self._echo_changed,
        )
        self.feed = ModelFeed(model, backlog, self._reader, self.write_input)
        self.screens = ScreenViews(
            self.clients,
            model,
            rows=lambda: self.feed.rows,
            offset=lambda: self.feed.offset,
            catch_up=self.feed.catch_up,
            current=self.feed.current,
            notices=self.feed.notices,
        )
        """The clients in the screen view (:mod:`observer.server.screen_sync`)."""
        self.snapshots = PacedSnapshots(self.feed, model, self.ring)
        self._tasks = [
            self._loop.create_task(self.feed.run()),
            self._loop.create_task(self._wait_for_exit()),
        ]

    # --- output -------------------------------------------------------------------------------

    def _stop_reading(self) -> None:
        self._reading = False
        self._input.stop()

    def _output(self, data: bytes) -> None:
        self.last_output = time.monotonic()
        self.ring.append(data)
        self.feed.add(data)
        self.fanout.add(data)

    def _echo_changed(self, on: bool) -> None:
        """Tell the clients that asked, at this place in the stream (after the output so far)."""
        self.echo = on
        self.broadcast(frames.Echo(on), feature=frames.ECHO_FEATURE)

    def _queue_echo(self, client: Client) -> None:
        """The current echo state for a client that asked, at the end of what it was queued."""
        if frames.ECHO_FEATURE in client.features:
            client.push_unbounded(frames.encode(frames.Echo(self.echo)))

    @property
    def model_offset(self) -> int:
        """Stream offset up to which the model has seen the output."""
        return self.feed.offset

    @property
    def model_backlog(self) -> int:
        """Bytes of output the model may lag behind before the PTY reader waits for it."""
        return self.feed.limit

    async def _wait_for_exit(self) -> None:
        status = await in_thread(self.pty.process.wait)
        # Whatever the child wrote before it ended is still in the PTY: deliver it first.
        # Give the reader thread a moment to read the PTY's last bytes, then take them.
        for _ in range(20):
            if not self._reading:
                break
            await asyncio.sleep(0.01)
        self._reader.drain_now()
        self.exited = True
        self.exit_status = status
        log.info("session %r: the program %s", self.identifier, describe_exit(status))
        self.broadcast(frames.Exit(status))
        self.ended.set()

    # --- clients ------------------------------------------------------------------------------

    def broadcast(self, frame: frames.ServerFrame, feature: str | None = None) -> None:
        """Queue ``frame`` for every client (that asked for ``feature``), in stream order."""
        self.fanout.flush()
        message = frames.encode(frame)
        wire = wire_frame(message)
        for client in self.clients:
            if feature is None or feature in client.features:
                client.deliver(message, wire)

    def broadcast_control(self) -> None:
        """Tell every client who holds control, each from its own point of view."""
        self.fanout.flush()
        for client in self.clients:
            client.push(frames.encode(frames.Control(client.connection.holder)))

    def join(self, client: Client, since: int | None, granted: bool) -> None:
        """Queue ``hello`` and the start of the stream for a new client, then add it."""
        # Output collected for the others precedes this client's start (the ring's end).
        self.fanout.flush()
        # hello announces the offset of the snapshot that follows (or of the resume), or the
        # client sees a gap where there is none: one snapshot serves both (taken twice, the
        # second could be a newer one, the first's parse outlasting the sharing period).
        taken: Taken | None = None
        if since is not None and self.ring.holds(since):
            start = since
        else:
            taken = self.snapshots.take(max_tail=client.limit // 2)
            start = taken.offset
        hello = frames.Hello(
            identifier=self.identifier,
            mode="control" if granted else "watch",
            cols=self.model.cols,
            rows=self.model.rows,
            offset=start,
            holder=client.connection.holder,
            watchers=len(self.clients) + 1,
            title=self.model.title,
            control=client.connection.role == "control",
        )
        client.open_with(frames.encode(hello))
        if taken is None:
            self._queue_bytes(client, start)
        else:
            self._queue_snapshot(client, taken)
        if self.exited:
            client.push_unbounded(frames.encode(frames.Exit(self.exit_status)))
        self._queue_echo(client)
        self.clients.append(client)
        self.broadcast(frames.Presence(len(self.clients)))

    def leave(self, client: Client) -> None:
        """Forget a client that went away and tell the others how many remain."""
        if client in self.clients:
            self.fanout.flush()
            self.clients.remove(client)
            self.broadcast(frames.Presence(len(self.clients)))

    def request_resync(self, client: Client) -> None:
        """The client sent ``resync``: a snapshot as soon as its interval allows."""
        client.request_snapshot()

    def resync(self, client: Client) -> None:
        """Drop ``client``'s backlog and queue a snapshot plus the bytes after it."""
        # Output collected but not yet sent precedes the snapshot: it must not follow it.
        self.fanout.flush()
        client.drop_backlog()
        self.screens.leave(client)  # a screen viewer: its last frame, where the snapshot stands
        self._queue_snapshot(client)

    def _queue_snapshot(self, client: Client, taken: Taken | None = None) -> None:
        # A new snapshot is taken once the model parsed its backlog (at most MODEL_BACKLOG;
        # work it has to do anyway, only sooner): it is then at the end of the stream, with no
        # bytes to follow it. Otherwise every client resyncing during a flood would also be
        # sent up to the whole backlog after it. A shared one (see PacedSnapshots) is followed
        # by the little output of its last PERIOD.
        taken = taken or self.snapshots.take(max_tail=client.limit // 2)
        client.push_unbounded(taken.message, taken.frame)
        self._queue_bytes(client, taken.offset)

    def resync_after_overflow(self, client: Client) -> float:
        """A client drained after overflowing or asking for a snapshot (``resync``): snapshot,
        then who holds control and who watches.

        A client that asked gets at most one snapshot per ``RESYNC_INTERVAL``, however often it
        asks (a flood of ``resync`` costs one snapshot per interval). During a flood (the reader
        waits for the model) or after the fan-out went over its budget, a client that lags gets
        at most one per interval too: each would be followed by up to :attr:`model_backlog`
        bytes it would again fall behind on.

        Returns:
            0.0 once the snapshot is queued, else the seconds to wait before asking again: a
            shed client or one that asked waits out its interval (nothing ends it sooner), any
            other one asks again soon (the flood may end meanwhile).
        """
        if client.screen is not None and not client.screen.leaving:
            return self._screen_overflowed(client)
        now = time.monotonic()
        wait = client.last_resync + RESYNC_INTERVAL - now
        if wait > 0 and client.requested and not client.shed:
            return wait + TICK_SLACK
        if wait > 0 and client.shed:
            # Shed clients resync on the same ticks (multiples of the interval), so that they
            # share one snapshot: resyncing each at its own moment, a hundred of them cost a
            # hundred repaints (`to_ansi`) a second, as much CPU as the fan-out they replace.
            tick = math.ceil((client.last_resync + RESYNC_INTERVAL) / RESYNC_INTERVAL)
            return max(tick * RESYNC_INTERVAL - now, wait) + TICK_SLACK
        if wait > 0 and self.feed.flooding:
            return RESYNC_RETRY
        client.last_resync = now
        client.shed = False
        self.resync(client)
        client.push_unbounded(frames.encode(frames.Control(client.connection.holder)))
        client.push_unbounded(frames.encode(frames.Presence(len(self.clients))))
        if self.exited:
            client.push_unbounded(frames.encode(frames.Exit(self.exit_status)))
        self._queue_echo(client)
        return 0.0

    # --- screen-sync ---------------------------------------------------------------------------

    def switch_view(self, client: Client, view: View, fps: int) -> None:
        """The client sent ``view``: the screen's state from now on, or back to the stream.

        Back to the stream it gets, paced like a ``resync``, a last ``screen`` frame and a
        snapshot at the same offset, then the bytes after it: no gap.
        """
        if view == "screen":
            self.screens.enter(client, fps)
        elif client.screen is not None:
            client.screen.leaving = True
            client.request_snapshot()

    def _screen_overflowed(self, client: Client) -> float:
        """A screen viewer's queue overflowed: its next frame is a full one."""
        assert client.screen is not None
        client.screen.reset()
        client.push_unbounded(frames.encode(frames.Control(client.connection.holder)))
        client.push_unbounded(frames.encode(frames.Presence(len(self.clients))))
        return 0.0

    def _queue_bytes(self, client: Client, offset: int) -> None:
        # Clients shed together resync together: they share the pieces of one tail.
        key = (offset, self.ring.end)
        if self._tail_cache is None or self._tail_cache[0] != key:
            tail = self.ring.since(offset)
            pieces = [tail[start : start + MAX_BATCH] for start in range(0, len(tail), MAX_BATCH)]
            self._tail_cache = (key, [(piece, wire_frame(piece)) for piece in pieces])
        for piece, frame in self._tail_cache[1]:
            client.push_unbounded(piece, frame)

    # --- control ------------------------------------------------------------------------------

    def write_input(self, data: bytes) -> bool:
        """Queue input for the PTY; False if the program has not read enough of the earlier input
        (see :mod:`observer.server.pty_input`). After the program exited, input goes nowhere."""
        return True if self.exited else self._input.write(data)

    def resize(self, cols: int, rows: int) -> None:
        """Resize the model (at the current stream offset) and the PTY, and tell every client."""
        self.feed.resize(cols, rows)
        self.pty.resize(self.model.cols, self.model.rows)
        self.broadcast(frames.Resize(self.model.cols, self.model.rows))

    async def close(self) -> None:
        """End the child's process group and release the PTY."""
        self.screens.stop()
        self._stop_reading()
        await in_thread(self._reader.stop)
        for task in self._tasks:
            task.cancel()
        await in_thread(self.pty.terminate)
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.pty.close()
        log.info(
            "session %r: %d bytes of output; model parsed %d in %.3f s CPU; "
            "fan-out %.3f s CPU, over budget %d times",
            self.identifier,
            self.ring.end,
            self.feed.offset,
            self.feed.cpu,
            self.fanout.cpu,
            self.fanout.budget.exceeded,
        )
