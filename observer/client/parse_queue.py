"""The parse queue: what the peer sent, waiting for the terminal model, fed in slices.

Output, snapshots, resizes and resets wait in one inbox in the order they came; the app's feeder
feeds them in pieces it sizes from the measured parse rate, so parsing never starves the UI. A
snapshot replaces whatever output waits before it. The newest chunk received is fed on its own:
whether the latest output rang the bell (an agent asking something) is judged on it alone. When
the waiting output would take too long to parse, skipping it for a snapshot pays
(:mod:`observer.client.catch_up`). After each feed the rows whose cells differ from when they were
last reported are queued as a :class:`~observer.client.events.ScreenChanged`, and what the agent
sent to be noticed goes to attention and the recording. A :class:`FeedTap` (live rewind's
history) is handed every byte the model is fed, and every change of its size, as it happens.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from observer.client.attention import AttentionTracker
from observer.client.catch_up import CatchUp
from observer.client.events import Outlet, ScreenChanged
from observer.client.lifecycle import Lifecycle
from observer.client.recording_policy import RESET, RecordingPolicy
from observer.protocol.events import Resized, SnapshotReceived
from observer.terminal import BellRung, TerminalModel
from observer.terminal.actions import MAX_CACHED

TILE_CACHES = 256
"""Entries each parser cache of a tile's model keeps (see :class:`TerminalModel`)."""


@dataclass(frozen=True, slots=True)
class _Reset:
    """Start the model afresh (a peer rejoined with no snapshot)."""


@dataclass(frozen=True, slots=True)
class _Chunk:
    """Output waiting to be parsed: the ``number``-th chunk received; for a screen-view frame
    whose rows a tile draws itself, those rows (reported changed, not fed) and their repaint
    (handed to the tap, which keeps what the tile shows)."""

    number: int
    data: bytes
    drawn: frozenset[int] = frozenset()
    unfed: bytes = b""


_Step = _Chunk | SnapshotReceived | Resized | _Reset


class FeedTap(Protocol):
    """Told what the model was fed, just after (live rewind keeps it: :mod:`observer.recording.history`)."""

    def fed(
        self,
        data: bytes,
        model: TerminalModel,
        now: float,
        whole: Callable[[], object] | None = None,
    ) -> None:
        """``model`` was fed ``data`` at ``now``; ``whole()`` paints into it what a tile drew
        itself (before a keyframe: the model is then what the tile showed)."""

    def resized(self, model: TerminalModel, now: float) -> None:
        """``model`` (perhaps a new one) has another size now, and nothing on it yet."""


class ParseQueue:
    """One session's model and the output waiting for it (see the module docstring).

    Args:
        life: the connection's life (the title the model reports goes there).
        outlet: where changed rows and status changes are queued.
        attention: takes what the agent sent to be noticed.
        recording: the recording policy (its notification markers), if recorded.
        size: the model's size until the peer says.
        scrollback: lines of scrollback the model keeps (0 for tiles).
        show: feed a model at all (False: nothing waits, and no notification is found).
    """

    def __init__(
        self,
        life: Lifecycle,
        outlet: Outlet,
        attention: AttentionTracker,
        recording: RecordingPolicy | None,
        *,
        size: tuple[int, int],
        scrollback: int,
        show: bool,
    ) -> None:
        self._life, self._outlet, self._attention = life, outlet, attention
        self._recording = recording
        self.show = show
        self.scrollback = scrollback
        # A tile (no scrollback) parses a few rows a second: small parser caches, not ~10 MiB.
        self._caches = TILE_CACHES if scrollback == 0 else MAX_CACHED
        self.model = TerminalModel(size[0], size[1], scrollback, self._caches)
        self.catch_up = CatchUp()
        self._inbox: deque[_Step] = deque()
        self.backlog = 0
        """Bytes of output received and not yet fed to the model."""
        self.chunks = 0
        """Output chunks received (each inbox chunk carries its number)."""
        self.bell_rang_last = False
        self.tap: FeedTap | None = None
        self.unpainted: Callable[[], bytes] | None = None
        """The repaint of the rows left unpainted (a tile drew them itself), for :meth:`whole`."""
        self.resyncs = 0
        """The newest output chunk, once parsed, rang the bell."""
        self._shown: dict[int, tuple[object, ...]] = {}
        """Each row's cells when last reported changed (rows written the same are not)."""

    @property
    def pending(self) -> bool:
        """Whether :meth:`feed` has something to do."""
        return bool(self._inbox)

    def output(self, data: bytes) -> None:
        """Output received (skipped while a resync's snapshot is on its way)."""
        self.chunks += 1
        if self.show and not self.catch_up.resyncing:
            self._inbox.append(_Chunk(self.chunks, data))
            self.backlog += len(data)

    def rows_repainted(
        self, data: bytes, drawn: frozenset[int] = frozenset(), unfed: bytes = b""
    ) -> None:
        """A screen-view frame's repaint of the rows that changed, fed as output; the rows
        ``drawn`` (a tile draws them from the frame itself) are reported changed with it, and
        their repaint ``unfed`` goes to the tap, not to the model."""
        self._inbox.append(_Chunk(self.chunks, data, drawn, unfed))
        self.backlog += len(data)

    def replace(self, snapshot: SnapshotReceived) -> None:
        """A snapshot replaces the screen: nothing waiting before it matters."""
        if self.show:
            self._inbox.clear()
            self.backlog = 0
            self._inbox.append(snapshot)

    def restart(self) -> None:
        """Start the model afresh (a rejoin without a snapshot, or a new program)."""
        self._inbox.clear()
        self.backlog = 0
        self.queue(_Reset())

    def remote_resized(self, cols: int, rows: int) -> None:
        """The remote screen is ``cols`` x ``rows`` now (the peer said so, or took the size we
        sent without saying): note it, record it, and resize the model after what waits."""
        self._life.remote_size = (cols, rows)
        if self._recording is not None:
            self._recording.resized(cols, rows)
        self.queue(Resized(cols, rows))

    def queue(self, step: SnapshotReceived | Resized | _Reset) -> None:
        """Feed ``step`` after what waits."""
        if self.show:
            self._inbox.append(step)

    def drop_waiting_output(self) -> None:
        """Drop the output waiting (a snapshot or a frame replaces it)."""
        self._inbox = deque(step for step in self._inbox if not isinstance(step, _Chunk))
        self.backlog = 0

    def paint(self, data: bytes) -> None:
        """Paint rows read now: after the output waiting, or at once when none waits that
        repaints rows (a drawn tile's frames carry none: the rows painted are newer)."""
        last = self._inbox[-1] if self._inbox else None
        if isinstance(last, _Chunk) and any(
            isinstance(step, _Chunk) and not step.unfed for step in self._inbox
        ):  # the same chunk: the bell is still judged on it alone
            self._inbox[-1] = _Chunk(last.number, last.data + data, last.drawn, last.unfed)
            self.backlog += len(data)
        else:  # nothing waits, or a snapshot does (which paints every row again)
            self._changed(self._feed(data, 0.0), False)

    def feed(self, budget: int, now: float) -> int:
        """Feed the model up to ``budget`` bytes of waiting output (or one step); bytes fed."""
        inbox = self._inbox
        if not inbox:
            return 0
        if not isinstance(inbox[0], _Chunk):
            self._step(inbox.popleft(), now)
            return 0
        parts: list[bytes] = []
        drawn: frozenset[int] = frozenset()
        unfed = b""
        size, last = 0, 0
        while inbox and isinstance(inbox[0], _Chunk) and size < budget:
            if parts and inbox[0].number == self.chunks:
                break
            chunk = inbox.popleft()
            assert isinstance(chunk, _Chunk)
            data, last = chunk.data, chunk.number
            if chunk.drawn or chunk.unfed:
                drawn, unfed = drawn | chunk.drawn, unfed + chunk.unfed
            if size + len(data) > budget:
                inbox.appendleft(_Chunk(last, data[budget - size :]))
                data = data[: budget - size]
            parts.append(data)
            size += len(data)
        self.backlog -= size
        model = self.model
        bells = model.bells
        dirty = self._feed(b"".join(parts) if len(parts) > 1 else parts[0], now, unfed)
        if last == self.chunks and not (inbox and isinstance(inbox[0], _Chunk)):
            self.bell_rang_last = model.bells != bells
        self._life.title = model.title or self._life.title
        self._notified(now)
        self._changed(dirty, False, drawn)
        return size

    def check_backlog(self, now: float) -> None:
        """Skip ahead when the output waiting would take too long to parse."""
        if self.catch_up.pays(self.backlog, now):
            self.resync()

    def resync(self) -> bool:
        """Ask for a fresh snapshot and skip the output before it; False where the peer has none."""
        caps, adapter = self._life.capabilities, self._life.adapter
        if caps is None or not caps.snapshot or adapter is None:
            return False
        self._outlet.send(adapter.encode_resync())
        self.catch_up.resyncing = True
        self.resyncs += 1
        self.drop_waiting_output()
        return True

    def _step(self, step: _Step, now: float) -> None:
        model = self.model
        if isinstance(step, SnapshotReceived):
            if (step.cols, step.rows) != (model.cols, model.rows):
                self.model = TerminalModel(step.cols, step.rows, self.scrollback, self._caches)
                self._resized(now)
            # The same model, reset: the scrollback stays browsable across a resync.
            self._feed(RESET + step.data, now)
            self._life.title = self.model.title or self._life.title
        elif isinstance(step, Resized):
            model.resize(step.cols, step.rows)
            self._resized(now)
        elif isinstance(step, _Reset):
            self._feed(RESET, now)
        self._notified(now)
        self._changed(set(), True)

    def _feed(self, data: bytes, now: float, unfed: bytes = b"") -> set[int]:
        dirty = self.model.feed(data) if data else set()  # (a drawn tile's frame: often none)
        if self.tap is not None:
            self.tap.fed(unfed + data if unfed else data, self.model, now, self.whole)
        return dirty

    def whole(self) -> None:
        """Paint into the model what a tile drew itself (the rows it showed, the cursor): the
        model is then what the tile showed, as if it had been fed it."""
        if self.unpainted is not None:
            data = self.unpainted()
            if data:
                self.model.feed(data)

    def _resized(self, now: float) -> None:
        if self.tap is not None:
            self.tap.resized(self.model, now)

    def _notified(self, now: float) -> None:
        """Take what the agent sent to be noticed: state, and markers in the recording."""
        events = self.model.take_notifications()
        if not events:
            return
        for text in self._attention.notified(events, now):
            if self._recording is not None:
                self._recording.notification(text)
        if not all(isinstance(event, BellRung) for event in events):
            self._outlet.status_changed()

    def _changed(self, dirty: set[int], whole: bool, drawn: frozenset[int] = frozenset()) -> None:
        if whole:
            self._shown.clear()
        else:
            dirty = self._rows_that_changed(dirty)  # none: the cursor may still have moved
        self._outlet.post(ScreenChanged(drawn | dirty if drawn else frozenset(dirty), whole))

    def _rows_that_changed(self, dirty: set[int]) -> set[int]:
        """The rows among ``dirty`` whose cells differ from when they were last reported.

        The model reports every row written; an Ink UI erases and redraws its whole region for
        each change of a line or two, so most rows it writes are what they were: views repaint
        only the others."""
        model, shown = self.model, self._shown
        changed = set()
        for y in dirty:
            row = model.row_key(y)
            if shown.get(y) != row:
                shown[y] = row
                changed.add(y)
        return changed
