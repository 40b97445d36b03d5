"""Keeping Python's cyclic garbage collector from stalling the live view under a flood.

While an agent floods, the terminal model moves tens of thousands of rows a second into its
scrollback, each a list the cyclic collector tracks. Once they are old, every full (generation 2)
collection walks all of them: measured on the live benchmark, 80-130 ms with the event loop
stopped, several times a flood, which is most of the worst key latencies and frame gaps.

Those rows are never cyclic garbage (a row leaving the scrollback is freed by reference counting),
nor is almost anything else that survived a second. So while output flows, :class:`CollectorPacing`
moves what survived to the collector's permanent generation (``gc.freeze()``, constant time), and
collections walk only young objects. Once every session has been quiet for :data:`QUIET_AFTER`
seconds (or the frozen set was kept for :data:`LONGEST_FREEZE` seconds), it unfreezes and runs
one full collection, so cycles that did become garbage meanwhile are still freed.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

QUIET_AFTER = 2.0
LONGEST_FREEZE = 30.0


class CollectorPacing:
    """Freezes the collector's old objects while busy; a full collection when quiet.

    Args:
        clock: monotonic seconds.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.frozen_since: float | None = None
        self.collections = 0
        """Full collections run after a busy stretch."""

    def tick(self, busy: bool) -> None:
        """Call regularly: ``busy`` says whether output arrived in the last :data:`QUIET_AFTER` s."""
        now = self.clock()
        if busy and (self.frozen_since is None or now - self.frozen_since < LONGEST_FREEZE):
            if self.frozen_since is None:
                self.frozen_since = now
            gc.freeze()
            return
        if self.frozen_since is not None:
            self.frozen_since = None
            gc.unfreeze()
            gc.collect()
            self.collections += 1

    def stop(self) -> None:
        """Give the collector back everything frozen (it collects it as usual from then on)."""
        if self.frozen_since is not None:
            self.frozen_since = None
            gc.unfreeze()
