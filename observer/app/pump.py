"""Moving a source's events into a :class:`LiveSession` without starving the UI or falling behind.

Rules from DESIGN.md ("Rendering"):

- a reader task takes the source's events into an inbox as they arrive, so the pump always
  knows how much output is waiting, for any source (up to :data:`INBOX_LIMIT` bytes: past that
  the reader stops taking, and the transport's own backpressure applies);
- consecutive output frames are coalesced (up to :data:`COALESCE` bytes) and fed in time
  slices of about :data:`TIME_SLICE` seconds, checking the clock after each piece of about
  :data:`PIECE_TIME` seconds of parsing;
- between slices the event loop gets several turns (:data:`UI_TURNS`): a key press travels
  driver → app → focused widget → socket, one turn per hop, and leaves before parsing resumes;
  frames are drawn in those turns too;
- skip-ahead: when the waiting output would take more than :data:`BEHIND_AFTER` to parse at the
  measured rate, ask the endpoint for a snapshot (``resync``) and drop the output until it
  comes, instead of parsing it all: client work is then bounded, not the agent's output rate.
  A snapshot is the endpoint's screen at its own model's offset, followed by the output after
  it, so a resync gains only what lies before that offset: the pump measures how much output
  came with the last snapshot (what waits within :data:`TAIL_WINDOW` of it) and asks again only
  when the backlog exceeds that by the limit.

Recordings are not affected by skipping: the source records every byte it receives before it
hands the event over (see :mod:`observer.app.live`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from observer.app.session import LiveSession, Notice
from observer.app.source import SourceEvent
from observer.protocol.events import (
    ControlChanged,
    ErrorReported,
    Exited,
    OutputReceived,
    SessionStarted,
    SnapshotReceived,
)
from observer.protocol.partial import WINDOW, unfinished_end

TIME_SLICE = 0.005
BEHIND_AFTER = 0.1
PIECE_TIME = 0.002
"""Output is fed in pieces that take about this long (from the measured rate), so a slice
overruns :data:`TIME_SLICE` by little however loaded the machine is."""
PIECE_MIN, PIECE_MAX = 2 * 1024, 32 * 1024
COALESCE = 256 * 1024
INBOX_LIMIT = 8 * 1024 * 1024
RECENT_LIMIT = 4 * 1024 * 1024
UI_TURNS = 4
TAIL_WINDOW = 0.1
"""Seconds after a snapshot during which arriving output counts as the snapshot's tail."""
BEHIND_VIEW = 0.02
"""Waiting output that takes longer than this to parse makes views draw fewer frames."""
"""Seconds after a snapshot during which arriving output counts as the snapshot's tail."""


@dataclass
class ParseRate:
    """How fast this client parses output (bytes per second), smoothed over recent pieces."""

    bytes_per_second: float = 2e6
    weight: float = 0.2

    def note(self, size: int, seconds: float) -> None:
        """Account for ``size`` bytes parsed in ``seconds``."""
        if size >= 1024 and seconds > 0:
            sample = size / seconds
            self.bytes_per_second += self.weight * (sample - self.bytes_per_second)

    def seconds_for(self, size: int) -> float:
        """How long parsing ``size`` bytes would take."""
        return size / self.bytes_per_second


@dataclass
class CatchUp:
    """Decides when a snapshot pays and which output the snapshot on its way makes redundant."""

    behind_after: float = BEHIND_AFTER
    resyncing: bool = False
    tail: int = 0
    """Bytes that came with the last snapshot (output the endpoint's model had not parsed yet):
    about what a resync would leave to parse, so only a backlog beyond it is worth skipping."""
    rate: ParseRate = dataclasses.field(default_factory=ParseRate)

    snapshot_at: float = float("-inf")
    """When the last snapshot was applied (``time.perf_counter()``)."""

    def pays(self, waiting: int, now: float) -> bool:
        """Whether skipping ``waiting`` bytes for a snapshot saves more than the limit.

        Output arriving within :data:`TAIL_WINDOW` of a snapshot is counted as its tail.
        """
        if self.resyncing:
            return False
        if now - self.snapshot_at < TAIL_WINDOW:
            self.tail = max(self.tail, waiting)
            return False
        return self.rate.seconds_for(waiting - self.tail) > self.behind_after

    def snapshot_applied(self, waiting: int, now: float) -> None:
        """Start measuring the tail of a snapshot: ``waiting`` bytes came with it so far."""
        self.snapshot_at, self.tail = now, waiting

    def skips(self, event: SourceEvent) -> bool:
        """Whether to drop ``event``: output already covered by the snapshot on its way."""
        if isinstance(event, SnapshotReceived):
            self.resyncing = False
            return False
        return self.resyncing and isinstance(event, OutputReceived)


class Pump:
    """Applies ``session.source``'s events to ``session`` (see the module docstring)."""

    def __init__(
        self,
        session: LiveSession,
        *,
        clock: Callable[[], float],
        notice: Callable[[LiveSession, Notice], object],
        control: Callable[[LiveSession], object],
    ) -> None:
        self.session = session
        self.clock, self.notice, self.control = clock, notice, control
        self.catch_up = CatchUp()
        self._inbox: deque[SourceEvent] = deque()
        self._inbox_bytes = 0
        self._arrived = asyncio.Event()
        self._room = asyncio.Event()
        self._ended = False
        self._error: BaseException | None = None
        self._slice_started = time.perf_counter()
        self._recent: deque[tuple[int, bytes]] = deque()
        """The last output taken (fed or skipped), as ``(offset, data)``, up to
        :data:`RECENT_LIMIT` bytes: a snapshot's offset can lie that far behind it."""
        self._recent_bytes = 0

    # -- the reader task --------------------------------------------------------------------------

    async def _read(self) -> None:
        try:
            async for event in self.session.source.events():
                self._inbox.append(event)
                if isinstance(event, OutputReceived):
                    self._inbox_bytes += len(event.data)
                self._arrived.set()
                while self._inbox_bytes > INBOX_LIMIT:
                    self._room.clear()
                    await self._room.wait()
        except Exception as error:  # handed to the pump, which raises it in order
            self._error = error
        finally:
            self._ended = True
            self._arrived.set()

    def _take(self) -> SourceEvent:
        event = self._inbox.popleft()
        if isinstance(event, OutputReceived):
            self._inbox_bytes -= len(event.data)
            if self._inbox_bytes <= INBOX_LIMIT:
                self._room.set()
            self._remember(event)
        return event

    def _remember(self, event: OutputReceived) -> None:
        recent = self._recent
        if recent and recent[-1][0] + len(recent[-1][1]) != event.offset:
            recent.clear()  # not contiguous (a new stream): what came before is of no use
            self._recent_bytes = 0
        recent.append((event.offset, event.data))
        self._recent_bytes += len(event.data)
        while self._recent_bytes - len(recent[0][1]) >= RECENT_LIMIT:
            self._recent_bytes -= len(recent.popleft()[1])

    def _before(self, offset: int) -> bytes | None:
        """Up to :data:`WINDOW` bytes of output ending at ``offset``, if they were taken."""
        recent = self._recent
        if not recent or not recent[0][0] <= offset <= recent[-1][0] + len(recent[-1][1]):
            return None
        parts: list[bytes] = []
        size = 0
        for start, data in reversed(recent):
            if start >= offset:
                continue
            parts.append(data[: offset - start][-(WINDOW - size) :])
            size += len(parts[-1])
            if size >= WINDOW:
                break
        return b"".join(reversed(parts))

    def _carried(self, snapshot: SnapshotReceived) -> SnapshotReceived:
        """``snapshot`` with the unfinished end of the output before its offset appended.

        The endpoint's repaint does not hold a sequence its model was half-way through; the
        output after the snapshot finishes it (see :mod:`observer.protocol.partial`).
        """
        before = self._before(snapshot.offset)
        if before is None or unfinished_end(snapshot.data):
            return snapshot  # the bytes before it never came, or the endpoint carried it itself
        carry = unfinished_end(before)
        return dataclasses.replace(snapshot, data=snapshot.data + carry) if carry else snapshot

    def _waiting(self) -> int:
        # Output in the inbox, plus what the source holds if it can tell (a connection's queue).
        return self._inbox_bytes + int(getattr(self.session.source, "backlog", 0) or 0)

    # -- the pump ---------------------------------------------------------------------------------

    async def run(self) -> None:
        """Until the source ends (re-raising what ended it, after the events before it)."""
        reader = asyncio.create_task(self._read())
        try:
            while True:
                if not self._inbox:
                    if self._ended:
                        break
                    self._arrived.clear()
                    self.session.behind = False
                    await self._arrived.wait()
                    self._slice_started = time.perf_counter()  # we waited: the UI had its turn
                    continue
                if self.catch_up.pays(self._waiting(), time.perf_counter()):
                    await self._resync()
                await self._handle(self._take())
                await self._yield_if_due()
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)
        if self._error is not None:
            raise self._error

    async def _yield_if_due(self) -> bool:
        if time.perf_counter() - self._slice_started < TIME_SLICE:
            return False
        self.session.behind = self.catch_up.rate.seconds_for(self._waiting()) > BEHIND_VIEW
        for _ in range(UI_TURNS):
            await asyncio.sleep(0)
        self._slice_started = time.perf_counter()
        return True

    async def _resync(self) -> None:
        if await self.session.source.request_resync():
            self.catch_up.resyncing = True
            self.session.resyncs += 1

    async def _handle(self, event: SourceEvent) -> None:
        catch_up = self.catch_up
        answer = catch_up.resyncing and isinstance(event, SnapshotReceived)
        if catch_up.skips(event):
            return
        if isinstance(event, OutputReceived):
            for data in self._coalesce(event):
                if not await self._feed(data):
                    break
            return
        if isinstance(event, SessionStarted) and catch_up.resyncing:
            # A new connection: the old one's snapshot will never come; ask this one.
            catch_up.resyncing = False
            await self._resync()
        if isinstance(event, SnapshotReceived):
            # What arrives with the snapshot would follow any other one too: no skipping it.
            catch_up.snapshot_applied(self._waiting(), time.perf_counter())
            event = self._carried(event)
            if answer and event.gap:
                # It answers our resync: the screen is whole, nothing was lost in transit.
                event = dataclasses.replace(event, gap=False)
        self._apply(event)

    def _coalesce(self, first: OutputReceived) -> list[bytes]:
        """``first``'s bytes and those of the output frames right behind it in the inbox.

        The last frame stays apart: whether the latest output rang the bell (an agent asking
        something) is judged on it, as when every frame was fed on its own.
        """
        inbox = self._inbox
        if not inbox or not isinstance(inbox[0], OutputReceived):
            return [first.data]
        parts, size = [first.data], len(first.data)
        while inbox and size < COALESCE:
            following = inbox[0]
            if not isinstance(following, OutputReceived):
                break
            self._take()
            parts.append(following.data)
            size += len(following.data)
        return [b"".join(parts[:-1]), parts[-1]]

    async def _feed(self, data: bytes) -> bool:
        """Feed ``data`` in pieces; False if the rest was dropped for a snapshot on its way."""
        catch_up = self.catch_up
        start = 0
        while start < len(data):
            piece = int(catch_up.rate.bytes_per_second * PIECE_TIME)
            end = start + min(max(piece, PIECE_MIN), PIECE_MAX)
            self._apply(OutputReceived(data[start:end], 0))
            start = end
            if not await self._yield_if_due():
                continue
            rest = len(data) - start
            if rest > 0 and catch_up.pays(rest + self._waiting(), time.perf_counter()):
                await self._resync()
                if catch_up.resyncing:
                    return False  # the snapshot on its way covers the rest of this output
        return True

    def _apply(self, event: SourceEvent) -> None:
        started = time.perf_counter()
        told = self.session.apply(event, self.clock())
        if isinstance(event, OutputReceived):
            self.catch_up.rate.note(len(event.data), time.perf_counter() - started)
        if told is not None:
            self.notice(self.session, told)
        if isinstance(event, ControlChanged | SessionStarted | ErrorReported | Exited):
            self.control(self.session)


async def pump(
    session: LiveSession,
    *,
    clock: Callable[[], float],
    notice: Callable[[LiveSession, Notice], object],
    control: Callable[[LiveSession], object],
) -> None:
    """Apply ``session.source``'s events to ``session`` until the source ends."""
    await Pump(session, clock=clock, notice=notice, control=control).run()
