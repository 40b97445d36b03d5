"""Drawing text: runs of cells written at once, wide and zero-width characters, DEC graphics."""

from __future__ import annotations

import re

from pyte import charsets as cs
from pyte import modes as mo

from observer.terminal.cells import (
    ERASED,
    PAD,
    Cell,
    CellCache,
    Grid,
    WrappedLine,
    char_width,
    is_wide,
    mend,
)
from observer.terminal.editing import EditMixin
from observer.terminal.links import Link, Links

#: DEC Special Graphics (``ESC ( 0``) as tmux 3.3a draws it in a UTF-8 terminal (its
#: ``tty_acs_table``): the VT100 User Guide's table 3-9 (arrows ``+ , - .``, a solid block
#: ``0``, ``h`` the newline symbol ``␤``), except ``_``, DEC's blank, which tmux and so
#: this model leave as ``_``. Every other character draws as itself.
DEC_GRAPHICS = str.maketrans(
    "+,-.0`abcdefghijklmnopqrstuvwxyz{|}~",
    "→←↑↓▮◆▒␉␌␍␊°±␤␋┘┐┌└┼⎺⎻─⎼⎽├┤┴┬│≤≥π≠£·",
)

#: A cell never grows past this many code points from combining characters, so a flood of
#: combining marks costs constant time per mark.
MAX_CELL_TEXT = 16

ZWJ = "\u200d"
_REGIONAL = re.compile("[\U0001f1e6-\U0001f1ff]")
ASCII_PRINTABLE = frozenset(chr(c) for c in range(0x20, 0x7F))
_ASCII_RUNS = re.compile("[ -~]+")


class DrawMixin(EditMixin):
    """pyte's ``draw`` made fast (runs of narrow characters are written as slices of cached
    cells) and faithful (DEC graphics in UTF-8, zero-width joiners and variation selectors
    combine into the previous cell instead of aborting the chunk, split wide characters are
    mended)."""

    grid: Grid
    last_char: str
    _caches: dict[int, CellCache]
    _pens: dict[Cell, Cell]
    _pen: Cell | None
    _pen_cells: CellCache
    _narrow: set[str]
    _links: Links
    #: The OSC 8 hyperlink open: the cells drawn get it (see :meth:`set_link`).
    link: Link | None = None
    #: Whether text can be drawn as cached runs of cells: G0 is ASCII and selected, insert
    #: mode is off, autowrap is on, no wide character was drawn and no link is open (a
    #: link is rare: its text takes the general path, so plain text pays nothing for
    #: links). The stream's hot loop
    #: reads this one flag; the setters below (and the mode setters of the screen, the only
    #: places insert mode and autowrap change in place) keep it current.
    plain_draw: bool = False
    plain_text: bool = False  # plain_draw, but for the wide characters met (their seams mended)
    _g0: str = cs.LAT1_MAP
    _g1: str = cs.VT100_MAP
    _shift: int = 0
    _wide: bool = False

    def refresh_plain_draw(self) -> None:
        """Recompute :attr:`plain_draw` after the state it depends on changed."""
        self.plain_text = (
            self._g0 is cs.LAT1_MAP
            and not self._shift
            and self.link is None
            and mo.IRM not in getattr(self, "mode", ())
            and mo.DECAWM in getattr(self, "mode", ())
        )
        self.plain_draw = self.plain_text and not self._wide

    @property
    def g0_charset(self) -> str:
        """The character set designated as G0 (pyte's attribute)."""
        return self._g0

    @g0_charset.setter
    def g0_charset(self, value: str) -> None:
        self._g0 = value
        self.refresh_plain_draw()

    @property
    def g1_charset(self) -> str:
        """The character set designated as G1 (pyte's attribute)."""
        return self._g1

    @g1_charset.setter
    def g1_charset(self, value: str) -> None:
        self._g1 = value

    @property
    def charset(self) -> int:
        """0 when G0 is invoked (SI), 1 when G1 is (SO) (pyte's attribute)."""
        return self._shift

    @charset.setter
    def charset(self, value: int) -> None:
        self._shift = value
        self.refresh_plain_draw()

    @property
    def wide_seen(self) -> bool:
        """Whether a wide character was drawn: seams must then be mended."""
        return self._wide

    @wide_seen.setter
    def wide_seen(self, value: bool) -> None:
        self._wide = value
        self.refresh_plain_draw()

    def set_link(self, link: Link | None) -> None:
        """OSC 8: the cells drawn from now on link to ``link`` (``None``: to nothing)."""
        self.link = self._links.intern(link)
        self._pen = None  # the cells cached for the pen carry the link there was
        self.refresh_plain_draw()

    def intern_pen(self, pen: Cell) -> Cell:
        """One object per distinct pen, so pens can be compared and looked up by identity."""
        found = self._pens.get(pen)
        if found is None:
            if len(self._pens) >= 4096:  # bounds memory
                self._pens.clear()
            found = self._pens[pen] = pen
        return found

    def _cells(self) -> CellCache:
        attrs = self.cursor.attrs
        if attrs is self._pen:
            return self._pen_cells
        pen = attrs if self.link is None else self.intern_pen(attrs._replace(link=self.link))
        # Keyed by identity (pens are interned): hashing a pen is slower. The cache holds
        # its pen, so the id is not reused while the entry exists.
        cache = self._caches.get(id(pen))
        if cache is None or cache.attrs is not pen:
            if len(self._caches) >= 512:  # bounds memory: at most 512 pens cached
                self._caches.clear()
            cache = self._caches[id(pen)] = CellCache(pen)
        self._pen, self._pen_cells = attrs, cache
        return cache

    def glyphs_of(self, pen: Cell) -> CellCache:
        """The glyphs of ``pen`` (a pen an SGR made: no link), the drawing pen left as it is."""
        cache = self._caches.get(id(pen))
        if cache is None or cache.attrs is not pen:
            if len(self._caches) >= 512:  # bounds memory: at most 512 pens cached
                self._caches.clear()
            cache = self._caches[id(pen)] = CellCache(pen)
        return cache

    def all_narrow(self, data: str) -> bool:
        """Whether every character of ``data`` takes exactly one column."""
        # A long text (a frame's) is mostly printable ASCII: its runs are taken out in C first
        # rather than each character put in the set.
        chars = set(data if len(data) < 64 else _ASCII_RUNS.sub("", data))
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
        if self._wide and self.cursor.x == 1 and self.columns > 2:
            self._keep_first_wide()
        if (data.isascii() or self.all_narrow(data)) and mo.IRM not in self.mode:
            cursor = self.cursor
            x = cursor.x
            end = x + len(data)
            if end < self.columns or (end == self.columns and mo.DECAWM in self.mode):
                # the common case: the run fits in the row
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

    def _keep_first_wide(self) -> None:
        """A write on the right half of a wide character in the first column leaves the
        character whole in tmux 3.3a (its ``screen_write_overwrite`` clears a character
        left of the cursor only from the second column on), and tmux draws the row's cells
        one after another: the character takes two columns and the text written after it
        starts in the third. The model lays the row out that way (as :func:`lay_out` does
        after an edit) and moves the cursor to the third column."""
        row = self.grid[self.cursor.y]
        if row[1][0] != "" or not is_wide(row[0][0]):
            return
        row.insert(2, ERASED)  # the cell the write lands on
        del row[self.columns :]
        if is_wide(row[-1][0]):  # tmux draws a character that no longer fits as a blank
            row[-1] = (" ", row[-1][1])
        self.cursor.x = 2

    def _wrap(self) -> None:
        y = self.cursor.y
        self.dirty.add(y)
        if type(self.grid[y]) is not WrappedLine:
            self.grid[y] = WrappedLine(self.grid[y])
        self.cursor.x = 0
        self.advance()

    def _draw_narrow(self, data: str) -> None:
        cursor = self.cursor
        columns = self.columns
        cells = self._cells()
        if mo.DECAWM not in self.mode:
            self._draw_unwrapped(data)
            return
        pos, n = 0, len(data)
        while pos < n:
            if cursor.x >= columns:
                self._wrap()
            x = cursor.x
            end = min(n, pos + columns - x)
            chunk = data[pos:end]
            row = self.grid[cursor.y]
            row[x : x + len(chunk)] = map(cells.__getitem__, chunk)
            if self.wide_seen:
                mend(row, x, columns)
                mend(row, x + len(chunk), columns)
            cursor.x = x + len(chunk)
            self.dirty.add(cursor.y)
            pos = end

    def _draw_unwrapped(self, data: str) -> None:
        """Narrow text without autowrap (DECAWM off): every character past the last column
        overwrites it and the cursor stays on it, as in xterm and tmux; a cursor already
        past the margin (a wrap that was pending when autowrap went off) writes nothing,
        as in tmux."""
        cursor = self.cursor
        columns = self.columns
        x = cursor.x
        if x >= columns:
            return
        chunk = data[: columns - x]
        if len(chunk) < len(data):
            chunk = chunk[:-1] + data[-1]
        row = self.grid[cursor.y]
        row[x : x + len(chunk)] = map(self._cells().__getitem__, chunk)
        if self.wide_seen:
            mend(row, x, columns)
            mend(row, x + len(chunk), columns)
        cursor.x = min(x + len(chunk), columns - 1)
        self.dirty.add(cursor.y)

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
                if not autowrap:
                    continue  # tmux: a character that does not fit is not drawn
                row = self.grid[cursor.y]
                if cursor.x == columns - 1 and row[-1] == ERASED:
                    row[-1] = PAD  # the wide character wraps whole
                self._wrap()
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
            # Without autowrap the cursor stays on the last column (xterm, tmux).
            cursor.x = x + width if autowrap or x + width < columns else columns - 1
            self.dirty.add(cursor.y)

    def _previous(self) -> tuple[int, int] | None:
        """Row and column of the cell before the cursor (the character, not its stub)."""
        x, y = self.cursor.x, self.cursor.y
        if x == 0:
            return None  # after a carriage return nothing precedes (wrapping is deferred)
        px = min(x, self.columns) - 1
        if self.grid[y][px][0] == "" and px > 0:
            px -= 1
        return y, px

    def _joins(self, char: str) -> bool:
        """Join an emoji to the previous cell after a zero-width joiner, or a second
        regional indicator to the first (a flag), as tmux 3.3 does."""
        at = self._previous()
        if at is None:
            return False
        row = self.grid[at[0]]
        text, pen = row[at[1]]
        flag = _REGIONAL.match(text) and _REGIONAL.match(char) and len(text) == 1
        if not (flag or (text.endswith(ZWJ) and is_wide(text))):
            return False
        if len(text) < MAX_CELL_TEXT:
            row[at[1]] = (text + char, pen)
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
        text, pen = row[px]
        if len(text) >= MAX_CELL_TEXT or (char == ZWJ and not is_wide(text)):
            return  # tmux keeps a joiner only after an emoji
        # Stored as received, not normalized, so text matches what tmux captures.
        row[px] = (text + char, pen)
        self.dirty.add(y)

    def repeat_last(self, count: int = 1) -> None:
        """REP (ECMA-48 8.3.103): draw the last graphic character ``count`` more times."""
        if self.last_char:
            # tmux repeats at most to the end of the row: a few bytes can never make the
            # screen fill itself many times over.
            count = min(max(count, 1), max(self.columns - self.cursor.x, 1))
            self._draw_translated(self.last_char * count)
            self.last_char = ""  # tmux repeats only right after a printed character
