"""``OneLine``: a line of text that never wraps; a widget too narrow for it ends it in ``…``.

Textual's ``Static`` word-wraps a Rich ``Text`` to its width whatever the text's ``no_wrap`` and
``overflow`` say, so a one-line title or status whose end does not fit pushes its start onto a
second row that a one-row widget never shows: a tile showed ``4  delta  closed:`` and then
nothing, and at 20 columns only its number. Every one-line widget cuts its text here instead,
with the most important part first, so what is cut is the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.widget import Widget


def fit_line(text: Text, width: int) -> Text:
    """A copy of ``text`` cut to ``width`` cells, its last visible cell ``…`` when it was cut."""
    if width <= 0:
        return Text(end="")  # Rich leaves a text whole when asked for no width at all
    line = text.copy()
    line.no_wrap, line.overflow, line.end = True, "ellipsis", ""
    line.truncate(width, overflow="ellipsis")
    return line


@dataclass(frozen=True, slots=True)
class Part:
    """A piece of a line that :func:`fit_parts` may cut or leave out.

    Attributes:
        text: The piece, with its own separator in front.
        rank: Its place in what a too narrow line keeps: rank 0 first (always), then 1, 2...
            A part with a ``shortest`` gets the cells beyond it at this rank.
        shortest: Cells the piece may be cut to (ending in ``…``); 0: whole or not at all.
        least: The rank at which a part with a ``shortest`` gets those cells (None: at 0).
        after: The index of a part of a lower rank that this one goes with: left out with it.
    """

    text: Text
    rank: int
    shortest: int = 0
    least: int | None = None
    after: int | None = None


def fit_parts(parts: Sequence[Part], width: int) -> Text:
    """The parts in their order, fitted to ``width`` cells: the cells go to the parts by rank
    (a part that does not fit is left out, one that may be cut is cut), a line that left a part
    out has ``…`` in its last column, and one whose rank-0 parts are too wide for it is cut at its end
    (:func:`fit_line`)."""
    if sum(part.text.cell_len for part in parts) <= width:
        return fit_line(Text("", end="").join(part.text for part in parts), width)
    kept = _cells(parts, width - 2)
    texts = [
        part.text if size == part.text.cell_len else fit_line(part.text, size)
        for part, size in zip(parts, kept, strict=True)
    ]
    line = Text("", end="").join(texts)
    if any(size == 0 for size in kept) and not line.plain.endswith("…"):
        line.append(" " * max(1, width - line.cell_len - 1) + "…")  # in the last column
    return fit_line(line, width)


def _cells(parts: Sequence[Part], width: int) -> list[int]:
    """How many cells each part gets (see :func:`fit_parts`)."""
    steps: list[tuple[int, int, bool]] = []  # (rank, part, its least cells only)
    for index, part in enumerate(parts):
        if part.shortest:
            steps.append((part.least or 0, index, True))
        steps.append((part.rank, index, False))
    kept = [0] * len(parts)
    left = width
    for rank, index, least in sorted(steps):
        after = parts[index].after
        if after is not None and not kept[after]:
            continue
        full = parts[index].text.cell_len
        if least:
            size = min(parts[index].shortest, full)
        elif parts[index].shortest:
            size = kept[index] and min(full, kept[index] + left)  # more cells, if it has some
        else:
            size = full if full <= left or rank == 0 else 0
        if size > kept[index] and (size - kept[index] <= left or rank == 0):
            left -= size - kept[index]
            kept[index] = size
    return kept


class OneLine(Widget):
    """One row of text, cut with ``…`` to the widget's width (re-cut when the width changes)."""

    DEFAULT_CSS = """
    OneLine {
        height: 1;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._text = Text()

    @property
    def text(self) -> Text:
        """The whole line, before it is cut to the width."""
        return self._text

    def update(self, text: Text, *, layout: bool = False) -> None:
        """Show ``text`` (a layout pass only when asked: the line's size does not change)."""
        self._text = text
        self.refresh(layout=layout)

    def render(self) -> Text:
        return fit_line(self._text, self.size.width)
