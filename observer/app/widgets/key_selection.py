"""Selecting with the keys, as tmux's copy mode does: move a cell, anchor it, extend, copy.

Pure state: a point that the arrows move (within the lines and columns there are), and an anchor
once ``space`` (or ``v``) set it. Until then the selection is the one cell under the point, so
the view shows where the next anchor would go.
"""

from __future__ import annotations

from dataclasses import dataclass

from observer.app.widgets.selection import Point, Selection

MOVES = {"left": (0, -1), "right": (0, 1), "up": (-1, 0), "down": (1, 0)}
"""Arrow keys: (lines, columns) each moves the point by."""


@dataclass
class KeySelection:
    """The point the keys move, and the anchor once set."""

    point: Point
    anchor: Point | None = None

    @property
    def selection(self) -> Selection:
        """What is selected now (the point's cell alone before the anchor is set)."""
        return Selection(self.anchor or self.point, self.point)

    def move(self, key: str, lines: int, columns: int) -> bool:
        """Move the point for an arrow ``key`` within ``lines`` x ``columns``; False: not an arrow."""
        step = MOVES.get(key)
        if step is None:
            return False
        line = min(max(self.point.line + step[0], 0), max(0, lines - 1))
        column = min(max(self.point.column + step[1], 0), max(0, columns - 1))
        self.point = Point(line, column)
        return True

    def anchor_here(self) -> None:
        """Start the selection at the point (again, if it had started)."""
        self.anchor = self.point
