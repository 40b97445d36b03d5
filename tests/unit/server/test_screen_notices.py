"""The server's log of what agents sent to be noticed, as screen frames carry it."""

from __future__ import annotations

from observer.protocol.screen_frames import MAX_NOTIFICATIONS
from observer.server.screen_sync import NotificationLog
from observer.terminal import BellRung, NotificationSent, ProgressReported


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
