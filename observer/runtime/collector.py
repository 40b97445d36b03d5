"""Keeping Python's cyclic garbage collector from stalling a process while output flows.

Both long-lived processes pace it: the app (``observer watch``) and the server (``observer
serve``), each calling :meth:`CollectorPacing.tick` every :data:`TICK_EVERY` seconds.

A full (generation 2) collection walks every object the collector tracks with the event loop
stopped, and the live objects are many: the terminal models' cells and cached actions, the rows
of a 10,000-line scrollback under a flood, every tile's lines and widgets (over a million
objects in the app with 40 tiles of agents drawing in truecolour: a walk that takes most of a
second on a shared core). Python starts a full collection by itself whenever a quarter of that
number has been added since the last one, and one in the server stops every tile of every
watcher at once.

:class:`CollectorPacing` keeps the part of the oldest generation that collections walk small.
While output flows, once more than :data:`FREEZE_AT` objects sit there, it collects them (that
walk is bounded by :data:`FREEZE_AT`: a few tens of milliseconds) and, if many survive, moves
them to the collector's permanent generation (``gc.freeze()``, constant time), where no
collection looks. It never forces a full collection while output flows. Those objects are
mostly alive (cached lines, the models' rows): while output flows a walk finds next to no
garbage. So a walk that finds next to nothing makes the next one come
twice as late (up to every :data:`WALK_EVERY_AT_MOST` freezes); in between, only the young
generations are collected before a freeze (what died young is freed, not frozen).

What is frozen and later dies in a reference cycle stays allocated until a full collection:
Textual's painted lines were such cycles (:mod:`observer.app.textual_patches` removes that), and
a closed screen or a toast still is. So once every session has been quiet for
:data:`QUIET_AFTER` seconds, and at most every :data:`FULL_EVERY` seconds (the walk is a pause,
and a quiet dashboard is when its user is about to press keys), it unfreezes everything and
runs one full collection.

Every :data:`TRIM_EVERY` seconds, busy or not, it also gives the C heap's free pages back to the
system (:func:`~observer.runtime.memory.give_back_free_pages`): what the collector frees goes
back to the C heap, which keeps it.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

from observer.runtime.memory import give_back_free_pages

TICK_EVERY = 1.0
"""Seconds between looks at the collector's oldest generation while output flows."""
QUIET_AFTER = 2.0
"""Seconds without output from any session after which the app counts as quiet."""
FREEZE_AT = 20_000
"""Objects in the walked part of the oldest generation above which they are collected, and
frozen if many survive (a walk of 20,000 objects: 10-40 ms)."""
FULL_EVERY = 300.0
"""Seconds at least between full collections."""
WALK_EVERY_AT_MOST = 32
"""Freezes at most between two walks of the oldest generation (when walks find no garbage)."""
TRIM_EVERY = 60.0
"""Seconds between two gifts of the C heap's free pages back to the system (a few ms each)."""


class CollectorPacing:
    """Bounded collections and freezes while busy; now and then a full collection when quiet.

    Args:
        clock: monotonic seconds.
        freeze_at: see :data:`FREEZE_AT`.
        give_back: gives the C heap's free pages back (see :data:`TRIM_EVERY`).
    """

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        *,
        freeze_at: int = FREEZE_AT,
        give_back: Callable[[], object] = give_back_free_pages,
    ) -> None:
        self.clock = clock
        self.freeze_at = freeze_at
        self.give_back = give_back
        self._last_trim = clock()
        self.frozen = False
        """Objects were frozen since the last full collection."""
        self.freezes = 0
        self.collections = 0
        """Full collections run."""
        self._last_full = clock()
        self._walk_every = 1
        self._since_walk = 0
        self.walks = 0
        """Walks of the oldest generation while busy (collections bounded by ``freeze_at``)."""

    def tick(self, busy: bool) -> None:
        """Call regularly: ``busy`` says whether output arrived in the last :data:`QUIET_AFTER` s."""
        if busy:
            self._bound_old_generation()
        elif self.frozen and self.clock() - self._last_full >= FULL_EVERY:
            self.frozen = False
            gc.unfreeze()
            gc.collect()
            self.collections += 1
            self._last_full = self.clock()
        now = self.clock()
        if now - self._last_trim >= TRIM_EVERY:  # after the collections: what they freed too
            self._last_trim = now
            self.give_back()

    def _bound_old_generation(self) -> None:
        if len(gc.get_objects(generation=2)) <= self.freeze_at:
            return
        self._since_walk += 1
        if self._since_walk >= self._walk_every:
            self._since_walk = 0
            self.walks += 1
            found = gc.collect()  # frozen objects are not walked: about freeze_at objects
            wasted = found < self.freeze_at // 100
            self._walk_every = min(WALK_EVERY_AT_MOST, 2 * self._walk_every) if wasted else 1
            if len(gc.get_objects(generation=2)) <= self.freeze_at // 2:
                return
        else:
            gc.collect(1)  # what died young is freed, not frozen
        gc.freeze()
        self.frozen = True
        self.freezes += 1

    def stop(self) -> None:
        """Give the collector back everything frozen (it collects it as usual from then on)."""
        if self.frozen:
            self.frozen = False
            gc.unfreeze()
