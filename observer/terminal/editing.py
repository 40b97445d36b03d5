"""Scrolling, erasing, inserting and cursor motion, bounded and safe for any parameter.

pyte raises on some of these (``CSI 5 K``), moves the cursor the wrong way outside the
scrolling region and writes cells past the right margin; these versions follow xterm's
ctlseqs and ECMA-48 and clamp every count to the screen.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import deque
from typing import Any

import pyte
from pyte import modes as mo
from pyte.screens import Margins

from observer.terminal.cells import BLANK, Cell, Grid, Line, VTCursor, WrappedLine, blank_grid, mend


class EditMixin(pyte.Screen):
    """Editing operations of :class:`~observer.terminal.screen.VTScreen`."""

    cursor: VTCursor
    grid: Grid
    alternate: bool
    wide_seen: bool
    dirty_all: bool  # every visible row changed (cheaper than listing them)
    _wide: bool  # a wide character was drawn (see DrawMixin.wide_seen)
    _blanks: dict[str, Cell]
    history: deque[Line]

    # -- helpers ---------------------------------------------------------------------------

    def _region(self) -> tuple[int, int]:
        return self.margins or (0, self.lines - 1)

    def _x(self) -> int:
        """The cursor column for editing: a pending wrap counts as the last column."""
        return min(self.cursor.x, self.columns - 1)

    def _blank(self) -> Cell:
        """The cell an erase leaves: blank with the pen's background (xterm's BCE)."""
        bg = self.cursor.attrs.bg
        if bg == "default":
            return BLANK
        blank = self._blanks.get(bg)
        if blank is None:
            if len(self._blanks) > 256:
                self._blanks.clear()
            blank = self._blanks[bg] = BLANK._replace(bg=bg)
        return blank

    def _fill(self, row: Line, start: int, stop: int) -> None:
        row[start:stop] = [self._blank()] * (stop - start)
        if self.wide_seen:
            mend(row, start, self.columns)
            mend(row, stop, self.columns)

    def _scroll_up(self, top: int, bottom: int, count: int, keep: bool = False) -> None:
        """Move rows ``top+count..bottom`` up to ``top``; blank rows enter at the bottom.

        With ``keep`` the rows leaving a region that starts at the top of the main screen
        go to the scrollback.
        """
        grid = self.grid
        if keep and top == 0 and not self.alternate and self.history.maxlen:
            if count == 1:
                self.history.append(grid[0])  # rows leave the grid: never changed again
            else:
                self.history.extend(grid[: min(count, bottom + 1)])
        if count == 1:  # the common case: one line feed at the bottom
            del grid[top]
            grid.insert(bottom, [self._blank()] * self.columns)
        else:
            count = min(count, bottom - top + 1)
            del grid[top : top + count]
            at = bottom - count + 1
            grid[at:at] = blank_grid(self.columns, count, self._blank())
        self._mark(top, bottom)

    def _mark(self, top: int, bottom: int) -> None:
        """Mark rows ``top..bottom`` changed (a whole-screen scroll just sets a flag)."""
        if top == 0 and bottom == self.lines - 1:
            self.dirty_all = True
        else:
            self.dirty.update(range(top, bottom + 1))

    def _scroll_down(self, top: int, bottom: int, count: int) -> None:
        """Move rows ``top..bottom-count`` down; blank rows enter at ``top``."""
        grid = self.grid
        count = min(count, bottom - top + 1)
        del grid[bottom - count + 1 : bottom + 1]
        grid[top:top] = blank_grid(self.columns, count, self._blank())
        self._mark(top, bottom)

    # -- scrolling -------------------------------------------------------------------------

    def index(self) -> None:
        """IND / LF: down one row, scrolling the region when at its bottom margin. An
        explicit line feed ends the row's logical line (tmux clears its wrap flag)."""
        row = self.grid[self.cursor.y]
        if type(row) is WrappedLine:
            self.grid[self.cursor.y] = list(row)
        self.advance()

    def advance(self) -> None:
        """Move down a row, scrolling the region when at its bottom margin."""
        top, bottom = self._region()
        if self.cursor.y == bottom:
            self._scroll_up(top, bottom, 1, keep=True)
        elif self.cursor.y < self.lines - 1:
            self.cursor.y += 1

    def reverse_index(self) -> None:
        """RI: up one row, scrolling the region down when at its top margin."""
        top, bottom = self._region()
        if self.cursor.y == top:
            self._scroll_down(top, bottom, 1)
        elif self.cursor.y > 0:
            self.cursor.y -= 1

    def scroll_up(self, count: int = 1) -> None:
        """SU (ECMA-48 8.3.147): scroll the region up; rows leaving the top are kept."""
        top, bottom = self._region()
        self._scroll_up(top, bottom, max(count, 1), keep=True)

    def scroll_down(self, count: int = 1) -> None:
        """SD (ECMA-48 8.3.113): scroll the region down."""
        top, bottom = self._region()
        self._scroll_down(top, bottom, max(count, 1))

    def insert_lines(self, count: int | None = None) -> None:
        """IL: insert blank rows at the cursor row, inside the scrolling region."""
        top, bottom = self._region()
        if top <= self.cursor.y <= bottom:
            self._scroll_down(self.cursor.y, bottom, max(count or 1, 1))
            self.cursor.x = 0

    def delete_lines(self, count: int | None = None) -> None:
        """DL: delete rows at the cursor row, inside the scrolling region."""
        top, bottom = self._region()
        if top <= self.cursor.y <= bottom:
            self._scroll_up(self.cursor.y, bottom, max(count or 1, 1))
            self.cursor.x = 0

    # -- erasing and inserting -------------------------------------------------------------

    def insert_characters(self, count: int | None = None) -> None:
        """ICH: shift the rest of the row right, blanks at the cursor."""
        x, columns = self.cursor.x, self.columns
        if x >= columns:
            return  # a pending wrap is past the last column, as in tmux
        count = min(max(count or 1, 1), columns - x)
        row = self.grid[self.cursor.y]
        row[x:columns] = [self._blank()] * count + row[x : columns - count]
        if self.wide_seen:
            mend(row, x, columns)
            mend(row, x + count, columns)
            mend(row, columns, columns)
        self.dirty.add(self.cursor.y)

    def delete_characters(self, count: int | None = None) -> None:
        """DCH: shift the rest of the row left, blanks enter at the right margin."""
        x, columns = self.cursor.x, self.columns
        if x >= columns:
            return
        count = min(max(count or 1, 1), columns - x)
        row = self.grid[self.cursor.y]
        row[x:columns] = row[x + count : columns] + [self._blank()] * count
        if self.wide_seen:
            mend(row, x, columns)
            mend(row, columns - count, columns)
        self.dirty.add(self.cursor.y)

    def erase_characters(self, count: int | None = None) -> None:
        """ECH: blank ``count`` cells from the cursor on."""
        x = self.cursor.x
        if x >= self.columns:
            return
        count = min(max(count or 1, 1), self.columns - x)
        self._fill(self.grid[self.cursor.y], x, x + count)
        self.dirty.add(self.cursor.y)

    def erase_in_line(self, how: int = 0, private: bool = False) -> None:
        """EL: 0 to the end, 1 from the start through the cursor, 2 the whole row; others
        are ignored (pyte raises on them)."""
        cursor = self.cursor
        x = cursor.x  # a pending wrap erases nothing to its right, as in tmux
        if how == 0 and not self._wide:  # the usual case, kept short
            if x < self.columns:
                blank = BLANK if cursor.attrs.bg == "default" else self._blank()
                self.grid[cursor.y][x:] = [blank] * (self.columns - x)
            self.dirty.add(cursor.y)
            return
        if how == 0:
            start, stop = x, self.columns
        elif how == 1:
            start, stop = 0, min(x + 1, self.columns)
        elif how == 2:
            start, stop = 0, self.columns
        else:
            return
        if start < stop:
            self._fill(self.grid[self.cursor.y], start, stop)
        self.dirty.add(self.cursor.y)

    def erase_in_display(self, how: int = 0, *args: Any, **kwargs: Any) -> None:
        """ED: 0 below, 1 above, 2 everything; 3 erases the scrollback (xterm)."""
        y = self.cursor.y
        if how == 3:
            self.history.clear()
            return
        rows = {0: range(y + 1, self.lines), 1: range(y), 2: range(self.lines)}.get(how)
        if rows is None:
            return
        blank = self._blank()
        for row in rows:
            self.grid[row] = [blank] * self.columns
        self.dirty.update(rows)
        if how in (0, 1):
            self.erase_in_line(how)

    # -- cursor motion -----------------------------------------------------------------------

    def cursor_back(self, count: int | None = None) -> None:
        """CUB / BS: from a pending wrap the count starts past the last column (tmux)."""
        self.cursor.x = min(max(self.cursor.x - (count or 1), 0), self.columns - 1)

    def cursor_up(self, count: int | None = None) -> None:
        """CUU: stops at the top margin, or at the top row when above the region."""
        top, _ = self._region()
        limit = top if self.cursor.y >= top else 0
        self.cursor.y = max(self.cursor.y - (count or 1), limit)

    def cursor_down(self, count: int | None = None) -> None:
        """CUD: stops at the bottom margin, or at the bottom row when below the region."""
        _, bottom = self._region()
        limit = bottom if self.cursor.y <= bottom else self.lines - 1
        self.cursor.y = min(self.cursor.y + (count or 1), limit)

    def cursor_position(self, line: int | None = None, column: int | None = None) -> None:
        """CUP: 1-based; relative to the region and confined to it under DECOM."""
        y = (line or 1) - 1
        x = (column or 1) - 1
        if self.margins is None and y >= 0 and x >= 0:  # the usual case, kept short
            cursor = self.cursor
            cursor.y = y if y < self.lines else self.lines - 1
            cursor.x = x if x < self.columns else self.columns - 1
            return
        top, bottom = 0, self.lines - 1
        if mo.DECOM in self.mode and self.margins is not None:
            top, bottom = self.margins
            y += top
        self.cursor.y = min(max(y, top), bottom)
        self.cursor.x = min(max((column or 1) - 1, 0), self.columns - 1)

    def cursor_to_line(self, line: int | None = None) -> None:
        """VPA: row ``line`` in the current column."""
        self.cursor_position(line, self._x() + 1)

    def tab(self, count: int = 1) -> None:
        """HT / CHT: to the next tab stop, ``count`` times; the last column if none."""
        x = self.cursor.x
        if x >= self.columns - 1:
            return  # tmux keeps a pending wrap
        stops = sorted(s for s in self.tabstops if s < self.columns)
        i = bisect_right(stops, x) + max(count, 1) - 1
        self.cursor.x = stops[i] if i < len(stops) else self.columns - 1

    def back_tab(self, count: int = 1) -> None:
        """CBT: to the previous tab stop, ``count`` times; the first column if none."""
        stops = sorted(self.tabstops)
        i = bisect_left(stops, self._x()) - max(count, 1)
        self.cursor.x = stops[i] if i >= 0 else 0

    def set_margins(self, top: int | None = None, bottom: int | None = None) -> None:
        """DECSTBM: set the scrolling region (0 or absent means the screen edge), home."""
        first = min(max(top or 1, 1), self.lines)
        last = min(max(bottom or self.lines, 1), self.lines)
        if last - first < 1:
            return
        full = first == 1 and last == self.lines
        self.margins = None if full else Margins(first - 1, last - 1)
        self.cursor_position()

    def alignment_display(self) -> None:
        """DECALN: fill the screen with ``E``, reset the margins, home the cursor."""
        self.grid[:] = blank_grid(self.columns, self.lines, BLANK._replace(data="E"))
        self.margins = None
        self.cursor_position()
        self.dirty.update(range(self.lines))
