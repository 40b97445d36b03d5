"""Textual's painted lines without reference cycles, so reference counting frees them.

Textual 8's compositor divides every painted line at the edges of the widgets over it
(``Strip.divide``). For a line nothing cuts, the answer is the strip itself, and ``divide``
caches it on the strip (``strip._divide_cache[(width,)] = [strip]``): a reference cycle. Such a
line outlives its last reference until a collection of the generation it has reached; once the
collector has frozen it (:mod:`observer.runtime.collector`), until a full collection. Measured with 40
tiles: ~190 tile lines a second (0.4 MB/s) that only a full collection, a pause of 0.5-1 s,
could free.

:func:`install` wraps ``Strip.divide`` so that this one answer is returned without being cached
(it costs nothing to compute); every other answer is Textual's own, cached as before. It checks
first that the cycle is there (a later Textual may not make it), and installs once.

It also makes a strip's seven caches (of its crops, divisions, filters...) on first use rather
than when the strip is made: most painted lines use none of them, and the caches were most of a
line's cost to make and most of the objects the collector walked. Returning from an opened tile
to 40 tiles makes some 5,700 strips in one frame.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence

from rich.segment import Segment
from textual.cache import FIFOCache
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


_textual_init = Strip.__init__
#: A strip's caches and their sizes, as ``Strip.__init__`` makes them.
CACHES = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}


def _init(self: Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
    """``Strip.__init__`` without its caches (:func:`_cache` makes each on first use)."""
    self._segments = list(segments)
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def _cache(self: Strip, name: str) -> FIFOCache[object, object]:
    """A cache of the strip's not made yet (an unset slot): made now, as Textual makes it."""
    size = CACHES.get(name)
    if size is None:
        raise AttributeError(name)
    cache: FIFOCache[object, object] = FIFOCache(size)
    setattr(self, name, cache)
    return cache


def caches_as_expected() -> bool:
    """Whether ``Strip.__init__`` makes exactly :data:`CACHES` and the slots :func:`_init` sets
    (a later Textual may make others)."""
    probe = Strip([Segment(" ")], 1)
    made = {name for name in type(probe).__slots__ if hasattr(probe, name)}
    sizes = {name: getattr(probe, name)._maxsize for name in CACHES if hasattr(probe, name)}
    plain = {"_segments", "_cell_length", "_render_cache", "_link_ids", "_cell_count"}
    return made == set(CACHES) | plain and sizes == CACHES


def install() -> None:
    """Make ``Strip.divide`` leave whole lines uncached (where it caches them), and a strip's
    caches be made on first use (where Textual's are those expected)."""
    if Strip.divide is not _divide and divide_caches_itself():
        Strip.divide = _divide  # type: ignore[method-assign]
    if Strip.__init__ is _textual_init and caches_as_expected():
        Strip.__init__ = _init  # type: ignore[method-assign]
        Strip.__getattr__ = _cache  # type: ignore[attr-defined]
