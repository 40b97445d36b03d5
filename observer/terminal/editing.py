"""Erasing, inserting and deleting characters, and cursor motion, bounded and safe for any
parameter (rows: :mod:`observer.terminal.scrolling`).

pyte raises on some of these (``CSI 5 K``), moves the cursor the wrong way outside the
scrolling region and writes cells past the right margin; these versions follow xterm's
ctlseqs and ECMA-48 where tmux agrees, tmux 3.3a where it does not, and clamp every count
to the screen.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from pyte import modes as mo
from pyte.screens import Margins

from observer.terminal.cells import (
    BLANK,
    CLEARED,
    ERASED,
    MOVED,
    PAD,
    Glyph,
    Grid,
    Line,
    VTCursor,
    WrappedLine,
    blank_grid,
    lay_out,
    split,
)
from observer.terminal.scrolling import ScrollMixin

#: Trailing blanks an erase passes over at once when it looks for a row's last written cell.
_ERASED_4 = [ERASED] * 4
_ERASED_8 = [ERASED] * 8
_ERASED_16 = [ERASED] * 16
_ERASED_32 = [ERASED] * 32


class EditMixin(ScrollMixin):
    """Editing operations of :class:`~observer.terminal.screen.VTScreen`."""

    cursor: VTCursor
    grid: Grid
    wide_seen: bool
    _wide: bool  # what wide_seen reads, read directly where every call counts
    alternate: bool
    _blanks: dict[str, Glyph]

    # -- helpers ---------------------------------------------------------------------------

    def _x(self) -> int:
        """The cursor column for editing: a pending wrap counts as the last column."""
        return min(self.cursor.x, self.columns - 1)

    def _blank(self) -> Glyph:
        """The cell an erase leaves: blank with the pen's background (xterm's BCE)."""
        bg = self.cursor.attrs.bg
        return ERASED if bg == "default" else self.blank_of(bg)

    def blank_of(self, bg: str) -> Glyph:
        """A blank cell of background ``bg`` (one object per background)."""
        if bg == "default":
            return ERASED
        blank = self._blanks.get(bg)
        if blank is None:
            if len(self._blanks) > 256:
                self._blanks.clear()
            blank = self._blanks[bg] = (" ", BLANK._replace(bg=bg))
        return blank

    def _fill(self, row: Line, start: int, stop: int) -> None:
        last = -1 if self.alternate else self._last_written(row, start, stop)
        blank = self._blank()
        row[start:stop] = [blank] * (stop - start)
        if last >= 0:
            # tmux's grid_clear leaves the line's used length: the cells it cleared among
            # those written still count when a resize re-wraps the line (the alternate
            # screen is never re-wrapped).
            row[last] = CLEARED if blank is ERASED else (blank[0], blank[1])
        self._settle(row, start, stop)

    def _last_written(self, row: Line, start: int, stop: int) -> int:
        """The last of columns ``start..stop`` that a program wrote (not an erase's or a new
        row's blank), or -1."""
        erased = set(map(id, self._blanks.values()))
        for x in range(stop - 1, start - 1, -1):
            cell = row[x]
            if cell is not ERASED and cell is not PAD and id(cell) not in erased:
                return x
        return -1

    def _settle(self, row: Line, *seams: int) -> None:
        """After an edit that moved or cleared cells, lay the row out as tmux shows it if
        one of the ``seams`` split a wide character (see :func:`lay_out`)."""
        if self.wide_seen and any(split(row, x, self.columns) for x in seams):
            lay_out(row, self.columns)

    # -- erasing and inserting -------------------------------------------------------------

    def insert_characters(self, count: int | None = None) -> None:
        """ICH: shift the rest of the row right, blanks at the cursor."""
        x, columns = self.cursor.x, self.columns
        if x >= columns:
            return  # a pending wrap is past the last column, as in tmux
        count = min(max(count or 1, 1), columns - x)
        row = self.grid[self.cursor.y]
        row[x:columns] = [self._blank()] * count + row[x : columns - count]
        if row[-1] is ERASED:
            row[-1] = MOVED  # tmux counts the whole row as written (grid_move_cells)
        self._settle(row, x, x + count, columns)
        self.dirty.add(self.cursor.y)

    def delete_characters(self, count: int | None = None) -> None:
        """DCH: shift the rest of the row left, blanks enter at the right margin."""
        x, columns = self.cursor.x, self.columns
        if x >= columns:
            return
        count = min(max(count or 1, 1), columns - x)
        row = self.grid[self.cursor.y]
        row[x:columns] = row[x + count : columns] + [self._blank()] * count
        if columns - count > x and row[columns - count - 1] is ERASED:
            row[columns - count - 1] = MOVED  # tmux counts the moved cells as written
        self._settle(row, x, columns - count)
        self.dirty.add(self.cursor.y)

    def erase_characters(self, count: int | None = None) -> None:
        """ECH: blank ``count`` cells from the cursor on."""
        x = self.cursor.x
        if x >= self.columns:
            return
        count = min(max(count or 1, 1), self.columns - x)
        self._erase(x, x + count)

    def erase_in_line(self, how: int = 0, private: bool = False) -> None:
        """EL: 0 to the end, 1 from the start through the cursor, 2 the whole row; others
        are ignored (pyte raises on them). As in tmux, a pending wrap erases nothing to
        its right, and an erase of the whole row empties it (:meth:`clear_rows`)."""
        cursor = self.cursor
        x = cursor.x
        if how == 0 and 0 < x < self.columns and not self._wide:  # the usual case, short
            row = self.grid[cursor.y]
            if cursor.attrs.bg != "default":
                self._fill(row, x, self.columns)
            else:
                # Only the cells up to the last that does not show a blank are erased: those
                # after it are left as they are (a space a program wrote still counts as
                # written). Trailing blanks are passed over in blocks compared in C, long
                # ones first (a row of 200 columns mostly ends in blanks).
                end = self.columns
                # A row whose next cell shows text has text to erase (no need to count);
                # else it is usually blank already.
                if row[x] == ERASED:
                    tail = row[x:]
                    if tail.count(ERASED) == len(tail):
                        self.dirty.add(cursor.y)
                        return
                while end - x >= 32 and row[end - 32 : end] == _ERASED_32:
                    end -= 32
                # Fewer than 32 blanks are left: halving blocks find how many (16 + 8 + ...).
                if end - x >= 16 and row[end - 16 : end] == _ERASED_16:
                    end -= 16
                if end - x >= 8 and row[end - 8 : end] == _ERASED_8:
                    end -= 8
                if end - x >= 4 and row[end - 4 : end] == _ERASED_4:
                    end -= 4
                if end - x >= 2 and row[end - 2] == ERASED and row[end - 1] == ERASED:
                    end -= 2
                if end > x and row[end - 1] == ERASED:
                    end -= 1
                if end > x and row[end - 1] in self._blanks.values():  # a coloured blank
                    self._fill(row, x, end)
                elif end > x:  # else all blank already
                    row[x:end] = [ERASED] * (end - x)
                    if not self.alternate:  # see _fill
                        row[end - 1] = CLEARED
            self.dirty.add(cursor.y)
        elif how == 0:
            self._erase(x, self.columns)
        elif how == 1:
            self._erase(0, x + 1)
        elif how == 2:
            self.clear_rows(cursor.y, 1)

    def erase_lines_up(self, count: int) -> None:
        """``count`` times EL 2 then CUU 1 (how Ink erases its previous frame), in one step:
        the rows from the cursor's up to ``count`` above it are emptied (not past the top
        margin, or the top row above the region) and the cursor goes up ``count`` rows."""
        y = self.cursor.y
        top, _ = self._region()
        limit = top if y >= top else 0
        low = max(y - count + 1, limit)
        self.clear_rows(low, y - low + 1)
        self.cursor.y = max(y - count, limit)

    def _erase(self, start: int, stop: int) -> None:
        """Blank columns ``start..stop`` of the cursor's row (all of them: empty it)."""
        stop = min(stop, self.columns)
        if start == 0 and stop == self.columns:
            self.clear_rows(self.cursor.y, 1)
        elif start < stop:
            self._fill(self.grid[self.cursor.y], start, stop)
            self.dirty.add(self.cursor.y)

    # -- cursor motion -----------------------------------------------------------------------

    def cursor_back(self, count: int | None = None) -> None:
        """CUB: from a pending wrap the count starts past the last column (tmux)."""
        self.cursor.x = min(max(self.cursor.x - (count or 1), 0), self.columns - 1)

    def backspace(self) -> None:
        """BS: one column left; from the first column of a row that the row above wrapped
        onto, to the last column of that row (tmux's ``screen_write_backspace``)."""
        cursor = self.cursor
        if cursor.x == 0 and cursor.y > 0 and type(self.grid[cursor.y - 1]) is WrappedLine:
            cursor.x, cursor.y = self.columns - 1, cursor.y - 1
        else:
            self.cursor_back(1)

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
        """DECSTBM: set the scrolling region (0 or absent means the screen edge). The cursor
        goes to the top-left corner of the screen, even in origin mode (tmux; xterm goes to
        the region's)."""
        first = min(max(top or 1, 1), self.lines)
        last = min(max(bottom or self.lines, 1), self.lines)
        if last - first < 1:
            return
        full = first == 1 and last == self.lines
        self.margins = None if full else Margins(first - 1, last - 1)
        self.cursor.x = self.cursor.y = 0

    def alignment_display(self) -> None:
        """DECALN: fill the screen with ``E``, reset the margins, home the cursor."""
        self.grid[:] = blank_grid(self.columns, self.lines, ("E", BLANK))
        self.margins = None
        self.cursor_position()
        self.dirty.update(range(self.lines))
