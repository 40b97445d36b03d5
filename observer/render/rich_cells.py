"""Terminal cells to Rich: the one renderer of a screen.

The app's ``TerminalView`` (live, tile and replay) draws each row with :func:`cells_to_segments`;
``observer render --format svg|ansi`` draws the whole screen with the same function and hands it to
Rich's ``Console`` (:mod:`observer.commands._screen_output`). So both show the same attributes,
the same cursor and the same safety rule (every cell's text through
:func:`observer.terminal.sanitize.sanitize_cell`).

Colours come in two modes:

- with a :class:`Palette` (the app): the theme's exact colours, so palette colours follow the
  app's theme and a theme change redraws them;
- without one (``palette=None``: SVG and ANSI output): palette colours 0–15 stay palette colours
  (Rich's standard colours), resolved by whoever shows them — the SVG's terminal theme, or the
  user's own terminal for ANSI; the cursor is an inverted cell.

Styles are cached per palette in a bounded cache: a truecolour-heavy screen creates thousands of
distinct styles, and an unbounded cache grows without limit over a long session.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import groupby
from operator import attrgetter, itemgetter
from typing import Protocol, TypeVar

from rich.color import Color
from rich.segment import Segment
from rich.style import Style

from observer.terminal import COLOUR_NAMES, Cell
from observer.terminal.colours import is_hex_colour
from observer.terminal.sanitize import sanitize_cell
from observer.themes import TerminalColours

#: The model's colour names (pyte calls yellow "brown"; pyte's own cells may say "yellow").
_INDEX: dict[str, int] = {name: index for index, name in enumerate(COLOUR_NAMES)}
_INDEX.update(yellow=3, brightyellow=11)
MATCH_COLOUR = 11
"""Palette colour behind highlighted search matches (bright yellow), under the background's."""

STYLE_CACHE_SIZE = 4096
PALETTE_CACHE_SIZE = 8


class Mark(IntEnum):
    """How a cell is drawn besides its own attributes."""

    NONE = 0
    CURSOR = 1
    MATCH = 2


class CellLike(Protocol):
    """What a cell must offer (``observer.terminal.Cell``: pyte's ``Char`` fields plus ``dim``)."""

    @property
    def data(self) -> str: ...
    @property
    def fg(self) -> str: ...
    @property
    def bg(self) -> str: ...
    @property
    def bold(self) -> bool: ...
    @property
    def italics(self) -> bool: ...
    @property
    def underscore(self) -> bool: ...
    @property
    def strikethrough(self) -> bool: ...
    @property
    def reverse(self) -> bool: ...
    @property
    def blink(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class Palette:
    """The remote terminal's colours as ``#rrggbb`` strings."""

    foreground: str = "#CCCCCC"
    background: str = "#121212"
    cursor: str = "#FFFFFF"
    ansi: tuple[str, ...] = (
        "#000000", "#CD3131", "#0DBC79", "#E5E510", "#2472C8", "#BC3FBC", "#11A8CD", "#E5E5E5",
        "#666666", "#F14C4C", "#23D18B", "#F5F543", "#3B8EEA", "#D670D6", "#29B8DB", "#E5E5E5",
    )  # fmt: skip

    @classmethod
    def from_colours(cls, colours: TerminalColours) -> Palette:
        """The palette of a theme's ``[terminal]`` table."""
        return cls(colours.foreground, colours.background, colours.cursor, tuple(colours.ansi))

    def resolve(self, colour: str, default: str) -> str:
        """``#rrggbb`` for a model colour: ``default``, a palette name, or ``rrggbb`` hex."""
        index = _INDEX.get(colour)
        if index is not None:
            return self.ansi[index]
        if is_hex_colour(colour):
            return f"#{colour}"
        return default


def rich_colour(colour: str) -> Color | None:
    """A model colour as a Rich colour that keeps palette colours as palette colours.

    ``None`` for the terminal's default colour (and for anything unknown).
    """
    index = _INDEX.get(colour)
    if index is not None:
        return Color.from_ansi(index)
    if is_hex_colour(colour):
        return Color.parse(f"#{colour}")
    return None


StyleKey = tuple[str, str, bool, bool, bool, bool, bool, bool, bool, bool, Mark]


class StyleCache:
    """A bounded cache of Rich styles for one palette (the oldest made goes first).

    Args:
        palette: The colours to resolve to, or ``None`` to keep palette colours indexed.
        size: Most styles kept.
    """

    def __init__(self, palette: Palette | None, size: int = STYLE_CACHE_SIZE) -> None:
        self.palette = palette
        self.size = size
        self._styles: OrderedDict[StyleKey, Style] = OrderedDict()

    def __len__(self) -> int:
        return len(self._styles)

    def get(self, key: StyleKey) -> Style:
        """The style for ``(fg, bg, bold, dim, italic, underline, strike, reverse, blink,
        conceal, mark)``."""
        style = self._styles.get(key)
        if style is not None:
            return style  # found: kept where it is (FIFO order), a lookup per segment stays cheap
        style = self._make(key)
        self._styles[key] = style
        if len(self._styles) > self.size:
            self._styles.popitem(last=False)
        return style

    def _make(self, key: StyleKey) -> Style:
        fg, bg, bold, dim, italic, underline, strike, reverse, blink, conceal, mark = key
        fore, back, invert = self._colours(fg, bg, reverse, mark)
        return Style(
            color=fore,
            bgcolor=back,
            bold=bold or None,
            dim=dim or None,  # Rich's SVG export blends a faint colour towards the background
            italic=italic or None,
            underline=underline or None,
            strike=strike or None,
            reverse=invert or None,
            # SGR 5 and 8 reach the host terminal, which blinks or hides the text as it
            # would the program's own (a hidden cell stays selectable where the host allows).
            blink=blink or None,
            conceal=conceal or None,
        )

    def _colours(
        self, fg: str, bg: str, reverse: bool, mark: Mark
    ) -> tuple[Color | None, Color | None, bool]:
        palette = self.palette
        if palette is None:
            if mark is Mark.MATCH:
                return Color.from_ansi(0), Color.from_ansi(MATCH_COLOUR), False
            # The terminal showing it resolves reverse (SGR 7), defaults included.
            return rich_colour(fg), rich_colour(bg), reverse != (mark is Mark.CURSOR)
        fore = palette.resolve(fg, palette.foreground)
        back = palette.resolve(bg, palette.background)
        if reverse:
            # SGR 7 swaps the resolved colours, defaults included (xterm ctlseqs, "Inverse").
            fore, back = back, fore
        if mark is Mark.CURSOR:
            fore, back = palette.background, palette.cursor
        elif mark is Mark.MATCH:
            fore, back = palette.background, palette.ansi[MATCH_COLOUR]
        return Color.parse(fore), Color.parse(back), False


_caches: OrderedDict[Palette | None, StyleCache] = OrderedDict()


def style_cache(palette: Palette | None) -> StyleCache:
    """The shared style cache of ``palette`` (a few palettes are kept, least recently used go)."""
    cache = _caches.get(palette)
    if cache is None:
        cache = _caches[palette] = StyleCache(palette)
        if len(_caches) > PALETTE_CACHE_SIZE:
            _caches.popitem(last=False)
    else:
        _caches.move_to_end(palette)
    return cache


def cells_to_segments(
    cells: Sequence[CellLike],
    palette: Palette | None,
    cursor_x: int | None = None,
    matches: Sequence[tuple[int, int]] = (),
) -> list[Segment]:
    """Convert one row of cells to segments, merging runs of equal style.

    Args:
        cells: The row, as the model returns it (a wide character is followed by a cell whose
            ``data`` is ``""``, which is skipped: the wide character already covers two columns).
        palette: The terminal colours, or ``None`` to keep palette colours indexed.
        cursor_x: Column of a visible cursor on this row, or ``None``.
        matches: ``(start, end)`` column ranges to highlight (search matches).

    Returns:
        Segments whose total cell length is the row's width.
    """
    if not cells:
        return []
    # pyte's cells have no ``dim`` nor ``conceal``: a failed attribute lookup per cell costs
    # more than the rest of the loop, so look once per row.
    ours = hasattr(cells[0], "conceal")
    attributes = _ATTRIBUTES if isinstance(cells[0], tuple) else _attributes

    def key(first: CellLike, mark: Mark) -> StyleKey:
        dim = bool(getattr(first, "dim", False)) if ours else False
        conceal = bool(getattr(first, "conceal", False)) if ours else False
        return (first.fg, first.bg, first.bold, dim, first.italics, first.underscore,
                first.strikethrough, first.reverse, first.blink, conceal, mark)  # fmt: skip

    return _segments(_parts(cells, cursor_x, matches), palette, attributes, _DATA, key)


def glyphs_to_segments(
    glyphs: Sequence[tuple[str, Cell]],
    palette: Palette | None,
    cursor_x: int | None = None,
    matches: Sequence[tuple[int, int]] = (),
) -> list[Segment]:
    """:func:`cells_to_segments` for a row as the model's grid holds it: (text, pen) pairs
    (:meth:`observer.terminal.TerminalModel.glyphs`). Text drawn in one pen shares it, so runs
    are found by the pen and no cell is built."""
    if not glyphs:
        return []
    return _segments(_parts(glyphs, cursor_x, matches), palette, _PEN, _TEXT, _pen_key)


def pen_style(styles: StyleCache, pen: Cell, mark: Mark = Mark.NONE) -> Style:
    """The style a cell drawn in ``pen`` (and ``mark``) gets from :func:`glyphs_to_segments`
    (``styles``: the palette's :func:`style_cache`)."""
    return styles.get(_pen_key(("", pen), mark))


def glyph_span(glyphs: Sequence[tuple[str, Cell]], left: int, width: int) -> tuple[int, int, int]:
    """The glyphs a view ``width`` columns wide from column ``left`` draws, as ``(start, end,
    cells)``: ``glyphs[start:end]`` fill ``cells`` columns from column ``start``. It starts at a
    whole character (a wide one whose second cell is column ``left`` is cut where the view
    crops, as it is cut from the whole row). A view wider than the row (``left < 0``: the row
    after ``-left`` blank columns) draws all of it."""
    cols = len(glyphs)
    if left < 0:
        return 0, cols, cols
    start = min(left, cols)
    while 0 < start < cols and not glyphs[start][0]:  # the second cell of a wide character
        start -= 1
    end = min(cols, left + width)
    return start, end, end - start + (1 if end < cols and not glyphs[end][0] else 0)


def _pen_key(glyph: tuple[str, Cell], mark: Mark) -> StyleKey:
    pen = glyph[1]
    return (pen.fg, pen.bg, pen.bold, pen.dim, pen.italics, pen.underscore, pen.strikethrough,
            pen.reverse, pen.blink, pen.conceal, mark)  # fmt: skip


def _segments(
    parts: Sequence[tuple[Sequence[_Item], Mark]],
    palette: Palette | None,
    attributes: Callable[[_Item], object],
    text_of: Callable[[_Item], str],
    key: Callable[[_Item, Mark], StyleKey],
) -> list[Segment]:
    """Segments of a row cut into marked parts: one per run of items whose ``attributes``
    are equal (``groupby`` compares them in C; a style key is made per run, not per cell)."""
    cache = style_cache(palette)
    segments: list[Segment] = []
    for part, mark in parts:
        for _, run in groupby(part, attributes):
            group = list(run)
            # A wide character's stub cell has the text "": joined, it adds nothing.
            text = "".join(map(text_of, group))
            if not text:
                continue
            if not text.isprintable():  # rare: a control, a bidi control, a no-break space...
                text = "".join([sanitize_cell(data) for data in map(text_of, group)])
            segments.append(Segment(text, cache.get(key(group[0], mark))))
    return segments


_Item = TypeVar("_Item")


def _parts(
    cells: Sequence[_Item], cursor_x: int | None, matches: Sequence[tuple[int, int]]
) -> list[tuple[Sequence[_Item], Mark]]:
    """The row cut where marks begin and end (the cursor wins over a match)."""
    if not matches:
        if cursor_x is None or not 0 <= cursor_x < len(cells):
            return [(cells, Mark.NONE)]
        return [
            (cells[:cursor_x], Mark.NONE),
            (cells[cursor_x : cursor_x + 1], Mark.CURSOR),
            (cells[cursor_x + 1 :], Mark.NONE),
        ]
    marks = [Mark.NONE] * len(cells)
    for start, end in matches:
        marks[max(0, start) : max(0, end)] = [Mark.MATCH] * (min(end, len(cells)) - max(0, start))
    if cursor_x is not None and 0 <= cursor_x < len(cells):
        marks[cursor_x] = Mark.CURSOR
    parts: list[tuple[Sequence[_Item], Mark]] = []
    x = 0
    for mark, run in groupby(marks):
        width = len(list(run))
        parts.append((cells[x : x + width], mark))
        x += width
    return parts


def _attributes(cell: CellLike) -> tuple[object, ...]:
    return (
        cell.fg,
        cell.bg,
        cell.bold,
        getattr(cell, "dim", False),
        cell.italics,
        cell.underscore,
        cell.strikethrough,
        cell.reverse,
        cell.blink,
        getattr(cell, "conceal", False),
    )


_ATTRIBUTES: Callable[[CellLike], tuple[object, ...]] = itemgetter(slice(1, None))  # type: ignore[assignment]
_DATA: Callable[[CellLike], str] = attrgetter("data")
_TEXT: Callable[[tuple[str, Cell]], str] = itemgetter(0)
_PEN: Callable[[tuple[str, Cell]], Cell] = itemgetter(1)
