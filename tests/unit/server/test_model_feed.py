"""The server's model: quiet output waits to be parsed a backlog at a time (most of a log's
lines scroll off unseen, most of a redrawn UI's frames are erased unseen); anything else, and
anything a frame or a snapshot looks at, is parsed at once."""

from __future__ import annotations

import asyncio
import time

import pytest

from observer.server.model_feed import HOLD, ModelFeed
from observer.server.screen_sync import ScreenViews
from observer.terminal import TerminalModel
from tests.unit.server.test_screen_notices import Viewer
from tests.unit.server.test_snapshot_continuation import Reader
from tests.unit.terminal.test_erased import _frame
from tests.waiting import until

LINE = b"\x1b[32m[%6d]\x1b[0m CC src/module_%04d/file.o -O2 \x1b[33mok\x1b[0m\r\n"


def _lines(start: int, count: int) -> bytes:
    return b"".join(LINE % (n, n % 97) for n in range(start, start + count))


class CountingModel(TerminalModel):
    """The server's model, counting the bytes it parsed one by one (not skipped)."""

    def __init__(self) -> None:
        super().__init__(100, 30, scrollback=0)
        self.parsed = 0
        stream = self._stream
        feed_text = stream.feed_text

        def counted(text: str) -> None:
            self.parsed += len(text)
            feed_text(text)

        stream.feed_text = counted  # type: ignore[method-assign]


def _feed(model: TerminalModel, answers: list[bytes] | None = None) -> ModelFeed:
    return ModelFeed(model, 64 * 1024, Reader(), (answers if answers is not None else []).append)


async def test_a_log_waits_and_is_parsed_a_backlog_at_a_time() -> None:
    model = CountingModel()
    feed = _feed(model)
    task = asyncio.get_running_loop().create_task(feed.run())
    try:
        sent = 0
        for batch in range(6):  # a build log: 50 lines every 10 ms
            data = _lines(batch * 50, 50)
            feed.add(data)
            sent += len(data)
            await asyncio.sleep(0.01)  # the writer's pace is what the feed reacts to
        assert feed.offset == 0  # held: nothing looked at the screen yet
        await until(lambda: feed.offset >= sent, "the hold to run out")
        assert feed.offset == sent
        assert model.text()[-2].startswith("[   299]")
        assert model.parsed < sent / 3  # the last screenful or so, not 300 lines
    finally:
        task.cancel()


async def test_a_redrawn_ui_waits_and_only_its_last_frames_are_drawn() -> None:
    model = CountingModel()
    feed = _feed(model)
    task = asyncio.get_running_loop().create_task(feed.run())
    try:
        sent = 0
        for n in range(20):  # an Ink-like UI: a 10-row frame, erasing the last, every 10 ms
            data = _frame(n, first=n == 0)
            feed.add(data)
            sent += len(data)
            await asyncio.sleep(0.01)  # the writer's pace is what the feed reacts to
        feed.current()  # a round of frames looks at the screen
        assert feed.offset == sent
        assert model.text()[0].startswith("word7 word8")  # frame 19: word (19 + row) % 12
        assert model.parsed < sent / 4  # a frame now and then, not 20 of them
    finally:
        task.cancel()


async def test_a_frame_shows_the_log_s_last_line_not_the_one_a_hold_ago() -> None:
    model = TerminalModel(100, 30, scrollback=0)
    feed = _feed(model)
    task = asyncio.get_running_loop().create_task(feed.run())
    viewer = Viewer(fps=5)
    views = ScreenViews(
        [viewer],
        model,
        rows=lambda: feed.rows,
        offset=lambda: feed.offset,
        catch_up=feed.catch_up,
        current=feed.current,
        notices=feed.notices,
    )
    try:
        feed.add(_lines(0, 200))
        await asyncio.sleep(0)  # one turn of the loop: the feed's task holds the lines
        views.send_due()
        (frame,) = viewer.sent
        assert isinstance(frame, str) and "[   199]" in frame
        assert f'"offset":{feed.offset}' in frame.replace(" ", "")
    finally:
        task.cancel()


async def test_a_query_after_log_lines_is_answered_at_once() -> None:
    answers: list[bytes] = []
    feed = _feed(CountingModel(), answers)
    task = asyncio.get_running_loop().create_task(feed.run())
    try:
        feed.add(_lines(0, 100))
        feed.add(b"\x1b[6n")  # where is the cursor? The program waits for the answer.
        began = time.monotonic()
        await until(lambda: answers, "the answer to the query", poll=0.001)
        assert answers == [b"\x1b[30;1R"]
        assert time.monotonic() - began < HOLD
    finally:
        task.cancel()


@pytest.mark.parametrize(
    "data",
    [b"\x1b[5;1Hspinner", b"\x1b]0;title\x07", _lines(0, 600)],
    ids=["a cursor placed", "a title", "over half the backlog's bound"],
)
async def test_output_is_parsed_at_once_unless_quiet_and_little(data: bytes) -> None:
    feed = _feed(TerminalModel(100, 30, scrollback=0))
    task = asyncio.get_running_loop().create_task(feed.run())
    try:
        feed.add(data)
        for _ in range(5):  # a few turns of the loop, far less than the hold
            await asyncio.sleep(0)
        assert feed.offset == len(data)
    finally:
        task.cancel()


def test_a_snapshot_taken_while_lines_are_held_is_at_the_end_of_the_stream() -> None:
    feed = _feed(TerminalModel(100, 30, scrollback=0))
    feed.add(_lines(0, 200))
    feed.catch_up()
    assert feed.offset == len(_lines(0, 200))
    assert "[   199]" in feed.snapshot().data


def test_plain_output_that_does_not_scroll_off_is_looked_at_whole_once() -> None:
    class Model(TerminalModel):
        tries = 0

        def feed_unseen(self, data: bytes) -> set[int] | None:
            self.tries += 1
            return super().feed_unseen(data)

    model = Model(100, 30, scrollback=0)
    feed = _feed(model)
    feed.add(b"x" * 40_000)  # ten pieces, no line end: nothing scrolls off
    feed.catch_up()
    assert model.tries == 1
    assert model.text()[-1] == "x" * 100
