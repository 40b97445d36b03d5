"""The playback clock: where on the timeline playback is, given the wall clock's ``now``.

Pure: every method takes ``now`` (monotonic seconds) instead of reading a clock, so tests drive it
with plain numbers. Pauses longer than the idle limit are already removed from the timeline's
times by the loader (:func:`observer.asciicast.cap_idle`), so the clock only plays, pauses, seeks
and changes speed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from observer.replay.timeline import Marker

SPEEDS: Final = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
"""The speeds ``+``/``-`` step through."""
MARKER_GRACE: Final = 1.0
"""Within this many seconds after a marker, "previous marker" goes to the one before it
(as a video player's "previous chapter" does), so pressing it repeatedly walks back."""


def clock_text(seconds: float) -> str:
    """A moment of a recording as people read it: ``M:SS.s``, or ``H:MM:SS.s`` past an hour."""
    minutes, rest = divmod(max(0.0, seconds), 60)
    hours, minutes = divmod(int(minutes), 60)
    return f"{hours}:{minutes:02d}:{rest:04.1f}" if hours else f"{minutes}:{rest:04.1f}"


class PlaybackClock:
    """Play/pause, speed and position on a timeline of ``duration`` seconds.

    Args:
        duration: Length of the timeline so far (it may grow while the file loads).
        speed: One of :data:`SPEEDS` (others are accepted and clamped to their range).
    """

    def __init__(self, duration: float = 0.0, *, speed: float = 1.0) -> None:
        self.duration = duration
        self.speed = min(max(speed, SPEEDS[0]), SPEEDS[-1])
        self.playing = False
        self._base_time = 0.0
        self._base_now = 0.0

    def time(self, now: float) -> float:
        """Position on the timeline at wall-clock ``now`` (never past the end)."""
        if not self.playing:
            return self._base_time
        moved = self._base_time + max(0.0, now - self._base_now) * self.speed
        return min(moved, self.duration)

    @property
    def position(self) -> float:
        """Where playback was when last paused, seeked or re-anchored."""
        return self._base_time

    def at_end(self, now: float) -> bool:
        """Whether playback has reached the end of what is loaded."""
        return self.time(now) >= self.duration

    def _anchor(self, time: float, now: float) -> None:
        self._base_time = min(max(0.0, time), self.duration)
        self._base_now = now

    def play(self, now: float) -> None:
        """Start playing (from the start again if at the end)."""
        if self.playing:
            return
        if self._base_time >= self.duration:
            self._base_time = 0.0
        self._anchor(self._base_time, now)
        self.playing = True

    def pause(self, now: float) -> None:
        """Stop where playback is now."""
        self._anchor(self.time(now), now)
        self.playing = False

    def toggle(self, now: float) -> None:
        """Play if paused, pause if playing."""
        if self.playing:
            self.pause(now)
        else:
            self.play(now)

    def seek(self, time: float, now: float) -> float:
        """Jump to ``time`` (clamped to the timeline); keep playing if playing.

        Returns:
            The position now.
        """
        self._anchor(time, now)
        return self._base_time

    def skip(self, seconds: float, now: float) -> float:
        """Seek ``seconds`` forward (negative: back) from the current position."""
        return self.seek(self.time(now) + seconds, now)

    def set_speed(self, speed: float, now: float) -> None:
        """Change speed without a jump in position (clamped to 0.25..16)."""
        self._anchor(self.time(now), now)
        self.speed = min(max(speed, SPEEDS[0]), SPEEDS[-1])

    def faster(self, now: float) -> float:
        """The next speed up (16x stays 16x). Returns the speed."""
        self.set_speed(next((s for s in SPEEDS if s > self.speed), SPEEDS[-1]), now)
        return self.speed

    def slower(self, now: float) -> float:
        """The next speed down (0.25x stays 0.25x). Returns the speed."""
        self.set_speed(next((s for s in reversed(SPEEDS) if s < self.speed), SPEEDS[0]), now)
        return self.speed

    def grow(self, duration: float, now: float) -> None:
        """The timeline got longer (the file is still loading); keep the position."""
        self._anchor(self.time(now), now)
        self.duration = max(self.duration, duration)


def next_marker(markers: Sequence[Marker], time: float) -> Marker | None:
    """The first marker strictly after ``time``."""
    return next((m for m in markers if m.time > time), None)


def previous_marker(markers: Sequence[Marker], time: float) -> Marker | None:
    """The last marker more than :data:`MARKER_GRACE` seconds before ``time``.

    If the only earlier markers are within the grace, the first marker is returned (so "previous"
    from just after the first marker goes back to it rather than nowhere).
    """
    before = [m for m in markers if m.time < time]
    if not before:
        return None
    earlier = [m for m in before if m.time < time - MARKER_GRACE]
    return earlier[-1] if earlier else before[0]
