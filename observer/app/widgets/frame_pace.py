"""How far apart a terminal view's frames are: paced to what changes and to what a person reads.

A few rows (a keystroke's echo) are drawn at most :data:`FRAME` apart, at once after a quiet
spell; a frame that repaints most rows (a scrolling log) at most :data:`FRAME_FLOOD` apart while
watching (:data:`FRAME_FULL` in control), with the latest state; :data:`FRAME_PAST` apart when
no row the last frame showed is left (a log scrolling a screenful or more a frame).
"""

from __future__ import annotations

from typing import Protocol

FRAME = 1 / 60
FRAME_FULL = 1 / 30
"""Frame interval when most rows changed (a scrolling log): each such frame repaints the whole
view, and nobody reads a flood faster (xterm's jump scroll, likewise, draws a flood a screenful
at a time rather than line by line). While watching, the feeder parses a flood a backlog at a time, less often
(``feeder.HOLD``), and each backlog's frame is drawn as it is parsed."""
FRAME_BEHIND = 1 / 20
"""Frame interval while output waits to be parsed: the time saved goes to parsing."""
FRAME_FLOOD = 1 / 10
"""Frame interval, watching (not in control), when most rows changed: a log scrolling by whole
screens is not read line by line, and each frame costs a repaint of every row and its escape
codes to the terminal. A lone change after a quiet spell is still drawn at once; in control,
frames keep :data:`FRAME_FULL`, so what the user types shows as they type it."""
FRAME_PAST = 1 / 5
"""Frame interval, watching, when most rows changed and none the last frame showed is left (a
log scrolling a screenful between two frames, or most rows erased and rewritten): nothing can
be read but that it runs, and once it stops its last screen is drawn within this (with the
parse and the trip, inside the quarter second a watched view's stamps may lag the agent)."""
SYNC_TIMEOUT = 0.15


class ScreenModel(Protocol):
    """What :func:`scrolled_past` reads of a terminal model."""

    @property
    def rows(self) -> int: ...
    def glyphs(self, row: int) -> object: ...


def frame_interval(
    frame: float, *, most_rows: bool, in_control: bool, scrolled_past: bool, behind: bool
) -> float:
    """Least time between two frames of a view whose own interval is ``frame``: longer when
    ``most_rows`` changed (a flood, read by the screenful), longer still when the flood
    ``scrolled_past`` every row the last frame showed (watching only), and while output waits to
    be parsed (``behind``)."""
    if most_rows:
        flood = FRAME_PAST if scrolled_past else FRAME_FLOOD
        frame = max(FRAME_FULL if in_control else flood, frame)
    return max(FRAME_BEHIND, frame) if behind else frame


def scrolled_past(model: ScreenModel, shown: tuple[ScreenModel, object] | None) -> bool:
    """Whether no row the last frame showed (``shown``: the model and its bottom row's list,
    when the frame was drawn) is left on the screen: rows move up as the screen scrolls (the
    model's lists), so the last frame's bottom row is on the screen until a screenful of lines
    has pushed it off (or it was erased: EL 2 and ED empty a row with a new list)."""
    if shown is None or shown[0] is not model:  # another model (a rewind): not a flood's
        return False
    return all(model.glyphs(y) is not shown[1] for y in range(model.rows))
