"""``OneLine``: a line of text that never wraps; a widget too narrow for it ends it in ``…``.

Textual's ``Static`` word-wraps a Rich ``Text`` to its width whatever the text's ``no_wrap`` and
``overflow`` say, so a one-line title or status whose end does not fit pushes its start onto a
second row that a one-row widget never shows: a tile showed ``4  delta  closed:`` and then
nothing, and at 20 columns only its number. Every one-line widget cuts its text here instead,
with the most important part first, so what is cut is the end.
"""

from __future__ import annotations

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
