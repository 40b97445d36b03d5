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
from observer.app.widgets.frame_pace import FRAME_FLOOD
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
flood at most this often). The first output after a quiet spell, everything in control (a
keystroke's echo), and the screen frames the peer paces (a tile's: the peer sends them few
enough, and one that comes early carries a notification) are parsed at once."""


class Slices:
    """The parsing slice every session's feeder shares: after :data:`TIME_SLICE` seconds of
    parsing in all, whoever parses next gives the event loop its turns first. A slice each
    let 40 sessions with output waiting parse 40 × 5 ms in one turn of the loop: 200 ms
    without a frame or a key, and more waiting for the next.

    A slice is spent by parsing, not by the time since it began: output that comes now and
    then (a tile's few frames a second) is parsed as it comes, since the loop had its turns
    while the feeders waited. Counted in wall time, a slice would be spent by the next frame
    whenever it comes, and every frame of every tile would wait :data:`UI_TURNS` turns of
    the loop behind other work."""

    def __init__(self) -> None:
        self.used = 0.0
        """Seconds of parsing in the slice so far."""
        self._waiting: list[asyncio.Future[None]] = []
        """The feeders giving way, resumed when the next slice begins."""
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
        return self.held or self.used >= TIME_SLICE

    def parsed(self, seconds: float) -> None:
        """A feeder parsed for ``seconds`` of the slice."""
        self.used += seconds

    async def give_way(self) -> None:
        """Wait out a hold, then until the event loop has had :data:`UI_TURNS` turns and a
        new slice begins. The feeders that give way meanwhile wait for that same slice, and go
        on in the order they gave way: the turns cost one callback each, however many feeders
        wait (each feeder taking them itself with ``sleep(0)`` would turn the loop once per
        feeder, and again for each that found the new slice spent)."""
        held = self._held_until - time.perf_counter()
        if held > 0:
            await asyncio.sleep(held)
        loop = asyncio.get_running_loop()
        if not self._waiting:
            self._turn(UI_TURNS - 1)  # the waiters resume in the turn after the last callback
        waiter = loop.create_future()
        self._waiting.append(waiter)
        await waiter

    def _turn(self, left: int) -> None:
        """A turn of the loop passed: after ``left`` more, start a new slice."""
        if left:
            asyncio.get_running_loop().call_soon(self._turn, left - 1)
            return
        waiting, self._waiting = self._waiting, []
        self.used = 0.0
        for waiter in waiting:
            if not waiter.done():  # (a feeder cancelled meanwhile)
                waiter.set_result(None)


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
            if held > 0 and not (session.in_control or session.paced or ended.is_set()):
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
        took = time.perf_counter() - started
        session.parsed(size, took)
        slices.parsed(took)
