"""Keyframes: terminal snapshots along a recording, so a seek replays seconds, not the whole file.

asciinema's players re-feed the recording from the start on every backward seek. Here a
:class:`KeyframeIndex` feeds the recording once, in the background, into a model of its own and
keeps a :meth:`~observer.terminal.TerminalModel.snapshot` every ``spacing`` seconds of stream, after
every ``budget`` bytes of output (a flood of output within a few seconds must not make a seek
slow) and after every resize. A seek restores the last keyframe at or before the target and feeds
only the events in between (:mod:`observer.replay.player`).

Memory is bounded: past ``limit`` keyframes a quarter of them are dropped — chosen so the most
output between two kept keyframes (what the slowest seek feeds) is as small as possible — and the
spacing doubles, so a long recording keeps at most ``limit`` snapshots, dense where output is.

The index is built incrementally (:meth:`KeyframeIndex.build` does a bounded amount of work per
call), so playback starts at once and seeks improve as the index grows. Keyframes are immutable
and the list is replaced, never edited in place, so another thread may read :attr:`keyframes`
while this one builds.
"""

from __future__ import annotations

import itertools
from bisect import bisect_right
from dataclasses import dataclass

from observer.asciicast.feeding import feed
from observer.replay.timeline import RESIZE, Timeline
from observer.terminal import TerminalModel
from observer.terminal.snapshot import TerminalSnapshot

SPACING = 5.0
"""Seconds of stream between keyframes, at first."""
BUDGET = 128 * 1024
"""Bytes of output between keyframes, at first (a seek feeds at most about this much)."""
LIMIT = 400
"""Most keyframes kept (fewer for large screens, see :data:`MEMORY`)."""
MEMORY = 64 * 1024 * 1024
"""Rough bound on the keyframes' own memory: a keyframe holds references to every cell of the
screen and of the saved main/alternate screen (8 bytes each on 64-bit CPython; the cells themselves
are shared with the model), so a 300x100 terminal keeps fewer keyframes than an 80x24 one."""
MIN_LIMIT = 16


def limit_for(cols: int, rows: int) -> int:
    """How many keyframes of a ``cols`` x ``rows`` screen fit in :data:`MEMORY` (16..400)."""
    per_keyframe = 2 * rows * (56 + 8 * cols) + 1024
    return max(MIN_LIMIT, min(LIMIT, MEMORY // per_keyframe))


@dataclass(frozen=True, slots=True)
class Keyframe:
    """The terminal state after the first ``index`` events.

    Attributes:
        index: Events applied (the keyframe shows the screen just before event ``index``).
        time: Time of the last applied event (0.0 for the first keyframe).
        snapshot: The model's state.
        text: The screen's rows as text (for search, without restoring the snapshot).
        offset: Output bytes before it (what a seek from here to a later keyframe feeds is the
            difference of their offsets).
    """

    index: int
    time: float
    snapshot: TerminalSnapshot
    text: tuple[str, ...]
    offset: int = 0


def new_model(cols: int, rows: int) -> TerminalModel:
    """A model for replay: no scrollback (the player shows the screen as it was)."""
    return TerminalModel(cols=cols, rows=rows, scrollback=0)


def apply(model: TerminalModel, timeline: Timeline, start: int, stop: int) -> tuple[set[int], bool]:
    """Feed events ``start``..``stop`` (exclusive) to ``model`` (:func:`observer.asciicast.feeding.feed`).

    Returns:
        The rows that changed, and whether the whole screen changed (a resize).
    """
    fed = feed(model, timeline.events(start, stop))
    return fed.dirty, fed.whole


class KeyframeIndex:
    """Keyframes of one timeline, built a batch at a time.

    Args:
        timeline: The recording (may still be loading).
        spacing: Seconds of stream between keyframes, at first.
        budget: Bytes of output between keyframes, at first.
        limit: Most keyframes kept (at least 2); by default what fits in :data:`MEMORY` for the
            recording's starting size, at most :data:`LIMIT`.
    """

    def __init__(
        self,
        timeline: Timeline,
        *,
        spacing: float = SPACING,
        budget: int = BUDGET,
        limit: int | None = None,
    ) -> None:
        if limit is None:
            limit = limit_for(timeline.cols, timeline.rows)
        if limit < 2:
            raise ValueError("keep at least 2 keyframes")
        self.timeline = timeline
        self.spacing = spacing
        self.budget = budget
        self.limit = limit
        self._model = new_model(timeline.cols, timeline.rows)
        self._offset = 0
        self._frames: tuple[list[Keyframe], list[int]] = ([self._keyframe(0, 0.0)], [0])
        self.position = 0
        """Events fed to the index's own model so far."""
        self._since_time = 0.0
        self._since_bytes = 0

    @property
    def done(self) -> bool:
        """The whole (completely loaded) timeline has been indexed."""
        return self.timeline.complete and self.position >= len(self.timeline)

    def _keyframe(self, index: int, time: float) -> Keyframe:
        model = self._model
        return Keyframe(index, time, model.snapshot(), tuple(model.text()), self._offset)

    def build(self, max_events: int = 5000) -> bool:
        """Index up to ``max_events`` more events of what is loaded.

        Returns:
            Whether the index is complete (the timeline is loaded and all of it is indexed).
        """
        stop = min(len(self.timeline), self.position + max_events)
        while self.position < stop:
            end, due = self._next_keyframe(stop)
            feed(self._model, self.timeline.events(self.position, end))
            self.position = end
            if due:
                self._add(end, self.timeline.time(end - 1))
        return self.done

    def _next_keyframe(self, stop: int) -> tuple[int, bool]:
        """How far to feed: just past the next event after which a keyframe is due (a resize,
        the byte budget, the time spacing), or to ``stop``; and whether one is due there.

        Only the timeline's times, codes and sizes are read: no output is read back."""
        timeline = self.timeline
        for index in range(self.position, stop):
            size = timeline.size(index)
            self._since_bytes += size
            self._offset += size
            if (
                timeline.code(index) == RESIZE
                or self._since_bytes >= self.budget
                or timeline.time(index) - self._since_time >= self.spacing
            ):
                return index + 1, True
        return stop, False

    def _add(self, index: int, time: float) -> None:
        self._since_time, self._since_bytes = time, 0
        keyframes = [*self._frames[0], self._keyframe(index, time)]
        if len(keyframes) > self.limit:
            keyframes, widest = thin(keyframes, max(2, self.limit * 3 // 4))
            self.spacing *= 2
            self.budget = max(self.budget, widest)
        # One assignment: a reader on another thread sees the old pair or the new one.
        self._frames = (keyframes, [k.index for k in keyframes])

    @property
    def keyframes(self) -> list[Keyframe]:
        """The keyframes so far, in order (do not modify)."""
        return self._frames[0]

    def nearest(self, index: int) -> Keyframe:
        """The last keyframe taken after at most ``index`` events."""
        keyframes, indexes = self._frames
        return keyframes[max(0, bisect_right(indexes, index) - 1)]


def _keep(keyframes: list[Keyframe], widest: int) -> list[Keyframe]:
    """Drop every keyframe not needed to keep the output between kept ones within ``widest``.

    Greedy from the start: a keyframe is kept only when skipping it would make the stretch from
    the last kept one to the next keyframe longer than ``widest`` bytes. The first and last stay.
    """
    kept = [keyframes[0]]
    for keyframe, following in itertools.pairwise(keyframes[1:]):
        if following.offset - kept[-1].offset > widest:
            kept.append(keyframe)
    kept.append(keyframes[-1])
    return kept


def thin(keyframes: list[Keyframe], count: int) -> tuple[list[Keyframe], int]:
    """At most ``count`` keyframes, chosen so the most output any seek feeds is as small as possible.

    Dropping every other keyframe would double the worst seek where output is dense; instead the
    smallest byte width for which the greedy choice (:func:`_keep`) fits in ``count`` keyframes is
    found by bisection, so keyframes stay dense where the output is and sparse across idle time.

    Returns:
        The kept keyframes and the widest stretch of output between two of them, in bytes.
    """
    low, high = 0, max(1, keyframes[-1].offset - keyframes[0].offset)
    while low < high:
        middle = (low + high) // 2
        if len(_keep(keyframes, middle)) <= count:
            high = middle
        else:
            low = middle + 1
    return _keep(keyframes, low), low
