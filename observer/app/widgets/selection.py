"""A selection of a terminal's text, in cells, and the text it covers.

Points are (virtual line, column): the history's lines, then the screen's rows, as the viewport
counts them, so a selection stays on the same text while the view is scrolled or panned. As in
xterm and tmux, a selection runs from one point to the other through the lines between, both
ends included; each line's trailing blanks are dropped. The text goes through the one sanitizer
of what observer shows (:func:`observer.terminal.sanitize.cells_text`): whatever reaches the
clipboard is text, never an escape sequence or a bidi control of the agent's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from observer.terminal import Cell
from observer.terminal.sanitize import cells_text

Lines = Callable[[int], Sequence[Cell]]
"""The cells of a virtual line (an empty sequence past the end)."""
END = 1 << 30
"""A column past the end of any line."""


@dataclass(frozen=True, slots=True, order=True)
class Point:
    """A cell: its virtual line and column."""

    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Selection:
    """From ``anchor`` (where the drag began) to ``end`` (where it is now), either order."""

    anchor: Point
    end: Point

    @property
    def first(self) -> Point:
        """The earlier end."""
        return min(self.anchor, self.end)

    @property
    def last(self) -> Point:
        """The later end (included)."""
        return max(self.anchor, self.end)

    @property
    def lines(self) -> range:
        """The virtual lines it touches."""
        return range(self.first.line, self.last.line + 1)

    def span(self, line: int) -> tuple[int, int] | None:
        """The ``(start, stop)`` columns selected on ``line`` (stop excluded; None: none).

        A line between the ends is selected to its end, whatever its width: ``stop`` is then
        :data:`END`.
        """
        first, last = self.first, self.last
        if not first.line <= line <= last.line:
            return None
        start = first.column if line == first.line else 0
        stop = last.column + 1 if line == last.line else END
        return start, stop

    def text(self, cells_of: Lines) -> str:
        """The selected text, one line per virtual line, trailing blanks dropped."""
        parts = []
        for line in self.lines:
            cells = cells_of(line)
            start, stop = self.span(line) or (0, 0)
            # A wide character is a cell and its empty stub: starting on the stub takes it whole.
            while 0 < start < len(cells) and cells[start].data == "":
                start -= 1
            parts.append(cells_text(cells[start:stop]).rstrip())
        return "\n".join(parts)


def line_text(cells_of: Lines, lines: range) -> str:
    """Whole lines as text (the screen, or the scrollback), trailing blanks dropped."""
    if not lines:
        return ""
    whole = Selection(Point(lines.start, 0), Point(lines.stop - 1, END - 1))
    return whole.text(cells_of).rstrip("\n")
