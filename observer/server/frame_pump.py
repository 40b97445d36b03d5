"""One ticker for the screen views of every session a server holds: each session's due frames
made and sent in turn.

The frames of all sessions fall in the same ticks (:mod:`observer.server.screen_sync`). With a
ticker per session, all of them woke at once and every session's frames were made before any
was sent (a client's writer runs after the tickers ready before it): the first frame waited
for the last, and on a busy machine that wait grew long. The pump makes the sessions' frames in
turn and, once it has made frames for :data:`BATCH` seconds, gives the event loop a turn (the
clients' writers send them) before it makes more: a frame waits at most that long for others,
and frames made together reach a dashboard together (it wakes once for them).
"""

from __future__ import annotations

import asyncio
import time
import weakref
from typing import Protocol

BATCH = 0.005
"""Seconds of making frames after which the pump lets them be sent before it makes more."""


class Ticked(Protocol):
    """A session's screen views, as the pump drives them."""

    sent: int
    """Frames queued so far."""

    def send_due(self) -> float | None:
        """Queue every due frame; the seconds until the next may be due (None: no viewer)."""


class FramePump:
    """The ticker of one event loop (:func:`pump`): running while a session has a viewer."""

    def __init__(self) -> None:
        self._views: list[Ticked] = []
        self._task: asyncio.Task[None] | None = None
        self._sleep: asyncio.Future[None] | None = None

    def add(self, views: Ticked) -> None:
        """Tick ``views`` too (a client entered its screen view), from now."""
        if views not in self._views:
            self._views.append(views)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        self.wake()

    def remove(self, views: Ticked) -> None:
        """Stop ticking ``views`` (its session closes)."""
        if views in self._views:
            self._views.remove(views)

    def wake(self) -> None:
        """Look for due frames now (a viewer came, or a notification: it goes at once)."""
        if self._sleep is not None and not self._sleep.done():
            self._sleep.set_result(None)

    async def _run(self) -> None:
        # Wake when the next frame may be due (the views say when), or when woken.
        loop = asyncio.get_running_loop()
        while self._views:
            due = time.monotonic() + 1.0
            began = time.monotonic()
            for views in list(self._views):
                if views not in self._views:  # (removed during a turn given away)
                    continue
                sent = views.sent
                wait = views.send_due()
                if wait is None:
                    self._views.remove(views)  # nobody watches its screen now
                    continue
                now = time.monotonic()
                due = min(due, now + wait)
                if views.sent != sent and now - began >= BATCH:
                    await asyncio.sleep(0)  # the frames made so far go before more are made
                    began = time.monotonic()
            if not self._views:
                break
            self._sleep = sleep = loop.create_future()
            timer = loop.call_later(max(0.0, due - time.monotonic()), _done, sleep)
            try:
                await sleep
            finally:
                timer.cancel()
                self._sleep = None


_pumps: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, FramePump] = (
    weakref.WeakKeyDictionary()
)


def pump() -> FramePump:
    """The running event loop's pump."""
    loop = asyncio.get_running_loop()
    found = _pumps.get(loop)
    if found is None:
        found = _pumps[loop] = FramePump()
    return found


def _done(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
