"""Where a replay is and what its screen shows: the clock, the player and a pinned position.

Pure: every call takes ``now`` (monotonic seconds). The replay screen turns its keys into calls
and its 30 fps timer into :meth:`Playback.frame`; whatever moved the screen comes back as
:class:`Moved` (the rows to repaint), so the screen only draws.

Rules kept here, once:

- playing, the screen follows the clock; paused, it follows the clock too (the file is still
  loading: the events at 0:00 arrive after the first frame), unless a step, a search match or
  the opening screen *pinned* it to a number of events (several events may share one time);
- paused at the start, the screen opens on the recording's first output, not on 0:00 before it
  (usually blank): as a step to that event would show it;
- at the end of a completely loaded recording, playing stops.
"""

from __future__ import annotations

from dataclasses import dataclass

from observer.asciicast import OUTPUT
from observer.replay.clock import PlaybackClock, next_marker, previous_marker
from observer.replay.keyframes import KeyframeIndex
from observer.replay.player import Player
from observer.replay.search import Match
from observer.replay.timeline import Marker, Timeline


@dataclass(frozen=True, slots=True)
class Moved:
    """The screen changed: repaint these rows (or all of it)."""

    dirty: set[int]
    whole: bool


class Playback:
    """The position of one replay.

    Args:
        timeline: The recording (may still be loading).
        index: Its keyframes (may still be building).
        speed: Starting speed.
        autoplay: Play from the start; otherwise open paused on the first screen.

    Raises:
        CastFormatError: From any call that moves the screen, if the file changed under it.
    """

    def __init__(
        self, timeline: Timeline, index: KeyframeIndex, *, speed: float = 1.0, autoplay: bool = True
    ) -> None:
        self.timeline = timeline
        self.index = index
        self.player = Player(timeline, index)
        self.clock = PlaybackClock(speed=speed)
        self.autoplay = autoplay
        self.opening = not autoplay
        """Paused at the start, waiting for the first output to open on."""
        self.pinned: int | None = None
        """Events shown while paused after a step, a match or the opening (not the clock's)."""

    @property
    def position(self) -> int:
        """Events the screen shows."""
        return self.player.position

    def start(self, now: float) -> None:
        """The replay opened."""
        if self.autoplay:
            self.clock.play(now)

    def frame(self, now: float) -> Moved | None:
        """A frame: follow the clock (or open on the first screen); stop at the end."""
        timeline, clock = self.timeline, self.clock
        if timeline.duration > clock.duration:
            clock.grow(timeline.duration, now)
        moved = self._open(now) if self.opening else None
        if clock.playing or self.pinned is None:
            moved = self._show(timeline.count_at(clock.time(now))) or moved
        if clock.playing and timeline.complete and clock.at_end(now):
            clock.pause(now)
        return moved

    def _open(self, now: float) -> Moved | None:
        first = self.timeline.first(OUTPUT)
        if first is None:
            self.opening = not self.timeline.complete
            return None
        return self._pin(first + 1, self.timeline.time(first), now)

    def _pin(self, count: int, time: float, now: float) -> Moved | None:
        """Pause showing exactly ``count`` events, the clock at ``time``."""
        self.opening = False
        self.clock.pause(now)
        self.clock.seek(time, now)
        self.pinned = count
        return self._show(count)

    def _show(self, count: int) -> Moved | None:
        if count == self.player.position:
            return None
        dirty, whole = self.player.show(count)
        return Moved(dirty, whole)

    def seek(self, time: float, now: float) -> Moved | None:
        """Show the screen at ``time`` (playing or not, as before)."""
        self.opening = False
        self.clock.grow(self.timeline.duration, now)
        position = self.clock.seek(time, now)
        self.pinned = None
        return self._show(self.timeline.count_at(position))

    def skip(self, seconds: float, now: float) -> Moved | None:
        """Seek ``seconds`` from where playback is."""
        return self.seek(self.clock.time(now) + seconds, now)

    def toggle(self, now: float) -> None:
        """Play or pause."""
        self.opening = False
        self.clock.toggle(now)
        if self.clock.playing:
            self.pinned = None

    def marker(self, direction: int, now: float) -> Marker | None:
        """The previous (-1) or next (1) marker from where playback is, if any."""
        step = next_marker if direction > 0 else previous_marker
        return step(self.timeline.markers, self.clock.time(now))

    @property
    def at_end(self) -> bool:
        """Every event loaded so far is shown."""
        return self.player.position >= len(self.timeline)

    def step(self, now: float) -> Moved | None:
        """Show one more event, paused (nothing more at the end)."""
        position = self.player.position
        if self.at_end:
            self.clock.pause(now)
            return None
        return self._pin(position + 1, self.timeline.time(position), now)

    def jump(self, match: Match, now: float) -> Moved | None:
        """Show the moment a search match appeared, paused."""
        return self._pin(match.count, match.time, now)
