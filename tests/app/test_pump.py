"""The catch-up rule: a client busy with a backlog for too long asks for a snapshot instead."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from observer.app.pump import CatchUp, pump
from observer.app.session import LiveSession, Notice
from observer.app.source import SourceEvent
from observer.protocol.events import (
    Capabilities,
    OutputReceived,
    SessionStarted,
    SnapshotReceived,
)
from observer.terminal import TerminalModel

OUT = OutputReceived(b"x", 0)
SNAP = SnapshotReceived(b"", 80, 24, 0, gap=False)


def test_a_backlog_that_takes_longer_than_the_limit_to_parse_pays_for_a_resync() -> None:
    catch_up = CatchUp(behind_after=0.1)
    catch_up.rate.bytes_per_second = 1e6
    assert not catch_up.pays(90_000, 10.0)
    assert catch_up.pays(110_000, 10.0)
    catch_up.resyncing = True
    assert not catch_up.pays(10_000_000, 10.0)  # one resync at a time


def test_output_that_came_with_the_last_snapshot_is_not_worth_another_resync() -> None:
    """The endpoint's snapshot lags its stream by what its own model has not parsed yet."""
    catch_up = CatchUp(behind_after=0.1)
    catch_up.rate.bytes_per_second = 1e6
    catch_up.snapshot_applied(1_000, now=10.0)
    assert not catch_up.pays(500_000, 10.05)  # the snapshot's tail still arriving
    assert not catch_up.pays(550_000, 11.0)
    assert catch_up.pays(650_000, 11.0)


def test_output_is_skipped_only_until_the_snapshot_arrives() -> None:
    catch_up = CatchUp(resyncing=True)
    assert catch_up.skips(OUT)
    assert not catch_up.skips(SNAP)
    assert not catch_up.resyncing and not catch_up.skips(OUT)


def test_nothing_is_skipped_when_no_resync_was_asked() -> None:
    assert not CatchUp().skips(OUT)


class BackloggedSource:
    """A source that reports ``backlog`` buffered bytes and answers ``resync`` with a snapshot.

    Stands in for a connection so the pump's rules can be checked event by event; the same rules
    against a real server and PTY are in ``test_flood.py``.
    """

    label = "backlogged"
    recording = None
    capabilities = Capabilities(snapshot=True, resume=True, control=True, resize=True)

    def __init__(
        self, steps: list[SourceEvent], backlog: int = 0, *, can_resync: bool = True
    ) -> None:
        self.steps = steps
        self.backlog = backlog
        self.can_resync = can_resync
        self.resyncs = 0

    async def events(self) -> AsyncIterator[SourceEvent]:
        for step in self.steps:
            if isinstance(step, SnapshotReceived):
                self.backlog = 0  # the server dropped what it had queued
            yield step

    async def request_resync(self) -> bool:
        self.resyncs += 1
        return self.can_resync

    async def send_input(self, data: bytes) -> None:
        pass

    async def request_control(self) -> None:
        pass

    async def release_control(self) -> None:
        pass

    async def close(self) -> None:
        pass


async def run(session: LiveSession) -> list[Notice]:
    told: list[Notice] = []
    await pump(
        session, clock=lambda: 0.0, notice=lambda s, n: told.append(n), control=lambda s: None
    )
    return told


def snapshot_of(text: bytes, offset: int, gap: bool) -> SnapshotReceived:
    model = TerminalModel(80, 24)
    model.feed(text)
    return SnapshotReceived(model.to_ansi().encode(), 80, 24, offset, gap)


async def test_a_backlog_too_big_to_parse_in_time_is_skipped_for_a_snapshot() -> None:
    stale = b"stale output\r\n" * 300_000  # 4.2 MB: seconds of parsing
    steps: list[SourceEvent] = [
        OutputReceived(stale, 0),
        OutputReceived(b"more stale output", len(stale)),
        snapshot_of(b"the current screen", 29, gap=True),
        OutputReceived(b" and after it", 29),
    ]
    source = BackloggedSource(steps)
    session = LiveSession(source)
    told = await run(session)
    assert source.resyncs == 1 and session.resyncs == 1
    assert session.model.text()[0] == "the current screen and after it"
    assert session.gaps == 0 and told == []  # nothing was lost in transit


async def test_a_client_that_keeps_up_parses_everything_and_never_resyncs() -> None:
    source = BackloggedSource([OutputReceived(b"all of it", 0)], backlog=100)
    session = LiveSession(source)
    await run(session)
    assert source.resyncs == 0
    assert session.model.text()[0] == "all of it"


async def test_a_reconnect_while_waiting_for_a_snapshot_asks_the_new_connection() -> None:
    started = SessionStarted("t", "watch", 80, 24, 0, "none", 1, "")
    steps: list[SourceEvent] = [OutputReceived(b"stale\r\n" * 700_000, 0), started]
    source = BackloggedSource(steps)
    await run(LiveSession(source))
    assert source.resyncs == 2


async def test_a_big_frame_is_parsed_in_slices_that_let_other_tasks_run() -> None:
    data = b"".join(b"line %06d\r\n" % n for n in range(200_000))  # 2.2 MB: far over 8 ms
    session = LiveSession(BackloggedSource([OutputReceived(data, 0)], can_resync=False))
    seen: list[str] = []

    async def look() -> None:
        await asyncio.sleep(0)
        seen.append("\n".join(session.model.text()))

    looking = asyncio.create_task(look())
    await run(session)
    await looking
    assert seen and "line 199999" not in seen[0]  # the other task ran before the frame was done
    assert "line 199999" in session.model.text()


async def test_small_output_frames_waiting_together_are_fed_as_one() -> None:
    steps: list[SourceEvent] = [OutputReceived(b"%d " % n, n) for n in range(100)]
    session = LiveSession(BackloggedSource(steps, can_resync=False))
    feeds: list[set[int]] = []
    session.subscribe(lambda dirty, whole: feeds.append(dirty))
    await run(session)
    assert len(feeds) < 10
    assert session.model.text()[0].startswith("0 1 2 3") and "99" in "".join(session.model.text())


async def test_a_sequence_the_snapshot_cut_in_half_is_finished_by_the_output_after_it() -> None:
    """The endpoint's model had read ``ESC [ 3`` when it took the snapshot; ``1m`` follows it."""
    before = b"hello \x1b[3"
    later = b"1m" + b"x" * 300_000  # taken before the snapshot came: it lags the stream
    steps: list[SourceEvent] = [
        OutputReceived(before, 0),
        OutputReceived(later, len(before)),
        snapshot_of(b"hello ", len(before), gap=False),
        OutputReceived(b"1mred", len(before)),
    ]
    session = LiveSession(BackloggedSource(steps, can_resync=False))
    await run(session)
    assert session.model.text()[0] == "hello red"
    assert session.model.line(0)[6].fg == "red"


async def test_nothing_is_carried_when_the_bytes_before_the_snapshot_never_came() -> None:
    steps: list[SourceEvent] = [
        OutputReceived(b"hello \x1b[3", 0),
        snapshot_of(b"hello world", 500, gap=True),
        OutputReceived(b"!", 500),
    ]
    session = LiveSession(BackloggedSource(steps, can_resync=False))
    await run(session)
    assert session.model.text()[0] == "hello world!"


async def test_coalesced_frames_ring_the_bell_only_if_the_last_one_did() -> None:
    """An agent that rang the bell and went on writing is not waiting for anyone."""
    for frames, rang in (
        ([b"Proceed? \a", b"y: going on\r\n"], False),
        ([b"ok\r\n", b"?\a"], True),
    ):
        steps: list[SourceEvent] = [OutputReceived(f, 0) for f in frames]
        session = LiveSession(BackloggedSource(steps, can_resync=False))
        await run(session)
        assert session.bell_in_last_output is rang
