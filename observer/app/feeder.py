"""Feeding a watched session's model in time slices, so parsing never starves the UI.

The core (:class:`~observer.client.watched.WatchedSession`) keeps what it received in one inbox;
this loop parses it in pieces of about :data:`PIECE_TIME` seconds (from the measured rate) and,
after :data:`TIME_SLICE` seconds of parsing by all sessions (:class:`Slices`), gives the event
loop :data:`UI_TURNS` turns: a key press travels driver → app → focused widget → socket, one turn per hop, and leaves before parsing
resumes; frames are drawn in those turns too. Before each piece it lets the core decide whether
skipping the backlog for a snapshot pays (:mod:`observer.client.catch_up`). A screen pushed or popped
holds all parsing for :data:`SCREEN_FIRST` (:meth:`Slices.hold`): with 40 tiles, the command
palette, an opened tile or the dashboard again waited behind their frames at every turn of the
loop.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from observer.app.links import Link
from observer.app.widgets.terminal_canvas import FRAME_FLOOD
from observer.client.events import SessionEvent

TIME_SLICE = 0.005
PIECE_TIME = 0.002
PIECE_MIN, PIECE_MAX = 2 * 1024, 32 * 1024
UI_TURNS = 4
SCREEN_FIRST = 0.15
"""When a screen is pushed or popped, parsing waits this long: the screen is composed and drawn
with the event loop to itself."""
HOLD = FRAME_FLOOD
"""While watching, output that comes within this of the last backlog's end waits until then and
is parsed with what follows it: a flood a backlog at a time, as its frames come (a view draws a
flood at most this often). The first output after a quiet spell,
and everything in control (a keystroke's echo), is parsed at once."""


class Slices:
    """The parsing slice every session's feeder shares: after :data:`TIME_SLICE` seconds of
    parsing in all, whoever parses next gives the event loop its turns first. A slice each
    let 40 sessions with output waiting parse 40 × 5 ms in one turn of the loop: 200 ms
    without a frame or a key, and more waiting for the next."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self._number = 0  # of the slice: the first feeder back from giving way starts the next
        self._held_until = 0.0

    def hold(self, seconds: float = SCREEN_FIRST) -> None:
        """Parse nothing for ``seconds`` (a screen is being composed)."""
        self._held_until = max(self._held_until, time.perf_counter() + seconds)

    @property
    def held(self) -> bool:
        """Whether parsing waits for a screen's composition (:meth:`hold`)."""
        return time.perf_counter() < self._held_until

    def spent(self) -> bool:
        """Whether the slice is used up (or parsing is held)."""
        return self.held or time.perf_counter() - self.started >= TIME_SLICE

    async def give_way(self) -> None:
        """Give the event loop :data:`UI_TURNS` turns, or wait out a hold; the first feeder back
        starts a new slice (the others, back in the same turn, find it in use and give way
        again)."""
        held = self._held_until - time.perf_counter()
        if held > 0:
            await asyncio.sleep(held)
        number = self._number
        for _ in range(UI_TURNS):
            await asyncio.sleep(0)
        if self._number == number:
            self._number += 1
            self.started = time.perf_counter()


async def feed(
    link: Link,
    *,
    clock: Callable[[], float],
    ended: asyncio.Event,
    slices: Slices | None = None,
    drain: Callable[[list[SessionEvent]], object] = lambda events: None,
) -> None:
    """Parse what ``link``'s session receives until ``ended`` is set and nothing is left,
    in ``slices`` shared with the other sessions' feeders (a slice of its own if None);
    hand what the session queued to ``drain`` each time round."""
    session, received = link.session, link.received
    slices = slices or Slices()
    drained = -HOLD  # when the last backlog was parsed to its end

    def hand_on() -> None:
        events = session.take_events()
        if events:
            drain(events)

    while True:
        hand_on()
        if not session.pending:
            if ended.is_set():
                return
            drained = time.perf_counter()
            received.clear()
            if session.pending:
                continue
            await received.wait()
            held = drained + HOLD - time.perf_counter()
            if held > 0 and not session.in_control and not ended.is_set():
                # Only output waits for the backlog's frame: a notice or a change of state
                # that came with the wake is handed on at once.
                hand_on()
                await asyncio.sleep(held)
            continue
        if slices.spent():
            await slices.give_way()
            continue  # meanwhile a snapshot may have replaced what was waiting
        session.check_backlog(clock())
        piece = int(session.parse_rate * PIECE_TIME)
        started = time.perf_counter()
        size = session.feed(min(max(piece, PIECE_MIN), PIECE_MAX), clock())
        session.parsed(size, time.perf_counter() - started)
