"""Moving a source's events into a :class:`LiveSession` without starving the UI or falling behind.

Two rules from DESIGN.md ("Rendering"): feed in time slices (about 8 ms, then yield to the UI), and
when the client has been busy with a backlog for more than about 200 ms, ask the endpoint for a
snapshot (``resync``) and skip the buffered output until it arrives, instead of parsing it all:
client work is then bounded by the frame rate, not by the agent's output rate.
"""

from __future__ import annotations

import asyncio
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
BUFFERED = 0.001
"""An event that arrived within this long of asking was already waiting: we are busy, not idle."""


@dataclass
class CatchUp:
    """Tracks how long the client has been working through buffered events without a pause."""

    behind_after: float = BEHIND_AFTER
    busy_since: float | None = None
    resyncing: bool = False

    def arrived(self, asked: float, got: float) -> bool:
        """Note one event asked for at ``asked`` and received at ``got``; True: ask for a resync."""
        if got - asked > BUFFERED:
            self.busy_since = None
            return False
        if self.busy_since is None:
            self.busy_since = asked
            return False
        return not self.resyncing and got - self.busy_since >= self.behind_after

    def skips(self, event: SourceEvent) -> bool:
        """Whether to drop ``event``: output already covered by the snapshot on its way."""
        if isinstance(event, SnapshotReceived):
            self.resyncing = False
            self.busy_since = None
            return False
        return self.resyncing and isinstance(event, OutputReceived)


async def pump(
    session: LiveSession,
    *,
    clock: Callable[[], float],
    notice: Callable[[LiveSession, Notice], object],
    control: Callable[[LiveSession], object],
) -> None:
    """Apply ``session.source``'s events to ``session`` until the source ends."""
    catch_up = CatchUp()
    events = session.source.events().__aiter__()
    started = time.monotonic()
    while True:
        asked = time.monotonic()
        try:
            event = await anext(events)
        except StopAsyncIteration:
            return
        got = time.monotonic()
        if catch_up.arrived(asked, got) and await session.source.request_resync():
            catch_up.resyncing = True
            session.resyncs += 1
        if catch_up.skips(event):
            continue
        told = session.apply(event, clock())
        if told is not None:
            notice(session, told)
        if isinstance(event, ControlChanged | SessionStarted | ErrorReported | Exited):
            control(session)
        if got - started >= TIME_SLICE:
            await asyncio.sleep(0)
            started = time.monotonic()
