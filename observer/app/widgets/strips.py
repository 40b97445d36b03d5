"""What a terminal view draws over a row of the remote screen: its place, a selection, edge marks.

Pure functions of Textual strips (no widget): the row is placed in the view (cropped at the
window's first column, or centred), a selection is drawn over the columns it covers, and a row
that continues past a cropped edge gets a mark there, as vim marks a line that does not fit
(``listchars`` ``extends``/``precedes``): ``‹`` in the first column, ``›`` in the last.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter
from textual.strip import Strip

from observer.render.rich_cells import Palette, glyph_span, glyphs_to_segments
from observer.terminal import Cell, TerminalModel

MORE_LEFT = "‹"
MORE_RIGHT = "›"


def placed(strip: Strip, left: int, width: int, blank: Style) -> Strip:
    """``strip`` as the view shows it: from column ``left``, or after ``-left`` blank columns."""
    if left >= 0:
        return strip.crop(left, left + width)
    pad = -left
    rest = max(0, width - pad - strip.cell_length)
    return Strip.join([Strip.blank(pad, blank), strip, Strip.blank(rest, blank)])


def screen_row(
    model: TerminalModel,
    row: int,
    palette: Palette,
    *,
    cursor: int | None,
    left: int,
    width: int,
    blank: Style,
    matches: Sequence[tuple[int, int]] = (),
) -> Strip:
    """Screen row ``row`` of ``model`` as a view ``width`` columns wide from column ``left``
    shows it (:func:`placed`), with the cursor at column ``cursor`` and search ``matches``.

    Only the columns shown are made into segments (a tile shows a corner of its agent's
    screen): making the whole row's and cutting them cost as much again at each version.
    """
    glyphs = model.glyphs(row)
    start, end, length = glyph_span(glyphs, left, width)
    if start:
        cursor = None if cursor is None else cursor - start
        matches = tuple((first - start, last - start) for first, last in matches)
    segments = glyphs_to_segments(glyphs[start:end], palette, cursor, matches)
    return placed(Strip(segments, length), left - start, width, blank)


def overlaid(strip: Strip, start: int, stop: int, style: Style) -> Strip:
    """``strip`` with columns ``start`` to ``stop`` (excluded) drawn in ``style`` over their own."""
    start, stop = max(0, start), min(strip.cell_length, stop)
    if start >= stop:
        return strip
    before, middle, after = strip.divide([start, stop, strip.cell_length])
    over = Strip(
        [Segment(text, (own + style) if own else style, None) for text, own, _ in middle],
        middle.cell_length,
    )
    return Strip.join([before, over, after])


def hidden_sides(cells: Sequence[Cell], left: int, width: int) -> tuple[bool, bool]:
    """Whether the row has text left of column ``left``, and right of the ``width`` shown."""
    if left < 0:
        return False, False
    before = any(cell.data.strip() for cell in cells[:left])
    after = any(cell.data.strip() for cell in cells[left + width :])
    return before, after


def marked(strip: Strip, sides: tuple[bool, bool], style: Style, keep: int | None) -> Strip:
    """``strip`` with a mark on each edge in ``sides`` (left, right), except on column ``keep``
    (the cursor's: it is more use than the mark)."""
    width = strip.cell_length
    for hidden, column, mark in ((sides[0], 0, MORE_LEFT), (sides[1], width - 1, MORE_RIGHT)):
        if hidden and column != keep and width > 1:
            before, _, after = strip.divide([column, column + 1, width])
            strip = Strip.join([before, Strip([Segment(mark, style)], 1), after])
    return strip


def bar(text: str, width: int, style: Style) -> Strip:
    """A row of ``text`` centred across the view."""
    return Strip([Segment(text.center(width)[:width], style)], width)


def filtered(strip: Strip, filters: Sequence[LineFilter], background: Color | None) -> Strip:
    """``strip`` through ``filters``, as ``Strip.apply_filter`` without keeping the result in
    ``strip``'s caches (a view keeps the filtered strip, not the one it was made from: Textual
    keeps every strip derived from another in caches on that one)."""
    for line_filter in filters:
        assert background is not None
        strip = Strip(line_filter.apply(list(strip), background), strip.cell_length)
    return strip


class StyleFilters:
    """:func:`filtered` with each style filtered once: a line filter changes each segment by
    its style alone (Textual's filters map ``Segment(text, style)`` to ``Segment(text,
    f(style))``), so a style's result is kept, and a segment whose style the filters keep is
    kept as it is (a strip they change nowhere is returned itself).

    Args:
        limit: styles kept at most (they are forgotten all at once past it).
    """

    def __init__(self, limit: int = 4096) -> None:
        self._limit = limit
        self._key: tuple[object, ...] = ()
        self._styles: dict[Style | None, Style | None] = {}

    def apply(self, strip: Strip, filters: Sequence[LineFilter], background: Color | None) -> Strip:
        """``strip`` through ``filters`` (:func:`filtered`)."""
        if not filters:
            return strip
        styles = self._styles
        if self._key != (filters, background) or len(styles) > self._limit:
            self._key = (filters, background)
            styles.clear()
        segments: list[Segment] | None = None
        for i, (text, style, control) in enumerate(strip):
            if control is not None:
                return filtered(strip, filters, background)
            if style in styles:
                new = styles[style]
            else:
                one = filtered(Strip([Segment(" ", style)], 1), filters, background)
                new = styles[style] = next(iter(one)).style
            if new is not style:
                if segments is None:
                    segments = list(strip)
                segments[i] = Segment(text, new)
        return strip if segments is None else Strip(segments, strip.cell_length)
