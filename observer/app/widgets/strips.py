"""What a terminal view draws over a row of the remote screen: its place, a selection, edge marks.

Pure functions of Textual strips (no widget): the row is placed in the view (cropped at the
window's first column, or centred), a selection is drawn over the columns it covers, and a row
that continues past a cropped edge gets a mark there, as vim marks a line that does not fit
(``listchars`` ``extends``/``precedes``): ``‹`` in the first column, ``›`` in the last.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter
from textual.strip import Strip

from observer.client.recording_policy import RESET
from observer.render.rich_cells import (
    Mark,
    Palette,
    glyph_span,
    glyphs_to_segments,
    pen_style,
    style_cache,
)
from observer.terminal import Cell, TerminalModel

_SGR_SPLIT = re.compile(r"(\x1b\[[0-9;:]*m)")
_RESETS = ("\x1b[0;", "\x1b[0m", "\x1b[m")

ROW_CACHES = 1024
"""Entries each parser cache of :class:`TextRows`' model keeps (every tile's rows pass there)."""

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


class TextRows:
    """Rows drawn from their repaint (SGR and text, as the screen view's frames carry them)
    rather than from a model, as :func:`screen_row` draws the same row fed to a model.

    A row of characters one column wide (as the emulator judges them) and SGRs is cut into
    runs at its SGRs, each run's pen found once per distinct run of SGRs (fed to a scratch
    model, so a pen is what the emulator makes of them): no cell is made. Any other row is fed
    to the scratch model whole and drawn from there. The strips are kept by text, shared by
    every tile.

    Args:
        limit: strips (and pens) kept at most (forgotten all at once past it).
    """

    def __init__(self, limit: int = 1024) -> None:
        self._limit = limit
        self._strips: dict[tuple[object, ...], Strip] = {}
        self._pens: dict[str, Cell] = {}
        self._model = TerminalModel(1, 1, 0, ROW_CACHES)

    def clear(self) -> None:
        """Forget every strip (the palette changed)."""
        self._strips.clear()

    def strip(
        self,
        text: str,
        cols: int,
        palette: Palette,
        *,
        cursor: int | None,
        left: int,
        width: int,
        blank: Style,
    ) -> Strip:
        """The row ``text`` of a screen ``cols`` wide as :func:`screen_row` draws it."""
        key = (text, cols, cursor, left, width, blank)
        strips = self._strips
        kept = strips.get(key)
        if kept is not None:
            return kept
        if len(strips) >= self._limit:
            strips.clear()
        segments = self._plain(text, cols, palette, cursor=cursor, left=left, width=width)
        if segments is not None:
            start = max(0, min(left, cols))
            length = min(cols, left + width) - start if left >= 0 else cols
            strip = placed(Strip(segments, length), left - start, width, blank)
        else:
            model = self._fed(text.encode("utf-8", "surrogatepass"), cols)
            strip = screen_row(
                model, 0, palette, cursor=cursor, left=left, width=width, blank=blank
            )
        strips[key] = strip
        return strip

    def _fed(self, data: bytes, cols: int | None = None) -> TerminalModel:
        """The scratch model, ``cols`` wide (``None``: as it is), fed ``data`` afresh (a
        sequence left open cut off, every mode reset: nothing one row sets reaches the next)."""
        model = self._model
        if cols is not None and model.cols != cols:
            model = self._model = TerminalModel(cols, 1, 0, ROW_CACHES)
        model.feed(RESET + data)
        model.take_notifications()
        return model

    def _pen(self, sgrs: str) -> Cell:
        """The pen ``sgrs`` set from the default one (the emulator's reading of them)."""
        pen = self._pens.get(sgrs)
        if pen is None:
            if len(self._pens) >= self._limit:
                self._pens.clear()
            pen = self._pens[sgrs] = self._fed(sgrs.encode() + b"X").glyphs(0)[0][1]
        return pen

    def _plain(
        self, text: str, cols: int, palette: Palette, *, cursor: int | None, left: int, width: int
    ) -> list[Segment] | None:
        """The segments of columns ``left`` to ``left + width`` of a row of characters one
        column wide and SGRs (``None``: the row holds something else), as
        :func:`glyphs_to_segments` makes them from the model's row: the cursor's cell marked,
        the blank after the text in the default pen."""
        start = max(0, min(left, cols))
        end = min(cols, left + width) if left >= 0 else cols
        runs: list[tuple[str, Cell]] = []
        pen, sgrs, x = self._pen(""), "", 0
        for index, piece in enumerate(_SGR_SPLIT.split(text)):
            if index % 2:  # an SGR: a reset starts the pen afresh, else it changes the last
                sgrs = piece if piece.startswith(_RESETS) else sgrs + piece
                pen = self._pen(sgrs)
            elif piece:
                plain = piece.isascii() and piece.isprintable()
                if not (plain or self._model.all_narrow(piece)):
                    return None  # a control, an escape other than an SGR, a wide character
                if x < end:
                    runs.append((piece, pen))
                x += len(piece)
        if x > cols:
            return None  # longer than the row: the model wraps or drops it
        if x < end:
            runs.append((" " * (end - x), self._pen("")))
        segments: list[Segment] = []
        styles = style_cache(palette)
        at = 0
        for piece, own in runs:  # the columns shown, the cursor's cell on its own
            low, high = max(start, at), min(end, at + len(piece))
            if low < high:
                part = piece[low - at : high - at]
                if cursor is not None and low <= cursor < high:
                    cut = cursor - low
                    if cut:
                        segments.append(Segment(part[:cut], pen_style(styles, own)))
                    segments.append(Segment(part[cut], pen_style(styles, own, Mark.CURSOR)))
                    if cut + 1 < len(part):
                        segments.append(Segment(part[cut + 1 :], pen_style(styles, own)))
                else:
                    segments.append(Segment(part, pen_style(styles, own)))
            at += len(piece)
            if at >= end:
                break
        return segments


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
