"""Every session's feeder shares one parsing slice: the event loop gets its turns after a few
milliseconds of parsing in all, however many sessions have output waiting.

Each feeder with a slice of its own let 40 sessions parse 40 × 5 ms in one turn of the loop:
200 ms without a frame drawn or a key read. The clock the feeders read is the test's: each piece
parsed costs 3 ms of it, so what is counted is pieces, not this machine's speed.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from observer.app import feeder
from observer.app.feeder import Slices, feed
from observer.app.links import ScriptedLink
from observer.client.events import SessionEvent, StatusChanged
from observer.client.watched import WatchedSession
from observer.protocol.events import OutputReceived, PresenceChanged
from tests.app.conftest import scripted
from tests.waiting import until

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


async def test_output_now_and_then_is_parsed_as_it_comes_without_giving_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [0.0]
    monkeypatch.setattr(feeder.time, "perf_counter", lambda: now[0])
    link = scripted([], identifier="a")
    sizes = await feeds_of(link)
    counted_feed = link.session.feed

    def timed(budget: int, clock: float) -> int:
        now[0] += 0.001  # each frame takes 1 ms to parse
        return counted_feed(budget, clock)

    link.session.feed = timed  # type: ignore[method-assign]
    slices = Slices()
    gave_way: list[float] = []
    give_way = slices.give_way

    async def counted() -> None:
        gave_way.append(now[0])
        await give_way()

    slices.give_way = counted  # type: ignore[method-assign]
    ended = asyncio.Event()
    task = asyncio.create_task(feed(link, clock=lambda: 0.0, ended=ended, slices=slices))
    for n in range(4):  # a tile's frame every 200 ms
        now[0] += 0.2
        link.push(OutputReceived(b"frame\r\n", 7 * n))
        await until(lambda n=n: len(sizes) == n + 1, "the frame parsed")  # type: ignore[misc]
    # 4 ms of parsing in all: the slice is not spent, however long the frames took to come.
    assert gave_way == [] and slices.used == pytest.approx(0.004)
    ended.set()
    link.received.set()
    await asyncio.wait_for(task, 5)


async def test_a_hold_keeps_every_feeder_from_parsing_until_it_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    link = scripted([], identifier="a")
    fed: list[float] = []
    original = link.session.feed

    def timed(budget: int, clock: float) -> int:
        fed.append(asyncio.get_running_loop().time())
        return original(budget, clock)

    link.session.feed = timed  # type: ignore[method-assign]
    slices = Slices()
    slices.hold(0.2)  # a key was pressed
    assert slices.held and slices.spent()
    ended = asyncio.Event()
    began = asyncio.get_running_loop().time()
    task = asyncio.create_task(feed(link, clock=lambda: 0.0, ended=ended, slices=slices))
    link.push(OutputReceived(b"hello\r\n", 0))
    await until(lambda: fed, "the output fed")
    assert fed[0] - began >= 0.19  # the key's work had the loop first
    ended.set()
    link.received.set()
    await asyncio.wait_for(task, 5)


async def test_a_screen_pushed_or_popped_holds_parsing_and_typing_to_an_agent_does_not() -> None:
    from observer.app.app import ObserverApp
    from observer.app.screens.watch import WatchScreen

    app = ObserverApp([scripted([b"$ "], identifier="a"), scripted([b"$ "], identifier="b")])
    holds: list[str] = []
    async with app.run_test(size=(100, 30)) as pilot:
        hold = app.slices.hold
        app.slices.hold = lambda seconds=0.15: (holds.append(type(app.screen).__name__), hold())  # type: ignore[method-assign,func-returns-value]
        await pilot.press("right")  # focus the next tile: no screen changes
        assert holds == []
        await pilot.press("enter")  # open it
        assert isinstance(app.screen, WatchScreen) and holds == ["DashboardScreen"]
        await pilot.press("ctrl+t", "y")  # asked to confirm (a dialog), confirmed
        await until(lambda: getattr(app.screen, "control", False), "the keyboard taken")
        assert isinstance(app.screen, WatchScreen) and app.screen.control
        assert holds == ["DashboardScreen", "WatchScreen", "ConfirmScreen"]
        await pilot.press("l", "s")
        assert len(holds) == 3  # typed to the agent: its echo is not held back


async def feeds_of(link: ScriptedLink, times: list[float] | None = None) -> list[int]:
    """The sizes the session's feeds parse, as they happen (and when, into ``times``)."""
    sizes: list[int] = []
    original = link.session.feed

    def counted(budget: int, clock: float) -> int:
        sizes.append(original(budget, clock))
        if times is not None:
            times.append(time.perf_counter())
        return sizes[-1]

    link.session.feed = counted  # type: ignore[method-assign]
    return sizes


async def test_a_watched_flood_is_parsed_a_backlog_at_a_time_and_a_lone_change_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(feeder, "HOLD", 0.5)  # long enough to push twice within it
    link = scripted([], identifier="a")
    times: list[float] = []
    sizes = await feeds_of(link, times)
    ended = asyncio.Event()
    task = asyncio.create_task(feed(link, clock=lambda: 0.0, ended=ended))
    link.push(OutputReceived(b"first\r\n", 0))  # after a quiet spell: parsed at once
    await until(lambda: sizes == [7], "the first output parsed", timeout=0.4)
    started = time.perf_counter()
    link.push(OutputReceived(b"second\r\n", 7))  # right after it: waits for what follows
    for _ in range(20):
        await asyncio.sleep(0)
    link.push(OutputReceived(b"third\r\n", 15))
    await until(lambda: sum(sizes) == 22, "the backlog parsed")
    # Both once the hold ended (the newest chunk is fed on its own: see WatchedSession.feed).
    assert sizes == [7, 8, 7] and min(times[1:]) - started >= 0.4
    ended.set()
    link.received.set()
    await asyncio.wait_for(task, 5)


async def test_a_change_of_state_is_handed_on_while_the_output_with_it_waits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(feeder, "HOLD", 60.0)  # held with it, the change would wait a minute
    link = scripted([], identifier="a")
    sizes = await feeds_of(link)
    drained: list[SessionEvent] = []
    ended = asyncio.Event()
    task = asyncio.create_task(feed(link, clock=lambda: 0.0, ended=ended, drain=drained.extend))
    link.push(OutputReceived(b"first\r\n", 0))
    await until(lambda: sizes == [7], "the first output parsed")
    drained.clear()
    link.push(OutputReceived(b"second\r\n", 7))  # within the hold: waits for its frame
    link.push(PresenceChanged(watchers=2))  # the status bar's count of watchers
    await until(lambda: any(isinstance(e, StatusChanged) for e in drained), "the change", timeout=5)
    assert sizes == [7]
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


@pytest.mark.parametrize(
    ("state", "first", "then"),
    [
        ("in_control", b"$ ", b"l"),  # a keystroke's echo
        ("paced", b"frame\r\n", b"noted\r\n"),  # a tile's next frame, early: a notification
    ],
)
async def test_in_control_or_in_paced_frames_what_comes_is_parsed_at_once(
    monkeypatch: pytest.MonkeyPatch, state: str, first: bytes, then: bytes
) -> None:
    monkeypatch.setattr(feeder, "HOLD", 60.0)  # held, it would wait a minute
    monkeypatch.setattr(WatchedSession, state, property(lambda self: True))
    link = scripted([], identifier="a")
    sizes = await feeds_of(link)
    ended = asyncio.Event()
    task = asyncio.create_task(feed(link, clock=lambda: 0.0, ended=ended))
    link.push(OutputReceived(first, 0))
    await until(lambda: sizes == [len(first)], "the first output parsed")
    link.push(OutputReceived(then, len(first)))
    await until(lambda: sizes == [len(first), len(then)], "the next parsed", timeout=30)
    ended.set()
    link.received.set()
    await asyncio.wait_for(task, 5)
