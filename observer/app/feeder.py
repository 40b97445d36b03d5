"""Feeding a watched session's model in time slices, so parsing never starves the UI.

The core (:class:`~observer.client.watched.WatchedSession`) keeps what it received in one inbox;
this loop parses it in pieces of about :data:`PIECE_TIME` seconds (from the measured rate) and,
after :data:`TIME_SLICE` seconds of parsing, gives the event loop :data:`UI_TURNS` turns: a key
press travels driver → app → focused widget → socket, one turn per hop, and leaves before parsing
resumes; frames are drawn in those turns too. Before each piece it lets the core decide whether
skipping the backlog for a snapshot pays (DESIGN.md, "Rendering").
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from observer.app.links import Link

TIME_SLICE = 0.005
PIECE_TIME = 0.002
PIECE_MIN, PIECE_MAX = 2 * 1024, 32 * 1024
UI_TURNS = 4


async def feed(link: Link, *, clock: Callable[[], float], ended: asyncio.Event) -> None:
    """Parse what ``link``'s session receives until ``ended`` is set and nothing is left."""
    session, received = link.session, link.received
    slice_started = time.perf_counter()
    while True:
        if not session.pending:
            if ended.is_set():
                return
            received.clear()
            if session.pending:
                continue
            await received.wait()
            slice_started = time.perf_counter()  # we waited: the UI had its turn
            continue
        session.check_backlog(clock())
        piece = int(session.catch_up.rate.bytes_per_second * PIECE_TIME)
        started = time.perf_counter()
        size = session.feed(min(max(piece, PIECE_MIN), PIECE_MAX), clock())
        finished = time.perf_counter()
        session.parsed(size, finished - started)
        if finished - slice_started >= TIME_SLICE:
            for _ in range(UI_TURNS):
                await asyncio.sleep(0)
            slice_started = time.perf_counter()
