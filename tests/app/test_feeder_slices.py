"""Every session's feeder shares one parsing slice: the event loop gets its turns after a few
milliseconds of parsing in all, however many sessions have output waiting.

Each feeder with a slice of its own let 40 sessions parse 40 × 5 ms in one turn of the loop:
200 ms without a frame drawn or a key read. The clock the feeders read is the test's: each piece
parsed costs 3 ms of it, so what is counted is pieces, not this machine's speed.
"""

from __future__ import annotations

import asyncio

import pytest

from observer.app import feeder
from observer.app.feeder import Slices, feed
from observer.protocol.events import OutputReceived
from tests.app.conftest import scripted

PIECE = 0.003


async def test_forty_sessions_with_output_waiting_give_the_loop_its_turns_every_slice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [0.0]
    monkeypatch.setattr(feeder.time, "perf_counter", lambda: now[0])
    links = [scripted([], identifier=f"a{n}") for n in range(40)]
    between: list[int] = [0]  # pieces parsed since the loop's last turn
    for link in links:
        session, original = link.session, link.session.feed

        def timed(budget: int, clock: float, original=original) -> int:  # type: ignore[no-untyped-def]
            now[0] += PIECE
            between[-1] += 1
            return original(budget, clock)

        session.feed = timed  # type: ignore[method-assign]
        for n in range(30):  # output waiting: many pieces' worth each
            link.push(OutputReceived(b"x" * 4096 + b"\r\n", n * 4098))
    ended = asyncio.Event()
    slices = Slices()
    tasks = [
        asyncio.create_task(feed(link, clock=lambda: 0.0, ended=ended, slices=slices))
        for link in links
    ]
    for _ in range(300):  # the loop's turns, as a timer or a key press gets them
        await asyncio.sleep(0)
        between.append(0)
    counted = between[:-1]
    ended.set()
    for link in links:
        link.received.set()
    await asyncio.wait_for(asyncio.gather(*tasks), 30)
    assert sum(counted) > 100  # they parsed
    # A slice is 5 ms: two pieces of 3 ms, then everyone gives way.
    assert max(counted) <= 2
