"""The screen: pyte's ``Screen`` with an alternate screen, scrollback, the modes a watcher
needs, query replies, and geometry changes that behave like tmux."""

from __future__ import annotations

import copy
from collections import defaultdict, deque
from collections.abc import Callable
from typing import Any

from pyte import charsets as cs
from pyte import modes as mo

from observer.terminal.cells import (
    BLANK,
    ERASED,
    Cell,
    CellCache,
    Glyph,
    Grid,
    Line,
    SavedCursor,
    VTCursor,
    blank_grid,
    fit,
    thawed,
)
from observer.terminal.draw import ASCII_PRINTABLE
from observer.terminal.links import Links
from observer.terminal.notifications import Notifications
from observer.terminal.pending import Block, Pending
from observer.terminal.reflow import reflow
from observer.terminal.reports import ReportsMixin

#: Private modes that change what the keyboard or mouse sends; a repaint restores them.
INPUT_MODES = frozenset({1, 9, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1015, 1016, 2004})
_MOUSE_TRACKING = frozenset({9, 1000, 1001, 1002, 1003})
ALT_SCREEN = (47, 1047, 1049)
#: Private modes kept in pyte's mode set (shifted, as pyte stores them).
_FLAGS = {6: mo.DECOM, 7: mo.DECAWM, 25: mo.DECTCEM}
SYNCHRONIZED = 2026


class VTScreen(ReportsMixin):
    """A pyte screen that is safe, faithful and fast; see ``docs/terminal.md``.

    Args:
        columns: width in cells.
        lines: height in rows.
        scrollback: rows kept in :attr:`history` (main screen only).
    """

    # pyte recomputes this property on every call; it never changes here.
    default_char = BLANK  # type: ignore[assignment]

    def __init__(self, columns: int, lines: int, scrollback: int = 10_000) -> None:
        # Rows that scrolled off: lists moved out of the grid, never changed afterwards
        # (whoever takes one back copies it), so snapshots can share them.
        self.history: deque[Line | Pending] = deque(maxlen=max(scrollback, 0))
        # Scrollback rows that did not scroll off the screen (re-wrapping pushed them there):
        # growing the window does not bring them back (tmux's ``hscrolled``).
        self.unscrolled = 0
        # Builds the rows of a log's lines kept as text (given by the stream: it decodes the
        # SGRs), and the pens SGRs made of pens there (see observer.terminal.logged).
        self.build_block: Callable[[VTScreen, Block], list[Line]] | None = None
        self.pen_steps: dict[tuple[int, str], tuple[Cell, Cell]] = {}
        # The last pen met once and the pen it was decoded from (see ActionCompiler._sgr).
        self.derived_pen: Cell | None = None
        self.derived_from: Cell = BLANK
        self.alternate = False
        self.grid: Grid = blank_grid(columns, lines)
        self._other: Grid = blank_grid(columns, lines)  # the screen not shown
        self._other_size = (lines, columns)  # its size (the main screen keeps its own)
        self._saved: dict[str, SavedCursor] = {}  # "decsc" and "1049"
        self.private_modes: set[int] = set()
        self.keypad_application = False
        self.title_stack: list[tuple[str, str]] = []
        self.replies: list[str] = []
        self.bells = 0
        self.notifications = Notifications()
        self.last_char = ""
        self.wide_seen = False
        self.dirty_all = False
        self._blanks: dict[str, Glyph] = {}
        self._caches: dict[int, CellCache] = {}  # by id of the pen
        self._pens: dict[Cell, Cell] = {}  # interned pens
        self._pen: Cell | None = None
        self._pen_cells = CellCache(BLANK)
        self._narrow: set[str] = set(ASCII_PRINTABLE)
        self._links = Links()
        super().__init__(columns, lines)
        # pyte's cell store is unused (the grid replaces it), and its default factory, a
        # closure over the screen, made every model a reference cycle that only the
        # cyclic garbage collector could free.
        self.buffer = defaultdict(dict)  # type: ignore[arg-type]
        self.refresh_plain_draw()  # pyte's __init__ replaces the mode set after reset()

    def reset(self) -> None:
        """RIS: back to the power-on state (the scrollback is kept)."""
        super().reset()
        self.cursor = VTCursor(0, 0, BLANK)
        self.grid = blank_grid(self.columns, self.lines)
        self._other = blank_grid(self.columns, self.lines)
        self._other_size = (self.lines, self.columns)
        self.alternate = False
        self._unwrap(-1)  # tmux clears the screen's rows (grid_clear_lines)
        self._saved = {}
        self.private_modes.clear()
        self.keypad_application = False
        self.title_stack = []
        self.last_char = ""
        self.g1_charset = cs.LAT1_MAP  # xterm and tmux: G1 is ASCII until designated
        self.set_link(None)  # tmux resets the cell, its link included

    def built(self, row: Line | Pending) -> Line:
        """A scrollback row, built if it was kept as text."""
        if type(row) is not Pending:
            return row  # type: ignore[return-value]
        assert self.build_block is not None  # a stream made it: it gave the builder
        return row.block.rows(lambda block: self.build_block(self, block))[row.index]  # type: ignore[misc]

    @property
    def display(self) -> list[str]:
        """The rows as text (pyte's property, over our grid)."""
        return ["".join([cell[0] for cell in row]) for row in self.grid]

    # -- geometry --------------------------------------------------------------------------

    @property
    def hscrolled(self) -> int:
        """Scrollback rows that scrolled off the screen, which growing it brings back."""
        return max(len(self.history) - self.unscrolled, 0)

    def resize(self, lines: int | None = None, columns: int | None = None) -> None:
        """Change the size as tmux does (``screen_resize_cursor``): rows leave and return
        through the scrollback, then on the main screen lines are re-wrapped to the new
        width (the alternate screen is cut; the main screen behind it is resized when it is
        shown again)."""
        lines, columns = lines or self.lines, columns or self.columns
        if (lines, columns) == (self.lines, self.columns):
            return
        if lines < self.lines:
            self._shrink(lines)
        elif lines > self.lines:
            self._grow(lines)
        self.lines = lines
        if columns != self.columns:
            if self.alternate:
                for row in self.grid:
                    fit(row, columns)
            else:
                self._reflow(columns)
        old, self.columns = self.columns, columns
        self.tabstops = {s for s in self.tabstops if s < columns} | set(
            range(old + 8 - old % 8, columns, 8)
        )
        self.margins = None
        self.cursor.x = min(self.cursor.x, columns)  # a pending wrap survives, as in tmux
        self.cursor.y = min(max(self.cursor.y, 0), lines - 1)
        self.dirty.update(range(lines))

    def _shrink(self, lines: int) -> None:
        """tmux: drop rows below the cursor first, then move rows off the top (into the
        scrollback on the main screen)."""
        needed = self.lines - lines
        dropped = min(max(self.lines - 1 - self.cursor.y, 0), needed)
        del self.grid[self.lines - dropped :]
        needed -= dropped
        if needed:
            if not self.alternate:
                self.history.extend(self.grid[:needed])
            del self.grid[:needed]
            self.cursor.y -= needed

    def _grow(self, lines: int) -> None:
        """tmux: pull rows back from the scrollback on the main screen, then add blanks."""
        pulled = 0
        if not self.alternate:
            pulled = min(lines - self.lines, self.hscrolled)
            back = [
                fit(thawed(self.built(self.history.pop())), self.columns) for _ in range(pulled)
            ]
            self.grid[:0] = back[::-1]  # copies: snapshots share scrollback rows
            self.cursor.y += pulled
        self.grid.extend(blank_grid(self.columns, lines - self.lines - pulled))

    def _reflow(self, columns: int) -> None:
        """Re-wrap the scrollback and the screen at ``columns``; as in tmux, the screen shows
        the last rows, and a cursor whose row went into the scrollback goes home."""
        rows = [*map(self.built, self.history), *self.grid]
        at = len(self.history) + self.cursor.y
        erased = set(map(id, self._blanks.values()))
        out, (x, row), hscrolled = reflow(
            rows, columns, (self.cursor.x, at), self.hscrolled, erased
        )
        out.extend(blank_grid(columns, self.lines - len(out)))
        start = len(out) - self.lines
        self.history.clear()
        self.history.extend(out[:start])
        self.unscrolled = len(self.history) - min(hscrolled, len(self.history))
        self.grid = out[start:]
        self.cursor.x, self.cursor.y = (x, row - start) if row >= start else (0, 0)

    # -- modes -----------------------------------------------------------------------------

    def set_mode(self, *modes: int, **kwargs: Any) -> None:
        """SM / DECSET."""
        for mode in modes:
            if kwargs.get("private"):
                self.private_mode(mode, True)
            elif mode in (mo.IRM, mo.LNM):
                self.mode.add(mode)
                self.refresh_plain_draw()

    def reset_mode(self, *modes: int, **kwargs: Any) -> None:
        """RM / DECRST."""
        for mode in modes:
            if kwargs.get("private"):
                self.private_mode(mode, False)
            elif mode in (mo.IRM, mo.LNM):
                self.mode.discard(mode)
                self.refresh_plain_draw()

    def private_mode(self, mode: int, on: bool) -> None:
        """DECSET / DECRST of one private mode."""
        # Synchronized output (around every frame of a full-screen program) is looked at
        # first; the branches below name disjoint modes.
        if mode == SYNCHRONIZED or mode in INPUT_MODES:
            if on and mode in _MOUSE_TRACKING:
                self.private_modes -= _MOUSE_TRACKING
            (self.private_modes.add if on else self.private_modes.discard)(mode)
        elif mode in _FLAGS:
            (self.mode.add if on else self.mode.discard)(_FLAGS[mode])
            if mode == 7:
                self.refresh_plain_draw()
            if mode == 25:
                self.cursor.hidden = not on
            if mode == 6:
                self.cursor_position()
        elif mode == 3:  # DECCOLM: the size is the PTY's; like tmux, only clear and home
            self.erase_in_display(2)
            self.cursor_position()
        elif mode in ALT_SCREEN:
            self._alternate_screen(mode, on)
        elif mode == 1048:
            self.save_cursor() if on else self.restore_cursor()

    def _alternate_screen(self, mode: int, on: bool) -> None:
        """Switch screens as tmux does: the alternate screen starts blank; 1049 also saves
        the cursor and pen on entering and restores them on leaving, in a slot of its own
        (xterm ctlseqs, "Use Alternate Screen Buffer")."""
        if on == self.alternate:
            if not on and mode == 1049:
                # xterm (srm_OPT_ALTBUF_CURSOR) and tmux restore the cursor even when the
                # normal screen is already shown.
                self.restore_cursor("1049")
            return
        if on and mode == 1049:
            self.save_cursor("1049")
        self.grid, self._other = self._other, self.grid
        self.alternate = on
        if on:
            self.grid = blank_grid(self.columns, self.lines)
            self._other_size = (self.lines, self.columns)
            self.dirty.update(range(self.lines))
            return
        self._other = blank_grid(self.columns, self.lines)
        size = (self.lines, self.columns)
        # Like tmux, go back at the size the main screen had, then resize it (re-wrapping).
        self.lines, self.columns = self._other_size
        self.cursor.x = min(self.cursor.x, self.columns - 1)
        self.cursor.y = min(self.cursor.y, self.lines - 1)
        if mode == 1049:
            self.restore_cursor("1049")
        self.resize(*size)
        self.dirty.update(range(self.lines))

    # -- cursor save and restore -----------------------------------------------------------

    def save_cursor(self, slot: str = "decsc") -> None:
        """DECSC / SCOSC: one slot shared by both screens, as in tmux."""
        self._saved[slot] = SavedCursor(
            copy.copy(self.cursor),
            self.g0_charset,
            self.g1_charset,
            self.charset,
            mo.DECOM in self.mode,
            mo.DECAWM in self.mode,
            self.link,
        )

    def restore_cursor(self, slot: str = "decsc") -> None:
        """DECRC / SCORC: without a saved cursor, home and reset origin mode and the pen
        (the link open with it)."""
        saved = self._saved.get(slot)
        if saved is None:
            if slot == "decsc":
                self.mode.discard(mo.DECOM)
                self.cursor.attrs = BLANK
                if self.link is not None:
                    self.set_link(None)
                self.cursor_position()
            return
        if saved.link is not self.link:  # links are interned
            self.set_link(saved.link)
        self.g0_charset, self.g1_charset = saved.g0_charset, saved.g1_charset
        self.charset = saved.charset
        (self.mode.add if saved.origin else self.mode.discard)(mo.DECOM)
        self.cursor.attrs = saved.cursor.attrs
        self.cursor.x = min(max(saved.cursor.x, 0), self.columns)  # a pending wrap survives
        self.cursor.y = min(max(saved.cursor.y, 0), self.lines - 1)

    # -- character sets and attributes -----------------------------------------------------

    def define_charset(self, code: str, mode: str) -> None:
        """SCS: ``0`` is DEC Special Graphics; every other set draws as ASCII."""
        charset = cs.VT100_MAP if code == "0" else cs.LAT1_MAP
        if mode == "(":
            self.g0_charset = charset
        elif mode == ")":
            self.g1_charset = charset

    def sgr(self, attrs: Cell) -> None:
        """Set the pen (the SGR parameters are decoded by the stream)."""
        self.cursor.attrs = attrs

    def recover(self) -> None:
        """Bring the state back within bounds after an operation failed half-way."""
        self.cursor.x = min(max(self.cursor.x, 0), self.columns)
        self.cursor.y = min(max(self.cursor.y, 0), self.lines - 1)
        if (
            self.margins is not None
            and not 0 <= self.margins.top < self.margins.bottom < self.lines
        ):
            self.margins = None
        grid = self.grid
        del grid[self.lines :]
        grid.extend(blank_grid(self.columns, self.lines - len(grid)))
        for row in grid:
            fit(row, self.columns)
        self.dirty.update(range(self.lines))

    def newline(self) -> None:
        """CR LF in one step (the most frequent pair of controls): :meth:`index` inlined
        for a screen without margins."""
        cursor = self.cursor
        cursor.x = 0
        if self.margins is not None:
            self.index()
            return
        y = cursor.y
        bottom = self.lines - 1
        if y < bottom:
            cursor.y = y + 1
        elif y == bottom:
            # _scroll_up(0, bottom, 1, keep=True) inlined: a log scrolls once a line.
            grid = self.grid
            if not self.alternate and self.history.maxlen:
                self.history.append(grid[0])  # rows leave the grid: never changed again
            del grid[0]
            blank = ERASED if cursor.attrs.bg == "default" else self._blank()
            grid.append([blank] * self.columns)
            self.dirty_all = True

    def next_line(self) -> None:
        """NEL (``ESC E``): carriage return and index."""
        self.cursor.x = 0
        self.index()

    def set_keypad(self, application: bool) -> None:
        """DECKPAM / DECKPNM: the keypad sends application or numeric sequences."""
        self.keypad_application = application
