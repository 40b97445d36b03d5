"""A session's snapshots, paced: at most :data:`SNAPSHOTS_PER_SECOND` repaints a second.

A snapshot costs a parse of the model's backlog and a repaint of the screen (``to_ansi``).
Every new connection gets one, and so does every client that falls behind or asks: a client
churning connections used to cost one repaint each, hundreds a second. A snapshot younger than
:data:`PERIOD` is shared instead, followed by the output after its offset (the ring holds it):
the client's stream is the same, only the repaint is older and the bytes after it more.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from observer.server.model_feed import ModelFeed, ScreenModel
from observer.server.ring import OutputRing
from observer.server.websocket_adapter import wire_frame

SNAPSHOTS_PER_SECOND: Final = 20
PERIOD: Final = 1.0 / SNAPSHOTS_PER_SECOND


@dataclass(frozen=True, slots=True)
class Taken:
    """A snapshot: when it was taken, the stream offset it stands at, and its frame."""

    at: float
    offset: int
    size: tuple[int, int]
    message: str
    frame: bytes


class PacedSnapshots:
    """Takes a session's snapshots, sharing one younger than :data:`PERIOD`.

    Args:
        feed: the session's model feed (parses the backlog, encodes the snapshot).
        model: the session's model (its size).
        ring: the session's output ring (must still hold the bytes after a shared snapshot).
        clock: monotonic seconds.
    """

    def __init__(
        self,
        feed: ModelFeed,
        model: ScreenModel,
        ring: OutputRing,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._feed = feed
        self._model = model
        self._ring = ring
        self._clock = clock
        self._last: Taken | None = None
        self.taken = 0
        """Repaints made (a shared snapshot is not one)."""

    def take(self, max_tail: int | None = None) -> Taken:
        """The latest snapshot if it is young, of the current size, and the ring holds what
        followed it (at most ``max_tail`` bytes of it: a client whose queue the shared
        snapshot's tail would overflow gets a new one instead); else a new one, once the model
        has parsed its backlog."""
        now = self._clock()
        last = self._last
        size = (self._model.cols, self._model.rows)
        if (
            last is not None
            and now - last.at < PERIOD
            and last.size == size
            and self._ring.holds(last.offset)
            and (max_tail is None or self._ring.end - last.offset <= max_tail)
        ):
            return last
        self._feed.catch_up()
        message = self._feed.snapshot_message()
        if last is not None and last.message is message:
            frame = last.frame  # the model did not change: the same frame for everyone
        else:
            frame = wire_frame(message)
            self.taken += 1
        self._last = Taken(now, self._feed.offset, size, message, frame)
        return self._last
