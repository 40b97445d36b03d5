"""Re-wrapping lines when the width changes, as tmux 3.3a does on the main screen.

This follows tmux's ``grid_reflow`` (grid.c) step by step, over the scrollback and the screen
together: a line wider than the new width is split, a line that autowrap had broken
(:class:`~observer.terminal.cells.WrappedLine`) takes as much of the lines it continues on as
fits, every other line is kept as it is. The cursor keeps its place in its logical line
(``grid_wrap_position``/``grid_unwrap_position``): a cursor past a line's last written cell
goes to the end of that line. tmux also counts the scrollback rows that scrolled off the
screen (``hscrolled``, the ones growing the window brings back) and adjusts that count here.

A row's length is its cells up to the last one a program wrote: erases and new rows use the
:data:`~observer.terminal.cells.ERASED` object itself (or, in a colour, the screen's blank of
that colour), a printed space is another (equal) cell. That is tmux's count of used cells
(``cellused``): an erase of part of a row leaves it as it was (the last written cell it
clears becomes :data:`~observer.terminal.cells.CLEARED`), an erase of the whole row empties
it, and ICH and DCH count the cells they move.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass, field

from observer.terminal.cells import ERASED, PAD, Glyph, Line, WrappedLine, fit, is_wide, is_wrapped

Row = Sequence[Glyph]
#: ``grid_wrap_position``'s mark for a cursor past the end of its line.
_END = -1


def used(row: Row, erased: Set[int] = frozenset()) -> int:
    """Cells of a row up to the last one written: trailing cells never written, and those
    an erase left (``erased``: the ids of the blanks erases write in a colour), left out."""
    end = len(row)
    while end and (row[end - 1] is ERASED or row[end - 1] is PAD or id(row[end - 1]) in erased):
        end -= 1
    return end


def _width(cell: Glyph) -> int:
    """Columns a cell takes in tmux's grid: a stub (tmux's padding cell) takes none."""
    return 0 if cell[0] == "" else 2 if is_wide(cell[0]) else 1


@dataclass(slots=True)
class _Line:
    """A row being re-wrapped: its written cells and whether it continues on the next."""

    cells: list[Glyph]
    wrapped: bool
    tail: list[Glyph] = field(default_factory=list)  # cells past the written ones, kept as is
    dead: bool = False


@dataclass
class Reflow:
    """The state ``grid_reflow`` works on: every row, oldest first, and ``hscrolled``."""

    width: int
    source: list[_Line]
    hscrolled: int
    target: list[_Line] = field(default_factory=list)

    def run(self) -> None:
        """Re-wrap every line at :attr:`width` (tmux's ``grid_reflow`` loop)."""
        for yy, line in enumerate(self.source):
            if line.dead:
                continue
            width = sum(map(_width, line.cells))
            if width == self.width:
                self._move(line)
            elif width > self.width:
                self._split(yy, self._fits(line.cells))
            elif line.wrapped:
                self._join(yy, width, already=False)
            else:
                self._move(line)

    def _fits(self, cells: list[Glyph]) -> int:
        """Index of the first cell that does not fit in the width."""
        width = 0
        for i, cell in enumerate(cells):
            width += _width(cell)
            if width > self.width:
                return i
        return len(cells)

    def _move(self, line: _Line) -> _Line:
        moved = _Line(line.cells, line.wrapped, line.tail)
        self.target.append(moved)
        line.dead = True
        return moved

    def _join(self, yy: int, width: int, *, already: bool) -> None:
        """Join the lines below ``yy`` onto it (or onto the last target line) while they
        fit (tmux's ``grid_reflow_join``)."""
        gl = self.target[-1] if already else self._move(self.source[yy])
        to = len(self.target) - 1
        joined = len(gl.cells)
        lines, wrapped, want = 0, True, 0
        taken: _Line | None = None
        while yy + 1 + lines < len(self.source):
            line = self.source[yy + 1 + lines]
            if not line.wrapped:
                wrapped = False
            if not line.cells:
                if not wrapped:
                    break
                lines += 1
                continue
            first = _width(line.cells[0])
            if width + first > self.width:
                break
            width += first
            want = 1
            for cell in line.cells[1:]:
                if width + _width(cell) > self.width:
                    break
                width += _width(cell)
                want += 1
            gl.cells.extend(line.cells[:want])
            taken = line
            lines += 1
            if not wrapped or want != len(line.cells) or width == self.width:
                break
        if lines == 0:
            return
        del gl.tail[: len(gl.cells) - joined]  # joined cells were written over these
        if taken is not None and want != len(taken.cells):
            del taken.cells[:want]  # what did not fit stays, as a line of its own
            taken.tail = []
            lines -= 1
        elif not wrapped:
            gl.wrapped = False
        for consumed in self.source[yy + 1 : yy + 1 + lines]:
            consumed.dead = True
        if self.hscrolled > to + lines:
            self.hscrolled -= lines
        elif self.hscrolled > to:
            self.hscrolled = to

    def _split(self, yy: int, at: int) -> None:
        """Split line ``yy`` at cell ``at`` into as many lines as it needs, then join what
        follows if it had wrapped (tmux's ``grid_reflow_split``)."""
        line = self.source[yy]
        parts: list[list[Glyph]] = [[]]
        width = 0
        for cell in line.cells[at:]:
            if width + _width(cell) > self.width:
                parts.append([])
                width = 0
            width += _width(cell)
            parts[-1].append(cell)
        self.target.append(_Line(line.cells[:at], True))
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            self.target.append(_Line(part, line.wrapped if last else True))
        line.dead = True
        if yy <= self.hscrolled:
            self.hscrolled += len(parts)
        if width < self.width and line.wrapped:
            self._join(yy, width, already=True)


def wrap_position(rows: Sequence[Row], x: int, y: int, erased: Set[int]) -> tuple[int, int]:
    """The cursor as (offset in its logical line, logical line), ``grid_wrap_position``."""
    ax = ay = 0
    for row in rows[:y]:
        if is_wrapped(row):
            ax += used(row, erased)
        else:
            ax, ay = 0, ay + 1
    return (_END if x >= used(rows[y], erased) else ax + x), ay


def unwrap_position(rows: Sequence[Row], wx: int, wy: int, erased: Set[int]) -> tuple[int, int]:
    """Where a logical position is in re-wrapped rows, ``grid_unwrap_position``."""
    yy = ay = 0
    while yy < len(rows) - 1 and ay != wy:
        if not is_wrapped(rows[yy]):
            ay += 1
        yy += 1
    if wx == _END:
        while is_wrapped(rows[yy]) and yy < len(rows) - 1:
            yy += 1
        return used(rows[yy], erased), yy
    while is_wrapped(rows[yy]) and yy < len(rows) - 1 and wx >= used(rows[yy], erased):
        wx -= used(rows[yy], erased)
        yy += 1
    return wx, yy


def reflow(
    rows: Sequence[Row],
    columns: int,
    cursor: tuple[int, int],
    hscrolled: int,
    erased: Set[int] = frozenset(),
) -> tuple[list[Line], tuple[int, int], int]:
    """Re-wrap ``rows`` (scrollback then screen) at ``columns``.

    Args:
        rows: all rows, oldest first, each of its own width.
        columns: the new width.
        cursor: the cursor as (column, index into ``rows``).
        hscrolled: how many of the first rows scrolled off the screen (tmux's count).
        erased: ids of the coloured blanks erases leave (see :func:`used`).

    Returns:
        The new rows (each ``columns`` wide), the cursor as (column, index into them), and
        the new ``hscrolled``.
    """
    wx, wy = wrap_position(rows, *cursor, erased)
    lines = []
    for row in rows:
        n = used(row, erased)
        lines.append(_Line(list(row[:n]), is_wrapped(row), list(row[n:])))
    state = Reflow(columns, lines, hscrolled)
    state.run()
    out = []
    for line in state.target:
        cells = line.cells
        if cells and used(cells, erased) < len(cells):
            # tmux counts every cell it copied as used, blanks included: a written copy
            text, pen = cells[-1]
            cells[-1] = (text, pen)  # a new tuple: equal, not the same object
        out.append(fit((WrappedLine if line.wrapped else list)(cells + line.tail), columns))
    return out, unwrap_position(out, wx, wy, erased), state.hscrolled
