"""The server's own terminal model, fed from a backlog without ever losing a byte's effect.

The session hands every batch of PTY output to :meth:`ModelFeed.add`; a task parses the backlog
in slices of about half a millisecond, so that clients' sends run between them. If the agent
writes faster than the model parses, the PTY reader is paused while the backlog is over its
limit, so the program waits on its writes, as it would in any terminal (tmux, xterm): the model
never skips a byte, so snapshots and query answers are always those of the true screen. The
model's :attr:`~ModelFeed.offset` is the stream offset its screen stands at: a snapshot is taken
there and followed by the ring's bytes after it.

Quiet output (:data:`~observer.terminal.erased.QUIET`: text, line ends and colours, and the
erases of a redrawn region, which ask nothing, notify nothing and change no mode) waits up to
:data:`HOLD` to be parsed, or until a frame or a snapshot needs the screen. Most of it is never
seen: a log's lines mostly scroll off before anyone looks, and a UI that redraws ten times a
second erases each frame before the next round of screen frames. The model parses a backlog
of it in one feed, drawing only the last screenful of a log
(:mod:`observer.terminal.scrolled`) and the last of a UI's redraws
(:mod:`observer.terminal.erased`). Anything else is parsed at once.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from observer.protocol import frames
from observer.protocol.screen_frames import Notified
from observer.server.notification_log import NotificationLog
from observer.server.screen_sync import RowVersions, ScreenRows
from observer.terminal.erased import QUIET

FEED_PIECE = 4 * 1024
FEED_SLICE = 0.0005
FLOOD_PAUSE = 0.02
HOLD = 0.25
"""Longest quiet output waits to be parsed when nothing needs the screen sooner: longer than a
tile's frame interval, so that a round of frames finds a redrawing UI's frames held together
(each erased by the next) rather than one at a time."""


class ScreenModel(ScreenRows, Protocol):
    """The part of :class:`observer.terminal.TerminalModel` the server uses."""

    @property
    def synchronized(self) -> bool: ...
    def feed(self, data: bytes) -> Iterable[int]: ...
    def feed_unseen(self, data: bytes) -> Iterable[int] | None: ...
    def resize(self, cols: int, rows: int) -> None: ...
    def to_ansi(self, *, unfinished: bool = False) -> str: ...
    def take_replies(self) -> bytes: ...
    def take_notifications(self) -> Sequence[Notified]: ...


class Pausable(Protocol):
    """What the feed asks of the PTY reader."""

    def pause(self) -> None: ...
    def resume(self) -> None: ...


class ModelFeed:
    """Feeds ``model`` with the session's output; snapshots of it, shared between clients.

    Args:
        model: the server's terminal model.
        limit: backlog in bytes beyond which ``reader`` is paused (resumed at half of it).
        reader: the PTY reader.
        answer: called with the model's answers to terminal queries (DA, DSR), for the PTY.
    """

    def __init__(
        self,
        model: ScreenModel,
        limit: int,
        reader: Pausable,
        answer: Callable[[bytes], object],
    ) -> None:
        self.model = model
        self.limit = limit
        self._reader = reader
        self._answer = answer
        self.offset = 0
        """Stream offset up to which the model has seen the output."""
        self.cpu = 0.0
        """CPU seconds the model spent parsing."""
        self._pending: deque[bytes] = deque()
        self._pending_bytes = 0
        self._last_pause = -1.0
        self._version = 0
        self._snapshot_cache: tuple[int, str] | None = None
        self._fed = asyncio.Event()
        self._quiet = False
        """Whether every byte of the backlog is quiet (:data:`QUIET`): it may wait."""
        self._held_since = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self.rows = RowVersions(model.rows)
        """A version per row, for screen-sync (:mod:`observer.server.screen_sync`)."""
        self.notices = NotificationLog()
        """What the agent sent to be noticed, for screen-sync (a repaint cannot carry it)."""

    def add(self, data: bytes) -> None:
        """Queue output for the model; pause the reader if the backlog is over the limit."""
        if not self._pending:
            self._held_since = time.monotonic()
            self._quiet = True
        if self._quiet:
            self._quiet = QUIET.fullmatch(data) is not None
        for start in range(0, len(data), FEED_PIECE):
            piece = data[start : start + FEED_PIECE]
            self._pending.append(piece)
            self._pending_bytes += len(piece)
        if self._pending_bytes > self.limit:
            # The agent writes faster than the model parses: wait for the model rather than
            # skip output, which would leave snapshots showing a screen that never was.
            self._last_pause = time.monotonic()
            self._reader.pause()
        self._fed.set()

    @property
    def flooding(self) -> bool:
        """Whether the agent writes faster than the model parses (the reader waited very recently)."""
        return time.monotonic() - self._last_pause < FLOOD_PAUSE

    async def run(self) -> None:
        """Parse the backlog in slices of :data:`FEED_SLICE` seconds, forever."""
        loop = asyncio.get_running_loop()
        while True:
            await self._fed.wait()
            hold = self._hold()
            if hold > 0:
                self._fed.clear()
                if self._timer is None:
                    self._timer = loop.call_later(hold, self._held)
                continue
            began = time.thread_time()
            deadline = time.monotonic() + FEED_SLICE
            while self._pending and time.monotonic() < deadline:
                self._feed_next()
            self.cpu += time.thread_time() - began
            if self._pending_bytes <= self.limit // 2:
                self._reader.resume()
            if self._pending:
                await asyncio.sleep(0)
            else:
                self._fed.clear()

    def _hold(self) -> float:
        """Seconds the backlog may still wait: quiet output, under half the limit, for at most
        :data:`HOLD`; 0 to parse it now."""
        if not (self._pending and self._quiet) or self._pending_bytes > self.limit // 2:
            return 0.0
        return self._held_since + HOLD - time.monotonic()

    def _held(self) -> None:
        self._timer = None
        self._fed.set()

    def _feed_next(self) -> None:
        """Parse the next piece of the backlog; a quiet backlog whole, where its start cannot
        be seen (lines that scroll off, draws erased), else piece by piece."""
        if self._quiet and len(self._pending) > 1:
            data = b"".join(self._pending)
            dirty = self.model.feed_unseen(data)
            if dirty is not None:
                self._pending.clear()
                self._fed_bytes(len(data), dirty)
                return
            self._quiet = False  # nothing unseen after all: parsed as it comes
        piece = self._pending.popleft()
        self._fed_bytes(len(piece), self.model.feed(piece))

    def _fed_bytes(self, size: int, dirty: Iterable[int]) -> None:
        self._pending_bytes -= size
        self.rows.bump(dirty)
        self.offset += size
        self._version += 1
        # The server's model answers DA/DSR queries; clients never do (docs/protocol.md,
        # "Who types"): one answer, whatever the number of watchers.
        replies = self.model.take_replies()
        if replies:
            self._answer(replies)
        notified = self.model.take_notifications()
        if notified:
            self.notices.add(notified)

    def catch_up(self) -> None:
        """Parse the whole backlog now (the model then stands at the end of the stream)."""
        while self._pending:
            self._feed_next()
        self._reader.resume()

    def current(self) -> None:
        """Parse output held back (quiet, so cheap: most of it is never seen) before the
        screen is looked at; output that is not quiet is being parsed already."""
        if self._quiet and self._pending:
            self.catch_up()

    def resize(self, cols: int, rows: int) -> None:
        """Parse the whole backlog, then resize: the resize lands at the current stream offset,
        so every snapshot stays consistent with the stream."""
        self.catch_up()
        self.model.resize(cols, rows)
        self.rows.resized(self.model.rows)
        self._version += 1

    def snapshot(self) -> frames.Snapshot:
        """The model's screen as a repaint, at the model's offset."""
        model = self.model
        return frames.Snapshot(self.offset, model.cols, model.rows, model.to_ansi(unfinished=True))

    def snapshot_message(self) -> str:
        """:meth:`snapshot` encoded; clients that resync together share it."""
        # The model changes only when fed or resized, which bumps the version.
        if self._snapshot_cache is None or self._snapshot_cache[0] != self._version:
            message = frames.encode(self.snapshot())
            assert isinstance(message, str)
            self._snapshot_cache = (self._version, message)
        return self._snapshot_cache[1]
