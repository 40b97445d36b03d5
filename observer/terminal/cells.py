"""Cells, rows and the wide-character invariant shared by the screen modules."""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

from pyte.screens import Char, StaticDefaultDict
from wcwidth import wcwidth

#: One styled screen cell: pyte's ``Char`` named tuple.
Cell = Char

#: The empty cell: a space with default colours and no attributes.
BLANK = Char(" ")

#: A row of the screen: a sparse mapping column -> cell whose missing cells are blank.
Line = StaticDefaultDict[int, Char]
Buffer = dict[int, Line]


@lru_cache(maxsize=8192)
def char_width(char: str) -> int:
    """Columns a single code point takes: 0 (combines), 1, 2, or -1 (not printable)."""
    return int(wcwidth(char))


def is_wide(data: str) -> bool:
    """Whether a cell's text starts with a double-width character."""
    return bool(data) and char_width(data[0]) == 2


def new_line() -> Line:
    """An empty row."""
    return StaticDefaultDict[int, Char](BLANK)


def new_buffer() -> Buffer:
    """An empty screen buffer: rows appear on first access."""
    return defaultdict(new_line)


def copy_line(line: Line) -> Line:
    """An independent copy of a row (cells are immutable, so a shallow copy suffices)."""
    copy = StaticDefaultDict[int, Char](line.default)
    copy.update(line)
    return copy


def row_cells(line: Line, width: int) -> list[Char]:
    """Exactly ``width`` cells of a row."""
    return list(map(line.__getitem__, range(width)))


class CellCache(dict[str, Char]):
    """Cells of one pen, by text: drawing reuses one immutable ``Char`` per (text, pen).

    pyte builds a new named tuple per drawn character; looking it up here is several times
    cheaper and gives identical screens.
    """

    __slots__ = ("attrs",)

    def __init__(self, attrs: Char) -> None:
        super().__init__()
        self.attrs = attrs

    def __missing__(self, data: str) -> Char:
        cell = self.attrs._replace(data=data)
        if len(self) < 4096:
            self[data] = cell
        return cell


def mend(line: Line, x: int, columns: int) -> None:
    """Restore the wide-character invariant at the seam between columns ``x - 1`` and ``x``.

    A double-width character is always followed by a stub cell whose text is ``""``; when a
    write or an erase splits such a pair, the surviving half becomes a blank (as xterm and
    tmux do), so no orphan stub or half character is left behind.

    Args:
        line: the row.
        x: the seam, 0..columns.
        columns: the screen width.
    """
    if x <= 0:
        if line[0].data == "":
            line[0] = line[0]._replace(data=" ")
        return
    left = line[x - 1]
    if x >= columns:
        if is_wide(left.data):
            line[x - 1] = left._replace(data=" ")
        return
    right = line[x]
    if right.data == "":
        if not is_wide(left.data):
            line[x] = right._replace(data=" ")
    elif is_wide(left.data):
        line[x - 1] = left._replace(data=" ")
