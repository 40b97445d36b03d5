"""The screen at any moment of a recording: restore the nearest keyframe, feed only the rest."""

from __future__ import annotations

from observer.replay.keyframes import KeyframeIndex, apply, new_model
from observer.replay.timeline import Timeline
from observer.terminal import TerminalModel

FORWARD_LIMIT = 64 * 1024
"""Moving forward by fewer output bytes than this feeds them; beyond, a later keyframe may win."""


class Player:
    """A terminal model that can be moved to any position of a timeline.

    Args:
        timeline: The recording (may still be loading).
        index: Its keyframes (may still be building).

    Attributes:
        model: The model showing the screen after :attr:`position` events.
        position: Events applied to :attr:`model`.
    """

    def __init__(self, timeline: Timeline, index: KeyframeIndex) -> None:
        self.timeline = timeline
        self.index = index
        self.model: TerminalModel = new_model(timeline.cols, timeline.rows)
        self.position = 0

    def show(self, count: int) -> tuple[set[int], bool]:
        """Make the model show the screen after the first ``count`` events.

        Going forward a little feeds the events in between (playback); anything else restores
        the last keyframe at or before ``count`` (when it is closer than the current position)
        and feeds from there.

        Returns:
            The rows that changed and whether the whole screen must be redrawn.
        """
        count = max(0, min(count, len(self.timeline)))
        position = self.position
        keyframe = self.index.nearest(count)
        forward = count >= position
        if forward and (keyframe.index <= position or self._near(position, count)):
            dirty, whole = apply(self.model, self.timeline, position, count)
            self.position = count
            return dirty, whole
        self.model.restore(keyframe.snapshot)
        apply(self.model, self.timeline, keyframe.index, count)
        self.position = count
        return set(range(self.model.rows)), True

    def _near(self, start: int, stop: int) -> bool:
        """Few enough bytes between two positions that feeding them beats a restore."""
        timeline, total = self.timeline, 0
        for index in range(start, stop):
            total += timeline.size(index)
            if total > FORWARD_LIMIT:
                return False
        return True

    def seek(self, time: float) -> tuple[set[int], bool]:
        """Show the screen at ``time``: every event at or before it applied."""
        return self.show(self.timeline.count_at(time))


def screen_at(timeline: Timeline, count: int) -> TerminalModel:
    """The screen after ``count`` events, fed from the very start (the reference for seeks)."""
    model = new_model(timeline.cols, timeline.rows)
    apply(model, timeline, 0, count)
    return model
