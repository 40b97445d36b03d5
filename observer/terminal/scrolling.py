"""Scrolling, inserting, deleting and clearing whole rows, with tmux 3.3a's rules for the
flag that says a row continues on the next one (what re-wrapping joins).

tmux (grid.c) keeps that flag on a row until the row is cleared or moved: a line feed does
not end it. Clearing rows (``grid_clear_lines``) or moving them (``grid_move_lines``, behind
IL, DL, RI and SD) also clears it on the row just above, which no longer continues into
what follows; the row just above the screen is the newest row of the scrollback. Rows a
region scrolls off its top go to the scrollback on the main screen, whatever the region
(``grid_scroll_history_region``). The alternate screen is never re-wrapped, so its flags
are left alone.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import pyte

from observer.terminal.cells import ERASED, Glyph, Grid, Line, VTCursor, WrappedLine, blank_grid
from observer.terminal.pending import Pending


class ScrollMixin(pyte.Screen):
    """Row operations of :class:`~observer.terminal.screen.VTScreen`."""

    cursor: VTCursor
    grid: Grid
    alternate: bool
    dirty_all: bool  # every visible row changed (cheaper than listing them)
    history: deque[Line | Pending]
    unscrolled: int

    def _region(self) -> tuple[int, int]:
        return self.margins or (0, self.lines - 1)

    def _blank(self) -> Glyph:
        raise NotImplementedError  # EditMixin

    def built(self, row: Line | Pending) -> Line:
        raise NotImplementedError  # VTScreen

    def _mark(self, top: int, bottom: int) -> None:
        """Mark rows ``top..bottom`` changed (a whole-screen scroll just sets a flag)."""
        if top == 0 and bottom == self.lines - 1:
            self.dirty_all = True
        else:
            self.dirty.update(range(top, bottom + 1))

    def _unwrap(self, y: int) -> None:
        """Row ``y`` no longer continues on the next one (``-1``: the newest scrollback row,
        replaced by a copy: scrollback rows are shared with snapshots)."""
        if self.alternate:
            return
        if y >= 0:
            if type(self.grid[y]) is WrappedLine:
                self.grid[y] = list(self.grid[y])
        elif self.history and type(self.built(self.history[-1])) is WrappedLine:
            self.history[-1] = list(self.built(self.history[-1]))

    def clear_rows(self, first: int, count: int) -> None:
        """Empty ``count`` whole rows from ``first`` (tmux's ``grid_clear_lines``)."""
        if count <= 0:
            return
        blank = self._blank()
        for y in range(first, first + count):
            self.grid[y] = [blank] * self.columns
        self._unwrap(first - 1)
        self.dirty.update(range(first, first + count))

    def _scroll_up(
        self, top: int, bottom: int, count: int, keep: bool = False, blank: Glyph | None = None
    ) -> None:
        """Move rows ``top+count..bottom`` up to ``top``; rows of ``blank`` (by default the
        pen's background) enter at the bottom.

        With ``keep`` (a line feed or SU) the rows leaving the region go to the scrollback
        on the main screen; otherwise (DL) the rows are moved as tmux's ``grid_move_lines``.
        """
        grid = self.grid
        blank = blank or self._blank()
        count = min(count, bottom - top + 1)
        if keep and not self.alternate and self.history.maxlen:
            if count == 1:
                self.history.append(grid[top])  # rows leave the grid: never changed again
            else:
                self.history.extend(grid[top : top + count])
        elif not keep:
            self._unwrap(top - 1)
        if count == 1:  # the common case: one line feed at the bottom
            del grid[top]
            grid.insert(bottom, [blank] * self.columns)
        else:
            del grid[top : top + count]
            at = bottom - count + 1
            grid[at:at] = blank_grid(self.columns, count, blank)
        if not keep and 2 * count >= bottom - top + 1:
            self._unwrap(top + count - 1)
        if not keep and 2 * count > bottom - top + 1:
            self._unwrap(bottom - count)  # tmux clears the rows left below (grid_clear)
        self._mark(top, bottom)

    def _scroll_down(self, top: int, bottom: int, count: int, unwrap: int) -> None:
        """Move rows ``top..bottom-count`` down; blank rows enter at ``top``. Row ``unwrap``
        (counted before the move) and the row above ``top`` stop continuing on the next."""
        grid = self.grid
        count = min(count, bottom - top + 1)
        self._unwrap(unwrap)
        del grid[bottom - count + 1 : bottom + 1]
        grid[top:top] = blank_grid(self.columns, count, self._blank())
        self._unwrap(top - 1)
        self._mark(top, bottom)

    # -- scrolling -------------------------------------------------------------------------

    def index(self, blank: Glyph | None = None) -> None:
        """IND / LF: down one row, scrolling the region when at its bottom margin (the row
        that enters takes the pen's background, xterm's BCE)."""
        top, bottom = self._region()
        if self.cursor.y == bottom:
            self._scroll_up(top, bottom, 1, keep=True, blank=blank)
        elif self.cursor.y < self.lines - 1:
            self.cursor.y += 1

    def advance(self) -> None:
        """Move down a row for an autowrap: as a line feed, but a row that enters is blank
        in the default colours (tmux's wrap passes the default background)."""
        self.index(ERASED)

    def reverse_index(self) -> None:
        """RI: up one row, scrolling the region down when at its top margin."""
        top, bottom = self._region()
        if self.cursor.y == top:
            self._scroll_down(top, bottom, 1, top)
        elif self.cursor.y > 0:
            self.cursor.y -= 1

    def scroll_up(self, count: int = 1) -> None:
        """SU (ECMA-48 8.3.147): scroll the region up; rows leaving the top are kept."""
        top, bottom = self._region()
        self._scroll_up(top, bottom, max(count, 1), keep=True)

    def scroll_down(self, count: int = 1) -> None:
        """SD (ECMA-48 8.3.113): scroll the region down (tmux: one row at a time)."""
        top, bottom = self._region()
        self._scroll_down(top, bottom, max(count, 1), top)

    def _lines_at_cursor(self) -> tuple[int, int]:
        """The rows IL and DL work on: the cursor's row to the region's bottom, or to the
        screen's bottom when the cursor is outside the region (tmux)."""
        top, bottom = self._region()
        y = self.cursor.y
        return (y, bottom) if top <= y <= bottom else (y, self.lines - 1)

    def insert_lines(self, count: int | None = None) -> None:
        """IL: insert blank rows at the cursor row."""
        top, bottom = self._lines_at_cursor()
        count = min(max(count or 1, 1), bottom - top + 1)
        self._scroll_down(top, bottom, count, top + count - 1)
        self.cursor.x = 0

    def delete_lines(self, count: int | None = None) -> None:
        """DL: delete rows at the cursor row."""
        top, bottom = self._lines_at_cursor()
        self._scroll_up(top, bottom, max(count or 1, 1))
        self.cursor.x = 0

    def erase_in_display(self, how: int = 0, *args: Any, **kwargs: Any) -> None:
        """ED: 0 below, 1 above, 2 everything; 3 erases the scrollback (xterm)."""
        y = self.cursor.y
        if how == 3:
            self.history.clear()
            self.unscrolled = 0
        elif how == 0:
            self.erase_in_line(0)
            self.clear_rows(y + 1, self.lines - y - 1)
        elif how == 1:
            self.clear_rows(0, y)
            self.erase_in_line(1)
        elif how == 2:
            self.clear_rows(0, self.lines)

    def erase_in_line(self, how: int = 0, private: bool = False) -> None:
        raise NotImplementedError  # EditMixin
