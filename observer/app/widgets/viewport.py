"""Which part of a remote terminal a view shows: a pure function of sizes, cursor and scroll.

The remote size is authoritative (DESIGN.md, "Rendering"): a view larger than the remote screen
centres it; a smaller one crops it around the cursor. The crop depends on the cursor alone, never
on earlier frames, so the same screen always looks the same (screenshots, snapshot tests).
Scrolled back, the view shows history lines and keeps its last row for the "new lines" bar.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Window:
    """The visible part: virtual lines are the history's, then the screen's rows."""

    first: int
    """First virtual line shown."""
    count: int
    """How many lines are shown."""
    pad_top: int
    """Blank view rows above them (centring)."""
    left: int
    """First terminal column shown when cropping; minus the centring pad when negative."""


@dataclass(frozen=True, slots=True)
class Geometry:
    """Everything the window depends on."""

    cols: int
    rows: int
    cursor_x: int
    cursor_y: int
    history: int
    """History lines that can be scrolled to (0 on the alternate screen)."""
    width: int
    height: int


def clamp_back(geometry: Geometry, back: int) -> int:
    """``back`` (lines scrolled into the history) limited to what there is to scroll to."""
    if back <= 0:
        return 0
    available = geometry.history + geometry.rows - (geometry.height - 1)
    return max(0, min(back, available))


def window(geometry: Geometry, back: int) -> Window:
    """The window for ``geometry``, scrolled ``back`` lines (already clamped) into the history."""
    g = geometry
    left = _left(g)
    if back:
        height = g.height - 1  # the last row shows the "new lines" bar
        end = g.history + g.rows - back
        first = max(0, end - height)
        return Window(first, end - first, 0, left)
    if g.height >= g.rows:
        return Window(g.history, g.rows, (g.height - g.rows) // 2, left)
    origin = max(0, min(g.cursor_y - g.height + 1, g.rows - g.height))
    return Window(g.history + origin, g.height, 0, left)


def _left(g: Geometry) -> int:
    if g.width >= g.cols:
        return -((g.width - g.cols) // 2)
    return max(0, min(g.cursor_x - g.width + 1, g.cols - g.width))
