"""Where a rewound live view stands: back in the session's history, or live.

Pure: every call takes ``live``, the history's time now (seconds since it started), so tests
drive it with plain numbers. The history (a :class:`~observer.replay.timeline.Timeline` and its
:class:`~observer.replay.live.LiveKeyframes`) keeps growing while the view is rewound; the
:class:`~observer.replay.player.Player` shows the screen at :attr:`Rewind.at`.

Rules kept here, once:

- ``←`` goes back :data:`STEP` seconds from where the view is (from live at first), never before
  the oldest moment the history still holds; ``→`` goes forward, and reaching live is live;
- ``[``/``]`` go to the previous/next marker (as a replay's markers: a grace walks back past
  the one just passed); past the last marker is live;
- a search match is shown at the event that made the text appear;
- the view says how far back it is: ``REWIND −2:35``.
"""

from __future__ import annotations

from typing import Final

from observer.replay.clock import next_marker, previous_marker
from observer.replay.live import LiveKeyframes
from observer.replay.playback import Moved
from observer.replay.player import Player
from observer.replay.search import Match
from observer.replay.timeline import Timeline

STEP: Final = 5.0
"""Seconds ``←`` and ``→`` move."""
MINUS: Final = "\u2212"


def behind_text(seconds: float) -> str:
    """How far back a view is, as a clock reads it: ``−2:35``, ``−1:02:05`` past an hour."""
    whole = max(0, round(seconds))
    minutes, rest = divmod(whole, 60)
    hours, minutes = divmod(minutes, 60)
    clock = f"{hours}:{minutes:02d}:{rest:02d}" if hours else f"{minutes}:{rest:02d}"
    return MINUS + clock


class Rewind:
    """One view's position in a live session's history (see the module docstring).

    Args:
        timeline: The session's history.
        keyframes: Its keyframes (snapshots of the live model).
    """

    def __init__(self, timeline: Timeline, keyframes: LiveKeyframes) -> None:
        self.timeline, self.keyframes = timeline, keyframes
        self.player = Player(timeline, keyframes)
        # The first event kept may follow a forgotten past: its screen is the first keyframe's.
        first = keyframes.keyframes[0]
        self.player.model.restore(first.snapshot)
        self.player.position = first.index
        self.at: float | None = None
        """The history's time the view shows; None: live."""

    @property
    def rewound(self) -> bool:
        """Whether the view shows the past."""
        return self.at is not None

    @property
    def earliest(self) -> float:
        """The oldest moment the history can still show."""
        return self.keyframes.keyframes[0].time  # the last event it shows (kept or not)

    def back(self, live: float, seconds: float = STEP) -> Moved | None:
        """Go ``seconds`` further back (from live at first)."""
        here = self.at if self.at is not None else live
        return self.seek(max(self.earliest, here - seconds), live)

    def forward(self, live: float, seconds: float = STEP) -> Moved | None:
        """Go ``seconds`` forward; None once that reaches live (the view shows live again)."""
        if self.at is None:
            return None
        return self.seek(self.at + seconds, live)

    def marker(self, direction: int, live: float) -> Moved | None:
        """Go to the previous (-1) or next (1) marker; past the last one is live (None)."""
        here = self.at if self.at is not None else live
        markers = self.timeline.markers
        found = next_marker(markers, here) if direction > 0 else previous_marker(markers, here)
        if found is None:
            if direction > 0:
                self.at = None
            return None
        return self.seek(max(self.earliest, found.time), live)

    def jump(self, match: Match, live: float) -> Moved | None:
        """Show the moment a search found (the screen just after the event that showed it)."""
        count = max(match.count, self.keyframes.start)
        self.at = min(self.timeline.time(count - 1) if count else 0.0, live)
        return self._show(count)

    def seek(self, time: float, live: float) -> Moved | None:
        """Show the screen at ``time``; at or after ``live`` the view is live (None)."""
        if time >= live:
            self.at = None
            return None
        self.at = max(time, self.earliest)
        return self._show(max(self.timeline.count_at(self.at), self.keyframes.start))

    def _show(self, count: int) -> Moved:
        """The player shows ``count`` events; it never feeds events the history dropped."""
        player, first = self.player, self.keyframes.keyframes[0]
        if player.position < first.index:
            player.model.restore(first.snapshot)
            player.position = first.index
        dirty, whole = player.show(count)
        return Moved(dirty, whole)

    def go_live(self) -> None:
        """Show live again."""
        self.at = None

    def label(self, live: float) -> str:
        """``REWIND −2:35`` while rewound; empty while live."""
        if self.at is None:
            return ""
        return f"REWIND {behind_text(live - self.at)}"
