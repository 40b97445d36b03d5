"""Re-wrapping lines when the width changes, as tmux does on the main screen.

Rows that autowrap filled (:class:`~observer.terminal.cells.WrappedLine`) are joined with
the rows they continue on into logical lines, and the lines are split again at the new
width; the scrollback takes part, and the cursor stays on its character. Lines that do not
wrap and fit are kept as they are.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from observer.terminal.cells import BLANK, PAD, Cell, Line, WrappedLine, fit, is_wrapped

Row = Sequence[Cell]


def _content(row: Row) -> int:
    """Length of a row without its trailing never-written cells.

    Erases and new rows use the :data:`BLANK` object itself while a printed space is a
    different (equal) object, so identity tells what the program wrote, like tmux's count
    of used cells.
    """
    end = len(row)
    while end and (row[end - 1] is BLANK or row[end - 1] is PAD):
        end -= 1
    return end


def _split(cells: list[Cell], columns: int) -> tuple[list[Line], list[int]]:
    """Cut a logical line into rows of ``columns`` cells (a wide character is never cut);
    returns the rows and the offset in the line where each begins."""
    rows: list[Line] = []
    starts: list[int] = []
    pos = 0
    while pos < len(cells) or not rows:
        end = pos + columns
        part = cells[pos:end]
        if end < len(cells) and cells[end].data == "" and end - 1 > pos:
            end -= 1  # the wide character moves to the next row whole
            part[-1] = PAD
        rows.append(fit(WrappedLine(part) if end < len(cells) else part, columns))
        starts.append(pos)
        pos = end
    return rows, starts


def reflow(
    rows: Sequence[Row], columns: int, cursor: tuple[int, int]
) -> tuple[list[Line], tuple[int, int]]:
    """Re-wrap ``rows`` (scrollback then screen) at ``columns``.

    Args:
        rows: all rows, oldest first, each of its own width.
        columns: the new width.
        cursor: the cursor as (index into ``rows``, column).

    Returns:
        The new rows and the cursor as (index into them, column).
    """
    out: list[Line] = []
    at_row, at_x = cursor
    new_cursor = (0, 0)
    line: list[Cell] = []
    offset: int | None = None

    def emit() -> None:
        nonlocal new_cursor
        if offset is not None and offset > len(line):
            line.extend([BLANK] * (offset - len(line)))  # keep the blanks the cursor is past
        split, starts = _split(line, columns)
        if offset is not None:
            k = bisect_right(starts, offset) - 1
            new_cursor = (len(out) + k, min(offset - starts[k], columns))  # may be a pending wrap
        out.extend(split)

    for i, row in enumerate(rows):
        if i == at_row:
            offset = len(line) + at_x
        if is_wrapped(row):
            line.extend(row[:-1] if row and row[-1] is PAD else row)
            continue
        if not line and offset is None and len(row) <= columns:
            out.append(fit(list(row), columns))  # the common case: nothing to re-wrap
            continue
        line.extend(row[: _content(row)])
        emit()
        line, offset = [], None
    if line or offset is not None:
        emit()
    return out, new_cursor
