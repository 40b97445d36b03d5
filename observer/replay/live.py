"""Keyframes of a live session, taken from the model the client already feeds.

A recording's :class:`~observer.replay.keyframes.KeyframeIndex` feeds the events into a model of
its own; a live session has one already — the model the watch view draws — so feeding a second
one would double the cost of watching a busy agent. :class:`LiveKeyframes` is told when an event
was appended (:meth:`LiveKeyframes.appended`) and snapshots the live model there when a keyframe
is due, by the same rules (seconds of stream, bytes of output, a resize) and with the same memory
bound (thinning past ``limit``). Players and search read it as they read a recording's index.

When the oldest history is dropped (its spool segment deleted), :meth:`LiveKeyframes.forget_before`
drops the keyframes before the first event still readable: the earliest kept keyframe is then
the start of what can be shown.
"""

from __future__ import annotations

import copy
import dataclasses

from observer.replay.keyframes import (
    BUDGET,
    SPACING,
    Keyframe,
    KeyframeIndex,
    limit_for,
)
from observer.replay.timeline import RESIZE, Timeline
from observer.terminal import TerminalModel


class LiveKeyframes(KeyframeIndex):
    """Keyframes of a growing timeline, snapshots of the live model (see the module docstring).

    Args:
        timeline: The session's history (appended to as the session goes).
        model: The live model as the history starts (its screen is the first keyframe).
        spacing, budget, limit: As for :class:`~observer.replay.keyframes.KeyframeIndex`.
    """

    def __init__(
        self,
        timeline: Timeline,
        model: TerminalModel,
        *,
        spacing: float = SPACING,
        budget: int = BUDGET,
        limit: int | None = None,
    ) -> None:
        super().__init__(timeline, spacing=spacing, budget=budget, limit=limit)
        self._model = model  # the keyframes snapshot the live model: nothing is fed twice
        self._frames = ([self._keyframe(0, 0.0)], [0])

    def _keyframe(self, index: int, time: float) -> Keyframe:
        """The live model's screen: its scrollback (the live one, up to 10,000 lines) is left
        out, as a player shows the screen only; it was most of a keyframe's memory."""
        model = self._model
        screen = dataclasses.replace(model.snapshot(), history=(), unscrolled=0)
        return Keyframe(index, time, screen, tuple(model.text()), self._offset)

    def build(self, max_events: int = 5000) -> bool:
        """Nothing to build: keyframes are taken as events are appended."""
        return self.done

    def due(self, size: int, time: float) -> bool:
        """Whether a keyframe is due after ``size`` more output bytes at ``time``."""
        return self._since_bytes + size >= self.budget or time - self._since_time >= self.spacing

    def appended(self, model: TerminalModel, *, force: bool = False) -> None:
        """The timeline's last event was appended and ``model`` shows the screen after it:
        take a keyframe there if one is due (or ``force``)."""
        timeline = self.timeline
        end = len(timeline)
        if end <= self.position:
            return
        for index in range(self.position, end):
            self._since_bytes += timeline.size(index)
        self.position = end
        time = timeline.time(end - 1)
        if force or timeline.code(end - 1) == RESIZE or self.due(0, time):
            # Fewer keyframes of a larger screen: the memory bound holds whatever size it grows to.
            self.limit = min(self.limit, limit_for(model.cols, model.rows))
            self._model, self._offset = model, timeline.output_bytes
            self._add(end, time)

    def forget_before(self, index: int) -> int:
        """Drop the keyframes a player could not start from once the events before ``index``
        are gone; return the first event the history can still show."""
        keyframes = self.keyframes
        kept = [k for k in keyframes if k.index >= index] or keyframes[-1:]
        self._frames = (kept, [k.index for k in kept])
        return kept[0].index

    def rebased(self, timeline: Timeline, start: int) -> LiveKeyframes:
        """These keyframes over ``timeline``, the events from ``start`` on of this one
        (:meth:`Timeline.since`); this index stays as it is for whoever still reads it."""
        rebased = copy.copy(self)
        rebased.timeline, rebased.position = timeline, self.position - start
        kept = [dataclasses.replace(k, index=k.index - start) for k in self.keyframes]
        rebased._frames = (kept, [k.index for k in kept])
        return rebased

    @property
    def start(self) -> int:
        """The first event the history can show (its earliest keyframe's)."""
        return self.keyframes[0].index
