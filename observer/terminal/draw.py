"""Drawing text: runs of cells written at once, wide and zero-width characters, DEC graphics."""

from __future__ import annotations

import re

import pyte
from pyte import charsets as cs
from pyte import modes as mo
from pyte.screens import Char

from observer.terminal.cells import CellCache, Grid, char_width, is_wide, mend

#: DEC Special Graphics (``ESC ( 0``), VT100 User Guide table 3-9: only 0x5f..0x7e change.
DEC_GRAPHICS = {i: cs.VT100_MAP[i] for i in range(0x5F, 0x7F)}

#: A cell never grows past this many code points from combining characters, so a flood of
#: combining marks costs constant time per mark.
MAX_CELL_TEXT = 16

ZWJ = "\u200d"
_REGIONAL = re.compile("[\U0001f1e6-\U0001f1ff]")
ASCII_PRINTABLE = frozenset(chr(c) for c in range(0x20, 0x7F))


class DrawMixin(pyte.Screen):
    """pyte's ``draw`` made fast (runs of narrow characters are written as slices of cached
    cells) and faithful (DEC graphics in UTF-8, zero-width joiners and variation selectors
    combine into the previous cell instead of aborting the chunk, split wide characters are
    mended)."""

    grid: Grid
    last_char: str
    wide_seen: bool  # once a wide character was drawn, seams must be mended
    _caches: dict[Char, CellCache]
    _pen: Char | None
    _pen_cells: CellCache
    _pen_runs: dict[str, tuple[Char, ...]]
    _narrow: set[str]

    def _cells(self) -> CellCache:
        attrs = self.cursor.attrs
        if attrs is self._pen:
            return self._pen_cells
        cache = self._caches.get(attrs)
        if cache is None:
            if len(self._caches) > 512:
                self._caches.clear()
            cache = self._caches[attrs] = CellCache(attrs)
        self._pen, self._pen_cells, self._pen_runs = attrs, cache, cache.runs
        return cache

    def run(self, data: str) -> tuple[Char, ...]:
        """The cells of an ASCII run in the current pen; short runs are cached."""
        attrs = self.cursor.attrs
        if attrs is not self._pen:
            self._cells()
        runs = self._pen_runs
        cells = runs.get(data)
        if cells is None:
            cells = tuple(map(self._pen_cells.__getitem__, data))
            if len(data) <= 32:
                if len(runs) >= 1024:
                    runs.clear()
                runs[data] = cells
        return cells

    def _all_narrow(self, data: str) -> bool:
        chars = set(data)
        if chars <= self._narrow:
            return True
        if len(self._narrow) > 20_000:
            self._narrow = set(ASCII_PRINTABLE)
        for char in chars - self._narrow:
            if char_width(char) != 1:
                return False
            self._narrow.add(char)
        return True

    def draw(self, data: str) -> None:
        """Display text at the cursor, wrapping at the right margin when DECAWM is set."""
        if not data:
            return
        if self.charset:
            if self.g1_charset is cs.VT100_MAP:
                data = data.translate(DEC_GRAPHICS)
        elif self.g0_charset is cs.VT100_MAP:
            data = data.translate(DEC_GRAPHICS)
        self._draw_translated(data)

    def _draw_translated(self, data: str) -> None:
        if (data.isascii() or self._all_narrow(data)) and mo.IRM not in self.mode:
            cursor = self.cursor
            x = cursor.x
            end = x + len(data)
            if end <= self.columns:  # the common case: the run fits in the row
                row = self.grid[cursor.y]
                row[x:end] = map(self._cells().__getitem__, data)
                if self.wide_seen:
                    mend(row, x, self.columns)
                    mend(row, end, self.columns)
                cursor.x = end
                self.dirty.add(cursor.y)
            else:
                self._draw_narrow(data)
        else:
            self._draw_each(data)
        self.last_char = data[-1]

    def _wrap(self) -> None:
        self.dirty.add(self.cursor.y)
        self.cursor.x = 0
        self.index()

    def _draw_narrow(self, data: str) -> None:
        cursor = self.cursor
        columns = self.columns
        cells = self._cells()
        autowrap = mo.DECAWM in self.mode
        pos, n = 0, len(data)
        while pos < n:
            if cursor.x >= columns:
                if autowrap:
                    self._wrap()
                else:
                    cursor.x = columns - 1
            x = cursor.x
            end = min(n, pos + columns - x)
            chunk = data[pos:end]
            if not autowrap and end < n:
                # Without autowrap every further character overwrites the last column.
                chunk = chunk[:-1] + data[-1]
                end = n
            row = self.grid[cursor.y]
            row[x : x + len(chunk)] = map(cells.__getitem__, chunk)
            if self.wide_seen:
                mend(row, x, columns)
                mend(row, x + len(chunk), columns)
            cursor.x = x + len(chunk)
            self.dirty.add(cursor.y)
            pos = end

    def _draw_each(self, data: str) -> None:
        cursor = self.cursor
        columns = self.columns
        autowrap = mo.DECAWM in self.mode
        for char in data:
            width = char_width(char)
            if width == 0:
                self._combine(char)
                continue
            if width < 0:
                continue
            if width == 2 and self._joins(char):
                continue
            if cursor.x + width > columns:
                if autowrap:
                    self._wrap()
                else:
                    cursor.x = columns - width
            if mo.IRM in self.mode:
                self.insert_characters(width)
            cells = self._cells()
            x = cursor.x
            row = self.grid[cursor.y]
            row[x] = cells[char]
            if width == 2:
                row[x + 1] = cells[""]
                self.wide_seen = True
            mend(row, x, columns)
            mend(row, x + width, columns)
            cursor.x = x + width
            self.dirty.add(cursor.y)

    def _previous(self) -> tuple[int, int] | None:
        """Row and column of the cell before the cursor (the character, not its stub)."""
        x, y = self.cursor.x, self.cursor.y
        if x == 0:
            return None  # after a carriage return nothing precedes (wrapping is deferred)
        px = min(x, self.columns) - 1
        if self.grid[y][px].data == "" and px > 0:
            px -= 1
        return y, px

    def _joins(self, char: str) -> bool:
        """Join an emoji to the previous cell after a zero-width joiner, or a second
        regional indicator to the first (a flag), as tmux 3.3 does."""
        at = self._previous()
        if at is None:
            return False
        row = self.grid[at[0]]
        last = row[at[1]]
        flag = _REGIONAL.match(last.data) and _REGIONAL.match(char) and len(last.data) == 1
        if not (flag or (last.data.endswith(ZWJ) and is_wide(last.data))):
            return False
        if len(last.data) < MAX_CELL_TEXT:
            row[at[1]] = last._replace(data=last.data + char)
            self.dirty.add(at[0])
        return True

    def _combine(self, char: str) -> None:
        """Append a zero-width character (combining mark, ZWJ, variation selector) to the cell
        before the cursor, as xterm and tmux do."""
        at = self._previous()
        if at is None:
            return
        y, px = at
        row = self.grid[y]
        last = row[px]
        if len(last.data) >= MAX_CELL_TEXT or (char == ZWJ and not is_wide(last.data)):
            return  # tmux keeps a joiner only after an emoji
        # Stored as received, not normalized, so text matches what tmux captures.
        row[px] = last._replace(data=last.data + char)
        self.dirty.add(y)

    def repeat_last(self, count: int = 1) -> None:
        """REP (ECMA-48 8.3.103): draw the last graphic character ``count`` more times."""
        if self.last_char:
            count = min(max(count, 1), self.columns * self.lines)
            self._draw_translated(self.last_char * count)
            self.last_char = ""  # tmux repeats only right after a printed character
