"""SVGs of terminal screens that draw every character in its cells and load nothing from the network.

Rich's ``Console.export_svg`` (which ``observer render --format svg``, the app's screenshot command
and ``observer screenshots`` through Textual all use) has two faults this module mends in its
output:

- it sets each run's ``textLength`` from its characters, not its cells
  (Textualize/rich#2742), so a CJK character or an emoji, two cells wide, is squeezed into one
  and the run's other characters slide left (and a run with combining marks is stretched). Each run holding wide characters is split: every
  wide character becomes its own ``<text>`` two cells long, the narrow runs between them keep a
  cell each, all at the cells' own ``x``;
- its template loads Fira Code from a third-party CDN, so opening a screenshot contacts it. The
  ``@font-face`` rules go, and the text names fonts installed locally (Fira Code where present,
  else the platform's monospace fonts).
"""

from __future__ import annotations

import html
import re
from typing import Final

__all__ = ["FONT_STACK", "local_fonts", "mend_svg", "wide_in_cells"]

FONT_STACK: Final = (
    '"Fira Code", "DejaVu Sans Mono", Menlo, Consolas, "Liberation Mono", "Noto Sans Mono", '
    "monospace"
)
"""Fonts named by local name only, tried in order."""

_FONT_FACE = re.compile(r"\s*@font-face\s*\{[^}]*\}")
_MATRIX_FONT = re.compile(r"font-family:\s*Fira Code,\s*monospace;")
# One run as Rich's make_tag writes it (Rich 13-15): class, x, y, textLength, clip-path.
_RUN = re.compile(
    r'<text class="(?P<cls>[^"]*)" x="(?P<x>[^"]*)" y="(?P<y>[^"]*)" '
    r'textLength="(?P<length>[^"]*)" clip-path="(?P<clip>[^"]*)">(?P<text>[^<]*)</text>'
)


def mend_svg(svg: str) -> str:
    """Both mends of Rich's SVG (see the module docstring)."""
    return wide_in_cells(local_fonts(svg))


def local_fonts(svg: str) -> str:
    """Without the ``@font-face`` rules that fetch fonts, naming local fonts instead."""
    svg = _FONT_FACE.sub("", svg)
    return _MATRIX_FONT.sub(f"font-family: {FONT_STACK};", svg)


def wide_in_cells(svg: str) -> str:
    """Split every text run that holds a wide character so each character fills its cells."""
    return _RUN.sub(_split_run, svg)


def _split_run(match: re.Match[str]) -> str:
    from rich.cells import cell_len, get_character_cell_size

    text = html.unescape(match["text"]).replace("\xa0", " ")  # Rich writes spaces as &#160;
    if text == "\n" or all(get_character_cell_size(char) == 1 for char in text):
        return match[0]  # a cell a character (or a line's end): Rich's textLength is right
    char_width = float(match["length"]) / len(text)  # Rich's: a cell per character
    x = float(match["x"])
    runs = []
    for piece in _pieces(text):
        cells = cell_len(piece)
        if piece.strip(" "):
            runs.append(
                f'<text class="{match["cls"]}" x="{_number(x)}" y="{match["y"]}" '
                f'textLength="{_number(char_width * cells)}" clip-path="{match["clip"]}">'
                f"{_escape(piece)}</text>"
            )
        x += char_width * cells
    return "".join(runs)


def _pieces(text: str) -> list[str]:
    """``text`` cut into runs of narrow characters and single wide characters (with the
    zero-width characters that follow each, such as a variation selector)."""
    from rich.cells import get_character_cell_size

    pieces: list[str] = []
    narrow = True
    for char in text:
        size = get_character_cell_size(char)
        if size == 0 and pieces:
            pieces[-1] += char
        elif size == 2 or not pieces or not narrow:
            pieces.append(char)
        else:
            pieces[-1] += char
        if size:
            narrow = size == 1
    return pieces


def _escape(text: str) -> str:
    """Escape as Rich's SVG export does (spaces as no-break spaces, which SVG keeps)."""
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace(" ", "&#160;")
    )


def _number(value: float) -> str:
    return format(round(value, 4), "g")
