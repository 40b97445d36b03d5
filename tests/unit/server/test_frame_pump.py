"""One ticker for every session's screen views: each session's frame goes before the next is made."""

from __future__ import annotations

import asyncio

import pytest

from observer.server import frame_pump
from observer.server.notification_log import NotificationLog
from observer.server.screen_sync import RowVersions, ScreenViews
from observer.terminal import TerminalModel
from tests.waiting import until


class Writer:
    """A client whose writer sends what was queued in a later turn of the event loop (as
    :class:`~observer.server.clients.Client` does), noting the order things happened in."""

    def __init__(self, name: str, happened: list[str]) -> None:
        self.name, self.happened = name, happened
        self.screen = None
        self.overflowed = False

    def push(self, message: str | bytes, frame: bytes | None = None) -> None:
        asyncio.get_running_loop().call_soon(self.happened.append, f"sent {self.name}")

    def push_unbounded(self, message: str | bytes, frame: bytes | None = None) -> None:
        self.push(message)

    def drop_backlog(self) -> None:
        pass


async def sent_in_turn(happened: list[str]) -> None:
    """Three sessions' first frames made and sent, what happened noted in ``happened``."""
    sessions, viewers = [], []
    for name in "abc":
        model, rows = TerminalModel(20, 3, scrollback=0), RowVersions(3)
        rows.bump(model.feed(b"hello"))
        viewer = Writer(name, happened)
        views = ScreenViews(
            [viewer],
            model,
            rows=lambda rows=rows: rows,  # type: ignore[misc]
            offset=lambda: 0,
            catch_up=lambda: None,
            current=lambda name=name: happened.append(f"made {name}"),  # type: ignore[misc]
            notices=NotificationLog(),
        )
        sessions.append(views)
        viewers.append(viewer)
    for views, viewer in zip(sessions, viewers, strict=True):
        views.enter(viewer, 4)  # type: ignore[arg-type]
    try:
        await until(lambda: len(happened) >= 6, "every session's first frame sent")
    finally:
        for views in sessions:
            views.stop()


async def test_frames_go_once_made_for_a_batchs_time_not_after_every_sessions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The frames of every session fall in the same tick: made all first and sent after, the
    # first session's frame would wait for the last session's to be made.
    monkeypatch.setattr(frame_pump, "BATCH", 0.0)
    happened: list[str] = []
    await sent_in_turn(happened)
    assert happened[:6] == ["made a", "sent a", "made b", "sent b", "made c", "sent c"]


async def test_frames_made_within_a_batch_go_together(monkeypatch: pytest.MonkeyPatch) -> None:
    # A dashboard wakes once for the frames that come together.
    monkeypatch.setattr(frame_pump, "BATCH", 10.0)
    happened: list[str] = []
    await sent_in_turn(happened)
    assert happened[:6] == ["made a", "made b", "made c", "sent a", "sent b", "sent c"]
