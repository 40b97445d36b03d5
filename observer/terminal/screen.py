"""The screen: pyte's ``Screen`` with an alternate screen, scrollback, the modes a watcher
needs, query replies, and geometry changes that behave like tmux."""

from __future__ import annotations

import copy
from collections import deque
from typing import Any

from pyte import charsets as cs
from pyte import modes as mo
from pyte.screens import Char, Savepoint

from observer.terminal.cells import BLANK, CellCache, Grid, Line, blank_grid, fit
from observer.terminal.draw import ASCII_PRINTABLE, DrawMixin
from observer.terminal.editing import EditMixin
from observer.terminal.sanitize import sanitize_title

#: Private modes that change what the keyboard or mouse sends; a repaint restores them.
INPUT_MODES = frozenset({1, 9, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1015, 1016, 2004})
_MOUSE_TRACKING = frozenset({9, 1000, 1001, 1002, 1003})
ALT_SCREEN = (47, 1047, 1049)
SYNCHRONIZED = 2026


class VTScreen(EditMixin, DrawMixin):
    """A pyte screen that is safe, faithful and fast; see ``docs/terminal.md``.

    Args:
        columns: width in cells.
        lines: height in rows.
        scrollback: rows kept in :attr:`history` (main screen only).
    """

    default_char = BLANK  # pyte recomputes this property on every call; it never changes here

    def __init__(self, columns: int, lines: int, scrollback: int = 10_000) -> None:
        self.history: deque[Line] = deque(maxlen=max(scrollback, 0))
        self.alternate = False
        self.grid: Grid = blank_grid(columns, lines)
        self._other: Grid = blank_grid(columns, lines)  # the screen not shown
        self._saved: dict[str, Savepoint] = {}  # "decsc" and "1049"
        self.private_modes: set[int] = set()
        self.keypad_application = False
        self.replies: list[str] = []
        self.bells = 0
        self.last_char = ""
        self.wide_seen = False
        self._caches: dict[Char, CellCache] = {}
        self._pen: Char | None = None
        self._pen_cells = CellCache(BLANK)
        self._pen_runs = self._pen_cells.runs
        self._narrow: set[str] = set(ASCII_PRINTABLE)
        super().__init__(columns, lines)

    def reset(self) -> None:
        """RIS: back to the power-on state (the scrollback is kept)."""
        super().reset()
        self.grid = blank_grid(self.columns, self.lines)
        self._other = blank_grid(self.columns, self.lines)
        self.alternate = False
        self._saved = {}
        self.private_modes.clear()
        self.keypad_application = False
        self.last_char = ""
        self.g1_charset = cs.LAT1_MAP  # xterm and tmux: G1 is ASCII until designated

    @property
    def display(self) -> list[str]:
        """The rows as text (pyte's property, over our grid)."""
        return ["".join(cell.data for cell in row) for row in self.grid]

    # -- geometry --------------------------------------------------------------------------

    def resize(self, lines: int | None = None, columns: int | None = None) -> None:
        """Change the size. Rows leave and return through the scrollback as in tmux."""
        lines, columns = lines or self.lines, columns or self.columns
        if (lines, columns) == (self.lines, self.columns):
            return
        for grid in (self.grid, self._other):
            for row in grid:
                fit(row, columns)
        old, self.columns = self.columns, columns
        if lines < self.lines:
            self._shrink(lines)
        elif lines > self.lines:
            self._grow(lines)
        self.lines = lines
        self.tabstops = {s for s in self.tabstops if s < columns} | set(
            range(old + 8 - old % 8, columns, 8)
        )
        self.margins = None
        self.cursor.x = min(self.cursor.x, columns - 1)
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
        del self._other[lines:]

    def _grow(self, lines: int) -> None:
        """tmux: pull rows back from the scrollback on the main screen, then add blanks."""
        pulled = 0
        if not self.alternate:
            pulled = min(lines - self.lines, len(self.history))
            back = [fit(list(self.history.pop()), self.columns) for _ in range(pulled)]
            self.grid[:0] = back[::-1]  # copies: snapshots share scrollback rows
            self.cursor.y += pulled
        self.grid.extend(blank_grid(self.columns, lines - self.lines - pulled))
        self._other.extend(blank_grid(self.columns, lines - len(self._other)))

    # -- modes -----------------------------------------------------------------------------

    def set_mode(self, *modes: int, **kwargs: Any) -> None:
        """SM / DECSET."""
        for mode in modes:
            if kwargs.get("private"):
                self._private_mode(mode, True)
            elif mode in (mo.IRM, mo.LNM):
                self.mode.add(mode)

    def reset_mode(self, *modes: int, **kwargs: Any) -> None:
        """RM / DECRST."""
        for mode in modes:
            if kwargs.get("private"):
                self._private_mode(mode, False)
            elif mode in (mo.IRM, mo.LNM):
                self.mode.discard(mode)

    def _private_mode(self, mode: int, on: bool) -> None:
        flags = {6: mo.DECOM, 7: mo.DECAWM, 25: mo.DECTCEM}
        if mode in flags:
            (self.mode.add if on else self.mode.discard)(flags[mode])
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
        elif mode == SYNCHRONIZED or mode in INPUT_MODES:
            if on and mode in _MOUSE_TRACKING:
                self.private_modes -= _MOUSE_TRACKING
            (self.private_modes.add if on else self.private_modes.discard)(mode)

    def _alternate_screen(self, mode: int, on: bool) -> None:
        """Switch screens as tmux does: the alternate screen starts blank; 1049 also saves
        the cursor and pen on entering and restores them on leaving, in a slot of its own
        (xterm ctlseqs, "Use Alternate Screen Buffer")."""
        if on == self.alternate:
            return
        if on and mode == 1049:
            self.save_cursor("1049")
        self.grid, self._other = self._other, self.grid
        self.alternate = on
        if on:
            self.grid = blank_grid(self.columns, self.lines)
        else:
            self._other = blank_grid(self.columns, self.lines)
            if mode == 1049:
                self.restore_cursor("1049")
        self.dirty.update(range(self.lines))

    # -- cursor save and restore -----------------------------------------------------------

    def save_cursor(self, slot: str = "decsc") -> None:
        """DECSC / SCOSC: one slot shared by both screens, as in tmux."""
        self._saved[slot] = Savepoint(
            copy.copy(self.cursor),
            self.g0_charset,
            self.g1_charset,
            self.charset,
            mo.DECOM in self.mode,
            mo.DECAWM in self.mode,
        )

    def restore_cursor(self, slot: str = "decsc") -> None:
        """DECRC / SCORC: without a saved cursor, home and reset origin mode and the pen."""
        saved = self._saved.get(slot)
        if saved is None:
            if slot == "decsc":
                self.mode.discard(mo.DECOM)
                self.cursor.attrs = BLANK
                self.cursor_position()
            return
        self.g0_charset, self.g1_charset = saved.g0_charset, saved.g1_charset
        self.charset = saved.charset
        (self.mode.add if saved.origin else self.mode.discard)(mo.DECOM)
        self.cursor.attrs = saved.cursor.attrs
        self.cursor.x = min(max(saved.cursor.x, 0), self.columns)  # a pending wrap survives
        self.cursor.y = min(max(saved.cursor.y, 0), self.lines - 1)

    # -- character sets, attributes, title, bell -------------------------------------------

    def define_charset(self, code: str, mode: str) -> None:
        """SCS: ``0`` is DEC Special Graphics; every other set draws as ASCII."""
        charset = cs.VT100_MAP if code == "0" else cs.LAT1_MAP
        if mode == "(":
            self.g0_charset = charset
        elif mode == ")":
            self.g1_charset = charset

    def sgr(self, attrs: Char) -> None:
        """Set the pen (the SGR parameters are decoded by the stream)."""
        self.cursor.attrs = attrs

    def set_title(self, param: str) -> None:
        """OSC 0/2: the window title, sanitized."""
        self.title = sanitize_title(param)

    def set_icon_name(self, param: str) -> None:
        """OSC 0/1: the icon name, sanitized."""
        self.icon_name = sanitize_title(param)

    def bell(self, *args: Any) -> None:
        """BEL: counted."""
        self.bells += 1

    # -- replies ---------------------------------------------------------------------------

    def report_device_attributes(self, mode: int = 0, **kwargs: bool) -> None:
        """DA1 (``CSI c``): a VT100 with advanced video, as tmux answers."""
        if mode == 0:
            self.replies.append("\x1b[?1;2c")

    def report_secondary_attributes(self, mode: int = 0) -> None:
        """DA2 (``CSI > c``): a VT220, firmware 10."""
        if mode == 0:
            self.replies.append("\x1b[>1;10;0c")

    def report_device_status(self, mode: int = 0, private: bool = False) -> None:
        """DSR 5 (status: OK) and 6 (cursor position; ``CSI ? 6 n`` gives DECXCPR)."""
        if mode == 5 and not private:
            self.replies.append("\x1b[0n")
        elif mode == 6:
            y = self.cursor.y + 1
            if mo.DECOM in self.mode and self.margins is not None:
                y -= self.margins.top
            mark = "?" if private else ""
            self.replies.append(f"\x1b[{mark}{y};{self._x() + 1}R")

    def recover(self) -> None:
        """Bring the state back within bounds after an operation failed half-way."""
        self.cursor.x = min(max(self.cursor.x, 0), self.columns)
        self.cursor.y = min(max(self.cursor.y, 0), self.lines - 1)
        if (
            self.margins is not None
            and not 0 <= self.margins.top < self.margins.bottom < self.lines
        ):
            self.margins = None
        for grid in (self.grid, self._other):
            del grid[self.lines :]
            grid.extend(blank_grid(self.columns, self.lines - len(grid)))
            for row in grid:
                fit(row, self.columns)
        self.dirty.update(range(self.lines))

    def newline(self) -> None:
        """CR LF in one step (the most frequent pair of controls)."""
        self.cursor.x = 0
        self.index()

    def next_line(self) -> None:
        """NEL (``ESC E``): carriage return and index."""
        self.cursor.x = 0
        self.index()

    def set_keypad(self, application: bool) -> None:
        """DECKPAM / DECKPNM: the keypad sends application or numeric sequences."""
        self.keypad_application = application
