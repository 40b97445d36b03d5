"""An SVG image of a terminal model's screen, drawn by Rich's ``Console.export_svg``.

Cells become Rich ``Text`` spans (never markup: screen content is untrusted), one style per run of
equal cells. The recording's theme (asciicast ``fg``/``bg``/``palette``) colours the image when it
has one; otherwise Rich's default SVG theme does.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.style import Style
from rich.terminal_theme import SVG_EXPORT_THEME, TerminalTheme
from rich.text import Text

if TYPE_CHECKING:
    from observer.terminal import TerminalModel

# pyte names yellow "brown"; Rich calls the bright colours "bright_<name>".
_NAMES = {
    "black": "black",
    "red": "red",
    "green": "green",
    "brown": "yellow",
    "yellow": "yellow",
    "blue": "blue",
    "magenta": "magenta",
    "cyan": "cyan",
    "white": "white",
}
_HEX = frozenset("0123456789abcdefABCDEF")


def rich_color(name: str) -> str | None:
    """Map a model colour (``default``, a 16-colour name, or ``rrggbb``) to a Rich colour."""
    if name in _NAMES:
        return _NAMES[name]
    if name.startswith("bright") and name[6:] in _NAMES:
        return "bright_" + _NAMES[name[6:]]
    if len(name) == 6 and set(name) <= _HEX:
        return "#" + name.lower()
    return None


@lru_cache(maxsize=4096)
def _style(key: tuple[str, str, bool, bool, bool, bool, bool]) -> Style:
    fg, bg, bold, italic, underline, strike, reverse = key
    return Style(
        color=rich_color(fg),
        bgcolor=rich_color(bg),
        bold=bold or None,
        italic=italic or None,
        underline=underline or None,
        strike=strike or None,
        reverse=reverse or None,
    )


def _cell_style(cell: Any, cursor: bool) -> Style:
    return _style(
        (
            cell.fg,
            cell.bg,
            bool(cell.bold),
            bool(cell.italics),
            bool(cell.underscore),
            bool(cell.strikethrough),
            bool(cell.reverse) != cursor,  # the cursor is drawn as an inverted cell
        )
    )


def row_text(cells: Sequence[Any], cursor_x: int | None = None) -> Text:
    """Build one screen row as Rich ``Text`` (wide characters' trailing ``""`` cells skipped)."""
    text = Text(no_wrap=True, overflow="crop", end="")
    run: list[str] = []
    run_style: Style | None = None
    for x, cell in enumerate(cells):
        if cell.data == "":
            continue
        style = _cell_style(cell, x == cursor_x)
        if style != run_style and run:
            text.append("".join(run), run_style)
            run = []
        run_style = style
        run.append(cell.data)
    if run:
        text.append("".join(run), run_style)
    return text


def terminal_theme(theme: Mapping[str, str] | None) -> TerminalTheme:
    """Build a Rich theme from an asciicast theme, or return Rich's SVG default."""
    if not theme:
        return SVG_EXPORT_THEME
    try:
        palette = [_rgb(c) for c in theme.get("palette", "").split(":") if c]
        if len(palette) == 8:
            palette *= 2
        if len(palette) != 16:
            return SVG_EXPORT_THEME
        return TerminalTheme(_rgb(theme["bg"]), _rgb(theme["fg"]), palette[:8], palette[8:])
    except (KeyError, ValueError):
        return SVG_EXPORT_THEME


def _rgb(color: str) -> tuple[int, int, int]:
    digits = color.strip().removeprefix("#")
    if len(digits) != 6 or not set(digits) <= _HEX:
        raise ValueError(color)
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


def screen_svg(
    model: TerminalModel,
    *,
    title: str | None = None,
    theme: Mapping[str, str] | None = None,
    cursor: bool = True,
) -> str:
    """Return an SVG image of the model's visible screen."""
    console = Console(
        record=True,
        width=model.cols,
        height=model.rows,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        legacy_windows=False,
        highlight=False,
        emoji=False,
        markup=False,
    )
    show_cursor = cursor and model.cursor_visible
    for y in range(model.rows):
        cursor_x = model.cursor_x if show_cursor and y == model.cursor_y else None
        console.print(
            row_text(model.line(y), cursor_x), crop=True, overflow="crop", soft_wrap=False
        )
    return console.export_svg(title=title or "observer", theme=terminal_theme(theme))
