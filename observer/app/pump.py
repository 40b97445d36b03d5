"""Moving a source's events into a :class:`LiveSession` without starving the UI or falling behind.

Rules from DESIGN.md ("Rendering"):

- feed in time slices of about 8 ms, then yield to the UI. A frame from the endpoint can carry
  hundreds of kilobytes (tens of milliseconds of parsing), so output is fed in pieces of
  :data:`PIECE` bytes with the clock checked between them;
- between slices, give the event loop several turns (:data:`UI_TURNS`): a key press travels
  driver → app → focused widget → socket, one turn per hop, and must leave before parsing resumes;
- when the client is more than about 200 ms behind, ask the endpoint for a snapshot (``resync``)
  and skip the buffered output until it arrives, instead of parsing it all: client work is then
  bounded by the frame rate, not by the agent's output rate. "Behind" is judged two ways: the
  output already waiting in the source would take longer than that to parse at the measured rate,
  or the client has been working through buffered events without a pause for that long.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
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

TIME_SLICE = 0.008
BEHIND_AFTER = 0.2
PIECE = 8 * 1024
UI_TURNS = 4
BUFFERED = 0.001
"""An event that arrived within this long of asking was already waiting: we are busy, not idle."""


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
    """Decides when the client is too far behind and which output a snapshot makes redundant."""

    behind_after: float = BEHIND_AFTER
    busy_since: float | None = None
    resyncing: bool = False
    rate: ParseRate = dataclasses.field(default_factory=ParseRate)

    def arrived(self, asked: float, got: float) -> bool:
        """Note one event asked for at ``asked`` and received at ``got``; True: ask for a resync."""
        if got - asked > BUFFERED:
            self.busy_since = None
            return False
        if self.busy_since is None:
            self.busy_since = asked
            return False
        return not self.resyncing and got - self.busy_since >= self.behind_after

    def backlog_too_big(self, waiting: int) -> bool:
        """Whether ``waiting`` bytes of buffered output would take too long to parse."""
        return not self.resyncing and self.rate.seconds_for(waiting) > self.behind_after

    def skips(self, event: SourceEvent) -> bool:
        """Whether to drop ``event``: output already covered by the snapshot on its way."""
        if isinstance(event, SnapshotReceived):
            self.resyncing = False
            self.busy_since = None
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
        self._slice_started = time.perf_counter()

    def _waiting(self) -> int:
        # Optional on a source: bytes of output it holds that were not yet handed over.
        return int(getattr(self.session.source, "backlog", 0) or 0)

    async def _yield_if_due(self) -> None:
        if time.perf_counter() - self._slice_started >= TIME_SLICE:
            for _ in range(UI_TURNS):
                await asyncio.sleep(0)
            self._slice_started = time.perf_counter()

    async def _resync(self) -> None:
        if await self.session.source.request_resync():
            self.catch_up.resyncing = True
            self.session.resyncs += 1

    async def run(self) -> None:
        """Until the source ends."""
        events = self.session.source.events().__aiter__()
        catch_up = self.catch_up
        while True:
            asked = time.perf_counter()
            try:
                event = await anext(events)
            except StopAsyncIteration:
                return
            got = time.perf_counter()
            if got - asked > BUFFERED:
                self._slice_started = got  # we waited: the UI had its turn
            busy = catch_up.arrived(asked, got)
            if not catch_up.resyncing and (busy or catch_up.backlog_too_big(self._waiting())):
                await self._resync()
            await self._handle(event)
            await self._yield_if_due()

    async def _handle(self, event: SourceEvent) -> None:
        catch_up = self.catch_up
        answer = catch_up.resyncing and isinstance(event, SnapshotReceived)
        if catch_up.skips(event):
            return
        if isinstance(event, SessionStarted) and catch_up.resyncing:
            # A new connection: the old one's snapshot will never come; ask this one.
            catch_up.resyncing = False
            await self._resync()
        if isinstance(event, SnapshotReceived) and answer and event.gap:
            # It answers our resync: the screen is whole, nothing was lost in transit.
            event = dataclasses.replace(event, gap=False)
        if isinstance(event, OutputReceived) and len(event.data) > PIECE:
            await self._feed_in_pieces(event)
            return
        self._apply(event)

    def _apply(self, event: SourceEvent) -> None:
        started = time.perf_counter()
        told = self.session.apply(event, self.clock())
        if isinstance(event, OutputReceived):
            self.catch_up.rate.note(len(event.data), time.perf_counter() - started)
        if told is not None:
            self.notice(self.session, told)
        if isinstance(event, ControlChanged | SessionStarted | ErrorReported | Exited):
            self.control(self.session)

    async def _feed_in_pieces(self, event: OutputReceived) -> None:
        data, catch_up = event.data, self.catch_up
        for start in range(0, len(data), PIECE):
            self._apply(OutputReceived(data[start : start + PIECE], event.offset + start))
            if time.perf_counter() - self._slice_started < TIME_SLICE:
                continue
            await self._yield_if_due()
            rest = len(data) - start - PIECE
            if rest > 0 and catch_up.backlog_too_big(rest + self._waiting()):
                await self._resync()
                if catch_up.resyncing:
                    return  # the snapshot on its way covers the rest of this frame


async def pump(
    session: LiveSession,
    *,
    clock: Callable[[], float],
    notice: Callable[[LiveSession, Notice], object],
    control: Callable[[LiveSession], object],
) -> None:
    """Apply ``session.source``'s events to ``session`` until the source ends."""
    await Pump(session, clock=clock, notice=notice, control=control).run()
