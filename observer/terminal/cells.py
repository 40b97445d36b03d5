"""Cells, rows and the wide-character invariant shared by the screen modules.

The screen is a list of rows and each row a list of exactly ``columns`` immutable cells,
so drawing a run, erasing and scrolling are slice operations done in C rather than one
named-tuple rebuild per character (what makes stock pyte slow).
"""

from __future__ import annotations

from functools import lru_cache

from pyte.screens import Char
from wcwidth import wcwidth

#: One styled screen cell: pyte's ``Char`` named tuple.
Cell = Char

#: The empty cell: a space with default colours and no attributes.
BLANK = Char(" ")

#: A row: exactly ``columns`` cells.
Line = list[Char]
#: A screen: exactly ``lines`` rows.
Grid = list[Line]


@lru_cache(maxsize=8192)
def char_width(char: str) -> int:
    """Columns a single code point takes: 0 (combines), 1, 2, or -1 (not printable)."""
    return int(wcwidth(char))


def is_wide(data: str) -> bool:
    """Whether a cell's text starts with a double-width character."""
    return data >= "\u1100" and char_width(data[0]) == 2


def blank_grid(columns: int, lines: int, cell: Char = BLANK) -> Grid:
    """A screen of blank rows."""
    return [[cell] * columns for _ in range(lines)]


def fit(row: Line, columns: int) -> Line:
    """``row`` cut or padded to ``columns`` cells, a wide character cut in half blanked."""
    if len(row) > columns:
        del row[columns:]
        mend(row, columns, columns)
    elif len(row) < columns:
        row.extend([BLANK] * (columns - len(row)))
    return row


class CellCache(dict[str, Char]):
    """Cells of one pen, by text: drawing reuses one immutable ``Char`` per (text, pen).

    pyte builds a new named tuple per drawn character; looking it up here is several times
    cheaper and gives identical screens.
    """

    __slots__ = ("_rest", "attrs", "runs")

    def __init__(self, attrs: Char) -> None:
        super().__init__()
        self.attrs = attrs
        self._rest = tuple(attrs)[1:]
        self.runs: dict[str, tuple[Char, ...]] = {}  # whole short runs of text

    def __missing__(self, data: str) -> Char:
        cell: Char = tuple.__new__(Char, (data, *self._rest))
        if len(self) < 4096:
            self[data] = cell
        return cell


def mend(row: Line, x: int, columns: int) -> None:
    """Restore the wide-character invariant at the seam between columns ``x - 1`` and ``x``.

    A double-width character is always followed by a stub cell whose text is ``""``; when a
    write or an erase splits such a pair, the surviving half becomes a blank (as xterm and
    tmux do), so no orphan stub or half character is left behind.

    Args:
        row: the row.
        x: the seam, 0..columns.
        columns: the screen width.
    """
    left = row[x - 1].data if x > 0 else " "
    right = row[x].data if x < columns else " "
    if right == "" and not is_wide(left):
        row[x] = row[x]._replace(data=" ")
    elif right != "" and is_wide(left):
        row[x - 1] = row[x - 1]._replace(data=" ")
