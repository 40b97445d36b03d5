"""ANSI repaint: a byte-for-byte recipe that rebuilds a screen in a fresh model.

The server sends it to late joiners and the player uses it for keyframes, so everything a
later byte could depend on is restored: cells, pen, cursor (including a pending wrap),
saved cursors, the alternate screen, margins, tab stops, modes, character sets and title.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from pyte import charsets as cs
from pyte import modes as mo

from observer.terminal.cells import (
    ERASED,
    PAD,
    Cell,
    Glyph,
    Grid,
    SavedCursor,
    WrappedLine,
    blank_grid,
    fit,
    is_wide,
)
from observer.terminal.colours import hex_rgb
from observer.terminal.links import Link
from observer.terminal.screen import VTScreen
from observer.terminal.sgr import COLOUR_NAMES


def _colour(value: str, base: int) -> list[str]:
    """SGR codes for a colour; ``base`` is 30 (foreground) or 40 (background)."""
    if value in COLOUR_NAMES:
        i = COLOUR_NAMES.index(value)
        return [str(base + i if i < 8 else base + 60 + i - 8)]
    rgb = hex_rgb(value)
    if rgb is not None:
        return [str(base + 8), "2", *map(str, rgb)]
    return []


@lru_cache(maxsize=1024)
def sgr(cell: Cell) -> str:
    """The SGR sequence that sets exactly the attributes of ``cell`` (its text is ignored)."""
    codes = ["0"]
    flags = (cell.bold, cell.dim, cell.italics, cell.underscore, cell.blink, cell.reverse)
    codes += [code for code, on in zip("123457", flags, strict=True) if on]
    if cell.conceal:
        codes.append("8")
    if cell.strikethrough:
        codes.append("9")
    codes += _colour(cell.fg, 30) + _colour(cell.bg, 40)
    return "\x1b[" + ";".join(codes) + "m"


def hyperlink(link: Link | None) -> str:
    """The OSC 8 that opens ``link`` (``None``: closes the link open)."""
    if link is None:
        return "\x1b]8;;\x1b\\"
    params = f"id={link.id}" if link.id else ""
    return f"\x1b]8;{params};{link.uri}\x1b\\"


def _paint(out: list[str], grid: Grid, columns: int) -> None:
    """Paint every row; a row that wraps onto the next is written to its last column and the
    next row goes on from the wrap, so the fresh model marks it wrapped too (BS, resizing
    and re-wrapping depend on it). A link open at the end is closed."""
    pen: Cell | None = None
    link: Link | None = None
    continued = False  # this row goes on from the wrap of the row above
    for y, cells in enumerate(grid):
        wraps = type(cells) is WrappedLine and y + 1 < len(grid)
        last = columns
        if wraps:
            if cells[-1] is PAD and is_wide(grid[y + 1][0][0]):
                last -= 1  # the wide character that did not fit wraps again by itself
        else:
            while last and cells[last - 1] == ERASED:
                last -= 1
            if continued:
                last = max(last, 1)  # a character must follow the wrap for it to happen
        if not last:
            continue
        if not continued:
            out.append(f"\x1b[{y + 1}H")
        continued = wraps
        pen, link = _paint_cells(out, cells, last, columns, pen, link=link)
    if link is not None:
        out.append(hyperlink(None))


def paint_row(out: list[str], cells: Sequence[Cell], columns: int, pen: Cell | None) -> Cell | None:
    """Append one row's SGR and text to ``out``, trailing blanks left out; return the pen.

    ``pen`` is the attributes in force before (``None``: unknown, the first cell sets them).
    Used for the rows of screen-sync frames (:mod:`observer.server.screen_sync`), each painted
    on its own from its first column.
    """
    glyphs = [(cell.data, cell) for cell in cells]  # a cell as its own pen: its text unused
    return paint_glyphs(out, glyphs, columns, pen)


def paint_glyphs(
    out: list[str], glyphs: Sequence[Glyph], columns: int, pen: Cell | None
) -> Cell | None:
    """:func:`paint_row` of a row as the grid holds it (:meth:`TerminalModel.glyphs`): no
    cell is built."""
    last = columns
    while last and glyphs[last - 1] == ERASED:
        last -= 1
    pen, link = _paint_cells(out, glyphs, last, columns, pen, link=None)
    if link is not None:
        out.append(hyperlink(None))
    return pen


def _paint_cells(
    out: list[str],
    cells: Sequence[Glyph],
    last: int,
    columns: int,
    pen: Cell | None,
    *,
    link: Link | None,
) -> tuple[Cell | None, Link | None]:
    """The cells before ``last``; a wide character's second cell (``""``) takes no text.
    ``pen`` and ``link`` are in force before; returns those in force after."""
    x = 0
    drawn: Cell | None = None  # the glyphs' pen met last (runs of glyphs share one)
    while x < last:
        text, own = cells[x]
        if own is not drawn:
            drawn = own
            if own.link != link:
                link = own.link
                out.append(hyperlink(link))
            attrs = own._replace(data=" ", link=None)
            if attrs != pen:
                out.append(sgr(attrs))
                pen = attrs
        out.append(text or " ")
        wide = is_wide(text) and x + 1 < columns and cells[x + 1][0] == ""
        x += 2 if wide else 1
    return pen, link


def _charsets(g0: str, g1: str, shifted: int) -> str:
    def code(charset: str) -> str:
        return "0" if charset is cs.VT100_MAP else "B"

    return f"\x1b({code(g0)}\x1b){code(g1)}" + ("\x0e" if shifted else "\x0f")


def _goto(out: list[str], grid: Grid, columns: int, x: int, y: int, *, row: int) -> None:
    """Move to column ``x`` of grid row ``y`` (``row`` is its CUP row number)."""
    y = min(max(y, 0), len(grid) - 1)  # a cursor saved before the screen shrank
    if x < columns:
        out.append(f"\x1b[{row};{max(x, 0) + 1}H")
        return
    # A pending wrap: redraw the last character so the cursor sits just past it.
    cells = grid[y]
    col = columns - 1
    if cells[col][0] == "" and col > 0:
        col -= 1
    data, pen = cells[col]
    text = f"\x1b[{row};{col + 1}H" + sgr(pen._replace(link=None)) + (data or " ")
    out.append(text if pen.link is None else hyperlink(pen.link) + text + hyperlink(None))


def _savepoint(out: list[str], saved: SavedCursor, grid: Grid, columns: int, save: str) -> None:
    """Put the cursor, pen, link, character sets and origin mode where ``saved`` has them,
    then save them with ``save`` (DECSC or DECSET 1049). No margins are set yet, so the
    cursor is placed the same with origin mode on; origin mode is then turned off again, and
    the link closed."""
    if saved.origin:
        out.append("\x1b[?6h")
    y = min(saved.cursor.y, len(grid) - 1)
    _goto(out, grid, columns, saved.cursor.x, y, row=y + 1)
    out.append(sgr(saved.cursor.attrs))
    out.append(_charsets(saved.g0_charset, saved.g1_charset, saved.charset))
    if saved.link is not None:
        out.append(hyperlink(saved.link))
    out.append(save)
    if saved.link is not None:
        out.append(hyperlink(None))
    if saved.origin:
        out.append("\x1b[?6l")


_NEUTRAL = "\x1b(B\x1b)B\x0f\x1b[0m"


def _place_cursor(out: list[str], screen: VTScreen) -> None:
    """Set the margins and origin mode and put the cursor where it is. In origin mode the
    cursor can be above the region (DECSTBM homes it to the screen's corner, as in tmux):
    it then gets there from that corner with relative moves."""
    margins, origin = screen.margins, mo.DECOM in screen.mode
    x, y = screen.cursor.x, screen.cursor.y
    region = f"\x1b[{margins.top + 1};{margins.bottom + 1}r" if margins is not None else ""
    if origin and margins is not None and y < margins.top:
        out.append("\x1b[?6h" + region)
        out += [f"\x1b[{y}B"] if y else []
        out += [f"\x1b[{min(x, screen.columns - 1)}C"] if x else []
        return
    out.append(region)
    if origin:
        out.append("\x1b[?6h")
    row = y + 1 - (margins.top if origin and margins is not None else 0)
    _goto(out, screen.grid, screen.columns, x, y, row=row)


def to_ansi(screen: VTScreen) -> str:
    """Return text that, fed to a fresh model of the same size, reproduces ``screen``."""
    out = ["\x1bc"]
    columns = screen.columns
    main = screen._other if screen.alternate else screen.grid
    if len(main) != screen.lines or any(len(row) != columns for row in main):
        # The main screen behind the alternate one keeps its size until it is shown again;
        # a fresh model has one size, so it gets the main screen cut to it.
        main = [fit(list(row), columns) for row in main[: screen.lines]]
        main += blank_grid(columns, screen.lines - len(main))
    _paint(out, main, columns)
    if screen.alternate:
        entered = screen._saved.get("1049")
        if entered is not None:
            _savepoint(out, entered, main, columns, "\x1b[?1049h")
            out.append(_NEUTRAL)
        else:
            out.append("\x1b[?47h")
        _paint(out, screen.grid, columns)
    elif "1049" in screen._saved:
        # A cursor saved by 1049 outlives the alternate screen (a later 1049 l restores it):
        # save it the same way, leaving without restoring.
        _savepoint(out, screen._saved["1049"], main, columns, "\x1b[?1049h")
        out.append("\x1b[?47l" + _NEUTRAL)
    saved = screen._saved.get("decsc")
    if saved is not None:
        _savepoint(out, saved, screen.grid, columns, "\x1b7")
        out.append(_NEUTRAL)
    if screen.tabstops != set(range(8, columns, 8)):
        out.append("\x1b[3g" + "".join(f"\x1b[1;{s + 1}H\x1bH" for s in sorted(screen.tabstops)))
    _place_cursor(out, screen)
    out.append(sgr(screen.cursor.attrs))
    out.append(_charsets(screen.g0_charset, screen.g1_charset, screen.charset))
    out += [seq for flag, seq in ((mo.IRM, "\x1b[4h"), (mo.LNM, "\x1b[20h")) if flag in screen.mode]
    if mo.DECAWM not in screen.mode:
        out.append("\x1b[?7l")
    if screen.cursor.hidden:
        out.append("\x1b[?25l")
    out += [f"\x1b[?{mode}h" for mode in sorted(screen.private_modes)]
    if screen.keypad_application:
        out.append("\x1b=")
    for title, icon in screen.title_stack:
        out.append(f"\x1b]2;{title}\x07\x1b]1;{icon}\x07\x1b[22;0t")
    if screen.title or screen.title_stack:
        out.append(f"\x1b]2;{screen.title}\x07")
    if screen.icon_name or screen.title_stack:
        out.append(f"\x1b]1;{screen.icon_name}\x07")
    if screen.link is not None:
        out.append(hyperlink(screen.link))
    return "".join(out)
