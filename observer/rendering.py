"""Terminal cells to Rich segments, coloured by a theme's terminal palette.

Shared by the app's ``TerminalView`` and ``observer render --format svg`` so both draw a screen the
same way. The API is small and stable:

- :class:`Palette`: the terminal's foreground, background, cursor and 16 ANSI colours;
- :func:`cells_to_segments`: one row of cells to a list of :class:`rich.segment.Segment`;
- :func:`screen_to_text`: a whole screen as one :class:`rich.text.Text` (for ``Console.export_svg``);
- :func:`sanitize`: make untrusted text safe to print (no control characters reach a terminal).

Styles are cached per palette in a bounded cache: a truecolour-heavy screen creates thousands of
distinct styles, and an unbounded cache grows without limit over a long session.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Protocol

from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from observer.themes import TerminalColours

#: pyte's colour names (it calls yellow "brown") and the spec's ones, to palette indexes.
_NAMED: dict[str, int] = {}
for _index, _name in enumerate(
    ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white")
):
    _NAMED[_name] = _index
    _NAMED[f"bright{_name}"] = _index + 8
_NAMED["brown"] = 3
_NAMED["brightbrown"] = 11

# C0 controls, DEL and C1 controls: never written to the host terminal (ECMA-48 section 5).
_UNSAFE = {code: "\ufffd" for code in (*range(0x00, 0x20), *range(0x7F, 0xA0))}
_SAFE_TABLE = str.maketrans(_UNSAFE)

STYLE_CACHE_SIZE = 4096
PALETTE_CACHE_SIZE = 8


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


class ScreenLike(Protocol):
    """What :func:`screen_to_text` reads from a terminal model."""

    @property
    def rows(self) -> int: ...
    @property
    def cursor_x(self) -> int: ...
    @property
    def cursor_y(self) -> int: ...
    @property
    def cursor_visible(self) -> bool: ...
    def line(self, y: int) -> Sequence[CellLike]: ...


@dataclass(frozen=True, slots=True)
class Palette:
    """The remote terminal's colours as ``#rrggbb`` strings."""

    foreground: str = "#CCCCCC"
    background: str = "#121212"
    cursor: str = "#FFFFFF"
    ansi: tuple[str, ...] = (
        "#000000",
        "#CD3131",
        "#0DBC79",
        "#E5E510",
        "#2472C8",
        "#BC3FBC",
        "#11A8CD",
        "#E5E5E5",
        "#666666",
        "#F14C4C",
        "#23D18B",
        "#F5F543",
        "#3B8EEA",
        "#D670D6",
        "#29B8DB",
        "#E5E5E5",
    )

    @classmethod
    def from_colours(cls, colours: TerminalColours) -> Palette:
        """The palette of a theme's ``[terminal]`` table."""
        return cls(colours.foreground, colours.background, colours.cursor, tuple(colours.ansi))

    def resolve(self, colour: str, default: str) -> str:
        """``#rrggbb`` for a model colour: ``default``, a palette name, or ``rrggbb`` hex."""
        if colour == "default" or not colour:
            return default
        index = _NAMED.get(colour)
        if index is not None:
            return self.ansi[index]
        if len(colour) == 6:
            return f"#{colour}"
        return default


StyleKey = tuple[str, str, bool, bool, bool, bool, bool, bool, bool]


class StyleCache:
    """A bounded cache of Rich styles for one palette (the oldest made goes first)."""

    def __init__(self, palette: Palette, size: int = STYLE_CACHE_SIZE) -> None:
        self.palette = palette
        self.size = size
        self._styles: OrderedDict[StyleKey, Style] = OrderedDict()

    def __len__(self) -> int:
        return len(self._styles)

    def get(self, key: StyleKey) -> Style:
        """The style for ``(fg, bg, bold, dim, italic, underline, strike, reverse, cursor)``."""
        style = self._styles.get(key)
        if style is not None:
            return style  # found: kept where it is (FIFO order), a lookup per segment stays cheap
        style = self._make(key)
        self._styles[key] = style
        if len(self._styles) > self.size:
            self._styles.popitem(last=False)
        return style

    def _make(self, key: StyleKey) -> Style:
        fg, bg, bold, dim, italic, underline, strike, reverse, cursor = key
        palette = self.palette
        fore = palette.resolve(fg, palette.foreground)
        back = palette.resolve(bg, palette.background)
        if reverse:
            # SGR 7 swaps the resolved colours, defaults included (xterm ctlseqs, "Inverse").
            fore, back = back, fore
        if cursor:
            fore, back = palette.background, palette.cursor
        return Style(
            color=Color.parse(fore),
            bgcolor=Color.parse(back),
            bold=bold or None,
            dim=dim or None,
            italic=italic or None,
            underline=underline or None,
            strike=strike or None,
        )


_caches: OrderedDict[Palette, StyleCache] = OrderedDict()


def style_cache(palette: Palette) -> StyleCache:
    """The shared style cache of ``palette`` (a few palettes are kept, least recently used go)."""
    cache = _caches.get(palette)
    if cache is None:
        cache = _caches[palette] = StyleCache(palette)
        if len(_caches) > PALETTE_CACHE_SIZE:
            _caches.popitem(last=False)
    else:
        _caches.move_to_end(palette)
    return cache


def sanitize(text: str) -> str:
    """Replace control characters (C0, DEL, C1) with U+FFFD so text cannot drive a terminal."""
    return text.translate(_SAFE_TABLE)


def cells_to_segments(
    cells: Sequence[CellLike], palette: Palette, cursor_x: int | None = None
) -> list[Segment]:
    """Convert one row of cells to segments, merging runs of equal style.

    Args:
        cells: The row, as the model returns it (a wide character is followed by a cell whose
            ``data`` is ``""``, which is skipped: the wide character already covers two columns).
        palette: The terminal colours.
        cursor_x: Column of a visible cursor on this row, or ``None``.

    Returns:
        Segments whose total cell length is the row's width.
    """
    cache = style_cache(palette)
    segments: list[Segment] = []
    if not cells:
        return segments
    # pyte's cells have no ``dim``: a failed attribute lookup per cell costs more than the rest
    # of the loop, so look once per row.
    has_dim = hasattr(cells[0], "dim")
    attributes = _ATTRIBUTES if isinstance(cells[0], tuple) else _attributes
    if cursor_x is not None and 0 <= cursor_x < len(cells):
        parts = [(cells[:cursor_x], False), (cells[cursor_x : cursor_x + 1], True)]
        parts.append((cells[cursor_x + 1 :], False))
    else:
        parts = [(cells, False)]
    # Cells whose attributes (all but the text) are equal share a segment: groupby compares
    # them in C, and a style key is made per run, not per cell.
    for part, cursor in parts:
        for _, run in groupby(part, attributes):
            group = list(run)
            # A wide character's stub cell has the text "": joined, it adds nothing.
            text = "".join([cell.data for cell in group])
            if not text:
                continue
            first = group[0]
            key: StyleKey = (
                first.fg,
                first.bg,
                first.bold,
                bool(getattr(first, "dim", False)) if has_dim else False,
                first.italics,
                first.underscore,
                first.strikethrough,
                first.reverse,
                cursor,
            )
            segments.append(Segment(text.translate(_SAFE_TABLE), cache.get(key)))
    return segments


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
    )


_ATTRIBUTES: Callable[[CellLike], tuple[object, ...]] = itemgetter(slice(1, None))  # type: ignore[assignment]


def screen_to_text(screen: ScreenLike, palette: Palette, *, show_cursor: bool = True) -> Text:
    """The whole visible screen as one ``Text`` (rows joined by newlines), e.g. for SVG export."""
    text = Text(no_wrap=True, end="")
    for y in range(screen.rows):
        cursor = (
            screen.cursor_x
            if show_cursor and screen.cursor_visible and y == screen.cursor_y
            else None
        )
        if y:
            text.append("\n")
        for segment in cells_to_segments(screen.line(y), palette, cursor):
            text.append(segment.text, segment.style)
    return text
