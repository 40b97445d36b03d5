"""Cells, rows and the wide-character invariant shared by the screen modules.

The screen is a list of rows and each row a list of exactly ``columns`` immutable glyphs,
so drawing a run, erasing and scrolling are slice operations done in C rather than one
named-tuple rebuild per character (what makes stock pyte slow). A glyph is a plain pair,
its text and its pen (a :class:`Cell` whose text is unused): every glyph drawn in one pen
shares that pen, so a run of text in a pen met once (a truecolour word) is built by ``zip``
in C, a small tuple per character rather than a 12-field named tuple. The model gives
:class:`Cell` rows to the rest of observer (:func:`cells_of`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import repeat
from operator import add, itemgetter
from typing import NamedTuple, TypeVar

from pyte.screens import Cursor
from wcwidth import wcwidth

from observer.terminal.links import Link


class Cell(NamedTuple):
    """One styled screen cell: pyte's ``Char`` fields, in pyte's order, plus ``dim``,
    ``conceal`` and ``link``.

    pyte 0.8.2 drops SGR 2 (faint) and SGR 8 (concealed: the text is kept, as tmux keeps
    it, and drawn as blanks); xterm and tmux honour both, so the cell carries them.
    ``link`` is the OSC 8 hyperlink the cell was written in (:mod:`observer.terminal.links`);
    the pen an SGR sets never holds one. Code written for pyte's ``Char`` (``.data``,
    ``.fg``, ``.bold`` ...) works unchanged. A pen is a ``Cell`` too (its text a space,
    unused); inside the model the grid holds :data:`Glyph` pairs of text and pen.
    """

    data: str
    fg: str = "default"
    bg: str = "default"
    bold: bool = False
    italics: bool = False
    underscore: bool = False
    strikethrough: bool = False
    reverse: bool = False
    blink: bool = False
    dim: bool = False
    conceal: bool = False
    link: Link | None = None


class VTCursor(Cursor):
    """pyte's cursor with a :class:`Cell` pen (pyte's reset makes a ``Char`` one)."""

    attrs: Cell  # type: ignore[assignment]

    def __init__(self, x: int = 0, y: int = 0, attrs: Cell | None = None) -> None:
        super().__init__(x, y, attrs or BLANK)  # type: ignore[arg-type]


class SavedCursor(NamedTuple):
    """What DECSC (and mode 1049) saves: pyte's ``Savepoint`` fields and the OSC 8 link
    open, which is saved and restored with the pen (a DECRC brings it back)."""

    cursor: VTCursor
    g0_charset: str
    g1_charset: str
    charset: int
    origin: bool
    wrap: bool
    link: Link | None = None


#: The empty cell: a space with default colours and no attributes (also the default pen).
BLANK = Cell(" ")

#: A cell as the grid stores it: its text and its pen.
Glyph = tuple[str, Cell]

#: The glyph erases and new rows leave: :data:`BLANK`'s.
ERASED: Glyph = (" ", BLANK)

#: The blank left in the last column when a wide character wraps to the next row. Equal to
#: :data:`ERASED` but a distinct object, so re-wrapping knows to drop it (tmux's padding).
PAD: Glyph = (" ", BLANK)

#: A blank that counts as written for re-wrapping: tmux counts the cells ICH and DCH move
#: as used, blanks included (see :mod:`observer.terminal.reflow`).
MOVED: Glyph = (" ", BLANK)

#: The blank a write leaves in the surviving half of a wide character it cut: default
#: colours (tmux sets ``grid_default_cell``), and, unlike :data:`ERASED`, a written cell.
SPACE: Glyph = (" ", BLANK)

#: A blank an erase left among a line's written cells: tmux's erases of part of a line keep
#: the line's length (``grid_clear`` leaves ``cellused`` as it was), so this blank counts as
#: written when a resize re-wraps the line (see :mod:`observer.terminal.reflow`).
CLEARED: Glyph = (" ", BLANK)

_T = TypeVar("_T")


@lru_cache(maxsize=8192)
def char_width(char: str) -> int:
    """Columns a single code point takes: 0 (combines), 1, 2, or -1 (not printable)."""
    return int(wcwidth(char))


def is_wide(data: str) -> bool:
    """Whether a cell's text starts with a double-width character."""
    return data >= "\u1100" and char_width(data[0]) == 2


class WrappedLine(list[_T]):
    """A row whose text continues on the next row: it filled up and autowrap moved on.

    The type is the flag, so it travels with the row through scrolling and into the
    scrollback; a column resize re-wraps such lines as tmux does.
    """

    __slots__ = ()


class WrappedRow(tuple[_T, ...]):
    """A :class:`WrappedLine` frozen into the scrollback."""

    __slots__ = ()


#: A row: exactly ``columns`` glyphs.
Line = list[Glyph]
#: A screen: exactly ``lines`` rows.
Grid = list[Line]


def frozen(row: Line) -> tuple[Glyph, ...]:
    """An immutable copy of a row for the scrollback, keeping its wrap flag."""
    return WrappedRow(row) if type(row) is WrappedLine else tuple(row)


def thawed(row: tuple[Glyph, ...] | Line) -> Line:
    """A mutable copy of a row, keeping its wrap flag."""
    return WrappedLine(row) if type(row) in (WrappedRow, WrappedLine) else list(row)


def is_wrapped(row: object) -> bool:
    """Whether a row continues on the next one."""
    return type(row) in (WrappedLine, WrappedRow)


_TEXT = itemgetter(0)
_PEN = itemgetter(1)
_REST = itemgetter(slice(1, None))
#: ``Cell`` without end, the first argument of ``tuple.__new__`` for each cell a ``map``
#: builds (``map`` stops at its shortest iterable).
_CELLS = repeat(Cell)


def cells_of(row: Sequence[Glyph]) -> list[Cell]:
    """The :class:`Cell` of each glyph of a row, built in C (a list: the caller's copy)."""
    texts = zip(map(_TEXT, row))
    rests = map(_REST, map(_PEN, row))
    return list(map(tuple.__new__, _CELLS, map(add, texts, rests)))


def public(row: tuple[Glyph, ...] | Line) -> list[Cell]:
    """A row as the model gives it: its cells, and its wrap flag
    (:class:`WrappedLine` of :class:`Cell`)."""
    cells = cells_of(row)
    return WrappedLine(cells) if type(row) in (WrappedRow, WrappedLine) else cells


def blank_grid(columns: int, lines: int, cell: Glyph = ERASED) -> Grid:
    """A screen of blank rows."""
    return [[cell] * columns for _ in range(lines)]


def fit(row: Line, columns: int) -> Line:
    """``row`` cut or padded to ``columns`` cells, a wide character cut in half blanked."""
    if len(row) > columns:
        del row[columns:]
        if is_wide(row[-1][0]):  # tmux draws the half that fits as a blank
            row[-1] = (" ", row[-1][1])
    elif len(row) < columns:
        row.extend([ERASED] * (columns - len(row)))
    return row


#: Cells kept per pen (bounds memory).
_MAX_CELLS = 4096


class CellCache(dict[str, Glyph]):
    """Glyphs of one pen, by text: drawing reuses one glyph per (text, pen).

    pyte builds a new named tuple per drawn character; looking it up here is several times
    cheaper and gives identical screens.
    """

    __slots__ = ("attrs",)

    def __init__(self, attrs: Cell) -> None:
        super().__init__()
        self.attrs = attrs

    def __missing__(self, data: str) -> Glyph:
        cell = (data, self.attrs)
        if len(self) < _MAX_CELLS:
            self[data] = cell
        return cell


def mend(row: Line, x: int, columns: int) -> None:
    """Restore the wide-character invariant at the seam between columns ``x - 1`` and ``x``
    after a write.

    A double-width character is always followed by a stub cell whose text is ``""``; when a
    write splits such a pair, the surviving half becomes a default blank (as tmux does), so
    no orphan stub or half character is left behind.

    Args:
        row: the row.
        x: the seam, 0..columns.
        columns: the screen width.
    """
    left = row[x - 1][0] if x > 0 else " "
    right = row[x][0] if x < columns else " "
    if right == "" and not is_wide(left):
        row[x] = SPACE
    elif right != "" and is_wide(left):
        row[x - 1] = SPACE


def split(row: Line, x: int, columns: int) -> bool:
    """Whether the seam between columns ``x - 1`` and ``x`` parts a wide character from its
    stub (an erase, insertion or deletion does not mend what it splits; see :func:`lay_out`)."""
    left = row[x - 1][0] if x > 0 else " "
    right = row[x][0] if x < columns else " "
    return (right == "") != is_wide(left)


def lay_out(row: Line, columns: int) -> None:
    """Lay a row out again the way tmux 3.3a shows it after an edit split a wide character.

    tmux's ICH, DCH, ECH and EL move and clear cells without looking at wide characters,
    and then draw the row's cells one after another: a stub without its character takes no
    column, a wide character without its stub still takes two, one that no longer fits
    before the margin shows as a blank. The row becomes what tmux shows, with the invariant
    of :func:`mend` restored.
    """
    out: Line = []
    for cell in row:
        text, pen = cell
        if text == "":
            continue
        if is_wide(text):
            if len(out) + 2 > columns:
                if len(out) < columns:
                    out.append((" ", pen))
                break
            out += (cell, ("", pen))
        elif len(out) < columns:
            out.append(cell)
        else:
            break
    out.extend([ERASED] * (columns - len(out)))
    row[:] = out
