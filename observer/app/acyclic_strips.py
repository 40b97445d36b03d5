"""Textual's painted lines without reference cycles, so reference counting frees them.

Textual 8's compositor divides every painted line at the edges of the widgets over it
(``Strip.divide``). For a line nothing cuts, the answer is the strip itself, and ``divide``
caches it on the strip (``strip._divide_cache[(width,)] = [strip]``): a reference cycle. Such a
line outlives its last reference until a collection of the generation it has reached; once the
collector has frozen it (:mod:`observer.collector`), until a full collection. Measured with 40
tiles: ~190 tile lines a second (0.4 MB/s) that only a full collection, a pause of 0.5-1 s,
could free.

:func:`install` wraps ``Strip.divide`` so that this one answer is returned without being cached
(it costs nothing to compute); every other answer is Textual's own, cached as before. It checks
first that the cycle is there (a later Textual may not make it), and installs once.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence

from rich.segment import Segment
from textual.strip import Strip

_textual_divide = Strip.divide


def _divide(self: Strip, cuts: Iterable[int]) -> Sequence[Strip]:
    """``Strip.divide``, with the whole-line answer not cached on the strip."""
    length = self.cell_length
    kept = [cut for cut in cuts if cut <= length]
    if kept == [length]:
        return [self]
    return _textual_divide(self, kept)


def divide_caches_itself() -> bool:
    """Whether ``Strip.divide`` keeps a reference to a strip divided into itself."""
    probe = Strip([Segment(" ")], 1)
    before = sys.getrefcount(probe)
    probe.divide([1])
    return sys.getrefcount(probe) > before


def install() -> None:
    """Make ``Strip.divide`` leave whole lines uncached (where it caches them)."""
    if Strip.divide is not _divide and divide_caches_itself():
        Strip.divide = _divide  # type: ignore[method-assign]
