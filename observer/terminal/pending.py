"""Scrollback rows kept as text until someone reads them (see :mod:`observer.terminal.logged`).

A log's lines that scroll off before a feed ends are not drawn: the scrollback holds a
:class:`Pending` row for each, and the rows of a :class:`Block` of them are built together the
first time one is read. Whoever reads the scrollback's rows takes them through :func:`built`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from observer.terminal.cells import Cell, Line


class Block:
    """Lines of a log that scrolled off unseen: their text, and what their rows are built of.

    Args:
        lines: the lines, without their ``CR LF``.
        pen: the pen the first one starts in.
        bases: the rows the first lines were drawn on (rows of the screen then, as they
            were); the others are drawn on blank rows of the pen the line feed before met.
        columns: the screen's width then.
    """

    __slots__ = ("_rows", "bases", "columns", "lines", "pen")

    def __init__(
        self, lines: Sequence[str], pen: Cell, bases: Sequence[Line], columns: int
    ) -> None:
        self.lines, self.pen, self.bases, self.columns = lines, pen, bases, columns
        self._rows: list[Line] | None = None

    def rows(self, build: Callable[[Block], list[Line]]) -> list[Line]:
        """The rows, built the first time they are asked for (by whichever screen reads them
        first: a snapshot's rows may be read by another model's)."""
        if self._rows is None:
            self._rows = build(self)
            self.lines = self.bases = ()  # no longer needed
        return self._rows


class Pending:
    """A row of the scrollback not built yet: line ``index`` of ``block``."""

    __slots__ = ("block", "index")

    def __init__(self, block: Block, index: int) -> None:
        self.block, self.index = block, index
