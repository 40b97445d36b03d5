"""The server's log of what agents sent to be noticed, as screen frames carry it."""

from __future__ import annotations

import time

from observer.protocol.screen_frames import MAX_NOTIFICATIONS
from observer.server.notification_log import NotificationLog
from observer.terminal import BellRung, NotificationSent, ProgressReported
from tests.waiting import until


def test_each_client_gets_what_came_after_its_last_number_and_a_bell_flood_is_one_bell() -> None:
    log = NotificationLog()
    asked = NotificationSent("", "needs a look", "osc9")
    log.add([asked, *[BellRung()] * 500])
    assert log.since(0) == (asked, BellRung())
    seen = log.last
    log.add([ProgressReported(1, 40)])
    assert log.since(seen) == (ProgressReported(1, 40),)
    assert log.since(log.last) == ()


def test_the_log_keeps_only_the_newest() -> None:
    log = NotificationLog()
    log.add([ProgressReported(1, n) for n in range(100)])
    kept = log.since(0)
    assert len(kept) == MAX_NOTIFICATIONS and kept[-1] == ProgressReported(1, 99)


class Viewer:
    """A client in the screen view, as the session's ticker sees it."""

    def __init__(self, fps: int) -> None:
        from observer.server.screen_sync import ScreenFeed

        self.screen: ScreenFeed | None = ScreenFeed(fps)
        self.overflowed = False
        self.sent: list[str | bytes] = []

    def push(self, message: str | bytes, frame: bytes | None = None) -> None:
        self.sent.append(message)

    def push_unbounded(self, message: str | bytes, frame: bytes | None = None) -> None:
        self.sent.append(message)

    def drop_backlog(self) -> None:
        pass


def test_the_ticker_sleeps_until_the_next_frame_is_due_not_a_tick_more() -> None:
    from observer.server.screen_sync import TICK, TIMER_SLACK, RowVersions, ScreenViews
    from observer.terminal import TerminalModel

    model, rows = TerminalModel(20, 3, scrollback=0), RowVersions(3)
    viewer = Viewer(fps=8)
    views = ScreenViews(
        [viewer],
        model,
        rows=lambda: rows,
        offset=lambda: 0,
        catch_up=lambda: None,
        notices=NotificationLog(),
    )
    rows.bump(model.feed(b"hello"))
    wait = views.send_due()
    assert len(viewer.sent) == 1  # the first frame
    assert wait is not None and 1 / 8 - 0.01 < wait <= 1 / 8 + TIMER_SLACK
    # A timer that fires a hair before the frame is due: wake again then, not a tick later.
    assert viewer.screen is not None
    viewer.screen.due = time.monotonic() + 0.0005
    rows.bump(model.feed(b" world"))
    wait = views.send_due()
    assert len(viewer.sent) == 1 and wait is not None and wait < TICK / 4
    viewer.screen = None
    assert views.send_due() is None  # nobody watches the screen: the ticker stops


def test_a_notification_or_a_bell_goes_at_once_and_progress_waits_its_turn() -> None:
    from observer.server.screen_sync import TICK, RowVersions, ScreenFeed
    from observer.terminal import TerminalModel

    model, rows, log = TerminalModel(20, 3, scrollback=0), RowVersions(3), NotificationLog()
    now = [0.0]
    feed = ScreenFeed(2, clock=lambda: now[0])  # a frame every half second at most
    rows.bump(model.feed(b"working"))
    assert feed.frame(model, rows, 7, log) is not None
    now[0] = 0.1
    rows.bump(model.feed(b" more"))
    assert feed.frame(model, rows, 12, log) is None  # a change waits for the next frame
    log.add([ProgressReported(1, 40)])
    assert feed.frame(model, rows, 12, log) is None  # and so does progress
    log.add([NotificationSent("", "Claude needs your permission", "osc9")])
    frame = feed.frame(model, rows, 12, log)
    assert frame is not None and "Claude needs your permission" in frame and "more" in frame
    # A flood of bells is not a flood of frames: at most one a tick.
    now[0] += TICK / 2
    log.add([BellRung()])
    assert feed.frame(model, rows, 12, log) is None
    now[0] += TICK / 2 + 0.001
    assert feed.frame(model, rows, 12, log) is not None


async def test_the_ticker_wakes_for_a_notification_instead_of_sleeping_until_the_next_frame() -> (
    None
):

    from observer.server.screen_sync import RowVersions, ScreenViews
    from observer.terminal import TerminalModel

    model, rows, log = TerminalModel(20, 3, scrollback=0), RowVersions(3), NotificationLog()
    viewer = Viewer(fps=1)
    viewer.screen = None
    views = ScreenViews(
        [viewer], model, rows=lambda: rows, offset=lambda: 0, catch_up=lambda: None, notices=log
    )
    rows.bump(model.feed(b"hello"))
    views.enter(viewer, 1)  # one frame a second
    try:
        await until(lambda: viewer.sent, "the first frame")
        assert len(viewer.sent) == 1
        asked = time.monotonic()
        log.add([NotificationSent("", "waiting for input", "osc777")])
        await until(lambda: len(viewer.sent) > 1, "the notification's frame", poll=0.005)
        assert len(viewer.sent) == 2 and "waiting for input" in str(viewer.sent[1])
        assert time.monotonic() - asked < 0.5  # not the second's wait for the next frame
    finally:
        views.stop()
