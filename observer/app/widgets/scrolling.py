"""Where the user moved a view: live (following the cursor), scrolled, or panned.

The view's own state, not the session's: which lines and columns one person looks at. While the
view is moved, output keeps arriving; :meth:`Scroll.follow` keeps the same lines on screen and
counts the new ones (the bar says "N new lines").
"""

from __future__ import annotations

from collections.abc import Sequence

from observer.app.widgets.viewport import Geometry, Window, bottom, clamp_left, clamp_top, window
from observer.terminal import Cell


class Scroll:
    """The first line and column a view shows, when the user chose them (None: follow live)."""

    def __init__(self) -> None:
        self.top: int | None = None
        """First virtual line shown, scrolled or panned (None: the live screen)."""
        self.left: int | None = None
        """First column shown, panned (None: follow the cursor)."""
        self.new_lines = 0
        """Lines that arrived since the view was scrolled."""
        self._history_len = 0
        self._anchor: Sequence[Cell] | None = None
        """The newest scrollback row when last followed (to count rows added once it is full)."""

    @property
    def scrolled(self) -> bool:
        """Whether the view shows something other than the live screen's rows."""
        return self.top is not None

    def window(self, geometry: Geometry) -> Window:
        """The window shown now (the chosen line and column, kept within what there is)."""
        if self.top is not None:
            self.top = clamp_top(geometry, self.top)
        if self.left is not None:
            self.left = clamp_left(geometry, self.left)
        return window(geometry, self.top, self.left)

    def scroll(self, lines: int, geometry: Geometry, history: Sequence[Sequence[Cell]]) -> None:
        """Move ``lines`` up (negative: down); reaching the bottom again goes back to live."""
        end = bottom(geometry)
        top = self.window(geometry).first - lines
        if lines > 0:
            top = min(top, end - 1)  # up always shows something older than the last lines
        top = max(0, top)
        if top >= end:
            self.top = None
            self.new_lines = 0
            return
        if self.top is None:
            self.new_lines = 0
            self._history_len = len(history)
            self._anchor = history[-1] if len(history) else None
        self.top = top

    def pan(self, columns: int, geometry: Geometry) -> None:
        """Move ``columns`` right (negative: left) across a screen wider than the view."""
        if geometry.width >= geometry.cols:
            return
        self.left = clamp_left(geometry, self.window(geometry).left + columns)

    def live(self) -> None:
        """Back to the live screen, following the cursor."""
        self.top = self.left = None
        self.new_lines = 0

    def follow(self, history: Sequence[Sequence[Cell]]) -> None:
        """Keep the lines shown while scrolled as new ones arrive, and count them.

        Virtual lines keep their index while the scrollback grows; once it is full the oldest
        rows leave as new ones come, so the rows that entered after the last one seen are
        counted instead, and everything shown moves up by that many.
        """
        length = len(history)
        grown = max(0, length - self._history_len)
        if self.top is not None and self._anchor is not None:
            grown = _rows_after(history, self._anchor, grown)
        if self.top is not None and grown:
            dropped = max(0, grown - (length - self._history_len))
            self.top = max(0, self.top - dropped)
            self.new_lines += grown
        self._history_len = length
        self._anchor = history[-1] if self.top is not None and length else None


def _rows_after(history: Sequence[Sequence[Cell]], anchor: Sequence[Cell], at_least: int) -> int:
    """How many rows follow ``anchor`` (searched from the newest, skipping ``at_least``).

    Equal rows are told apart only by position, so a repeated line can make this count short;
    if the anchor left the scrollback, every row in it is new.
    """
    length = len(history)
    for after in range(at_least, length):
        if history[length - 1 - after] == anchor:
            return after
    return length
