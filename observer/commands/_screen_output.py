"""A terminal model's screen as ``observer render`` prints it: text, ANSI or an SVG image.

All three come from the one renderer (:func:`observer.render.rich_cells.cells_to_segments`, palette
colours kept indexed) and its safety rule, so they show the same cells and cursor as the app:

- ``text``: the rows, trailing blanks trimmed, every cell made safe (no control, no bidi control);
- ``ansi``: the rows with their colours and attributes (blink and conceal included: the
  terminal showing them blinks or hides that text) as SGR sequences (Rich's ``Style.render``)
  and nothing else — no title (OSC), no DCS/APC, no reset (RIS), no mode, no cursor move — so
  it can be printed into any terminal or CI log and leaves that terminal as it was; palette
  colours stay palette colours, so the user's terminal theme applies;
- ``svg``: Rich's ``Console.export_svg`` of the same styled text, coloured by the recording's
  theme (asciicast ``fg``/``bg``/``palette``) when it has one, else by Rich's default SVG theme,
  with wide characters in their cells and local fonts only (:mod:`observer.render.svg`).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from observer.terminal.colours import hex_rgb
from observer.terminal.sanitize import rows_text

if TYPE_CHECKING:
    # Rich and the renderer are imported where they are used: `render --format text`, the
    # most frequent use in CI, starts faster without them.
    from rich.segment import Segment
    from rich.terminal_theme import TerminalTheme
    from rich.text import Text

    from observer.render.rich_cells import CellLike


class ScreenLike(Protocol):
    """What is read from a terminal model (:class:`observer.terminal.TerminalModel` has it)."""

    @property
    def cols(self) -> int: ...
    @property
    def rows(self) -> int: ...
    @property
    def cursor_x(self) -> int: ...
    @property
    def cursor_y(self) -> int: ...
    @property
    def cursor_visible(self) -> bool: ...
    def line(self, y: int) -> Sequence[CellLike]: ...


def _row_segments(screen: ScreenLike, y: int, cursor: bool) -> list[Segment]:
    from observer.render.rich_cells import cells_to_segments

    shown = cursor and screen.cursor_visible and y == screen.cursor_y
    return cells_to_segments(screen.line(y), None, screen.cursor_x if shown else None)


def screen_text(screen: ScreenLike) -> str:
    """The screen's rows, one per line, trailing blanks trimmed (like ``tmux capture-pane -p``)."""
    return "".join(f"{row}\n" for row in rows_text(screen.line(y) for y in range(screen.rows)))


def screen_to_text(screen: ScreenLike, *, cursor: bool = True) -> Text:
    """The whole screen as one Rich ``Text`` (rows joined by newlines), palette colours indexed.

    Concealed text (SGR 8) is drawn as blanks in its colours, as a terminal shows it: an image
    has no other way to hide it. Blinking text (SGR 5) is drawn as it shows while lit.
    """
    from rich.cells import cell_len
    from rich.text import Text

    text = Text(no_wrap=True, end="")
    for y in range(screen.rows):
        if y:
            text.append("\n")
        for segment in _row_segments(screen, y, cursor):
            style = segment.style
            shown = " " * cell_len(segment.text) if style and style.conceal else segment.text
            text.append(shown, style)
    return text


def screen_ansi(screen: ScreenLike, *, cursor: bool = True) -> str:
    """The screen as SGR-coloured lines: text, colours and attributes only (see the module)."""
    from rich.color import ColorSystem

    out: list[str] = []
    for y in range(screen.rows):
        for segment in _trimmed(_row_segments(screen, y, cursor)):
            style = segment.style
            text = segment.text
            out.append(style.render(text, color_system=ColorSystem.TRUECOLOR) if style else text)
        out.append("\n")
    return "".join(out)


def _trimmed(segments: list[Segment]) -> list[Segment]:
    """Without the row's trailing blanks where nothing shows them (noise in a log)."""
    from rich.segment import Segment

    while segments:
        last = segments[-1]
        style = last.style
        if style is not None and (
            style.bgcolor or style.reverse or style.underline or style.strike
        ):
            break
        text = last.text.rstrip(" ")
        if text:
            segments[-1] = Segment(text, style)
            break
        segments.pop()
    return segments


def screen_svg(
    screen: ScreenLike,
    *,
    title: str | None = None,
    theme: Mapping[str, str] | None = None,
    cursor: bool = True,
) -> str:
    """An SVG image of the screen, drawn by Rich's ``Console.export_svg``.

    Args:
        screen: The terminal model.
        title: The window title in the image (already sanitized); ``observer`` by default.
        theme: The recording's asciicast theme, if any.
        cursor: Draw a visible cursor as an inverted cell.
    """
    from rich.console import Console

    from observer.render.svg import mend_svg

    console = Console(
        record=True,
        width=screen.cols,
        height=screen.rows,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        legacy_windows=False,
        highlight=False,
        emoji=False,
        markup=False,
        no_color=False,
    )
    console.print(screen_to_text(screen, cursor=cursor), crop=True, overflow="crop")
    return mend_svg(console.export_svg(title=title or "observer", theme=terminal_theme(theme)))


def terminal_theme(theme: Mapping[str, str] | None) -> TerminalTheme:
    """Build a Rich theme from an asciicast theme, or return Rich's SVG default."""
    from rich.terminal_theme import SVG_EXPORT_THEME, TerminalTheme

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
    rgb = hex_rgb(color.strip().removeprefix("#"))
    if rgb is None:
        raise ValueError(color)
    return rgb
