"""What is safe to show: the one sanitizer for text observer puts on a user's screen.

Everything observer writes to the host terminal or shows as text — the app's text, titles and
labels, ``observer render`` (text, ANSI, SVG), ``observer export``, the replay view, and the cells
of a screen as the renderer draws them — goes through this module, so one character set decides
what an agent cannot send through:

- **controls**: C0 (U+0000–001F), DEL (U+007F) and C1 (U+0080–009F) — each could start an escape
  sequence or move the cursor (ECMA-48 section 5);
- **bidirectional controls**: U+061C, U+200E, U+200F, U+202A–202E, U+2066–2069 — they make a line
  display in another order than it reads (CVE-2021-42574, "trojan source");
- **invisible format characters** that hide or break text: U+2028/2029 (line and paragraph
  separators), U+206A–206F (deprecated shaping controls), U+FFF9–FFFB (interlinear annotation,
  which hides text), U+E0000–E007F (tag characters: invisible text that programs still read).

Each of those is shown as :data:`PLACEHOLDER`, visibly, never passed through. Zero-width spaces
and joiners that only hide where a word may break (U+200B, U+2060–2064, U+FEFF, U+180E) are
removed: they have no glyph, so removing them changes nothing a reader sees, while a placeholder
would clutter common text. U+200C/U+200D (ZWNJ/ZWJ) stay: emoji sequences and several scripts
need them, and they cannot reorder a line.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Protocol

from observer.terminal.cells import is_wide

#: What an unsafe character is shown as (one column wide).
PLACEHOLDER = "\ufffd"

#: Longest title kept, in characters. xterm keeps more, but no title bar shows this much.
MAX_TITLE = 256

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""Unicode's explicit directional formatting characters (UAX #9, section 2)."""

_SHOWN = (
    *range(0x00, 0x20),
    *range(0x7F, 0xA0),
    *map(ord, BIDI_CONTROLS),
    0x2028,
    0x2029,
    *range(0x206A, 0x2070),
    *range(0xFFF9, 0xFFFC),
    *range(0xE0000, 0xE0080),
)
_REMOVED = (0x180E, 0x200B, *range(0x2060, 0x2065), 0xFEFF)

_TABLE: dict[int, str | None] = {code: PLACEHOLDER for code in _SHOWN}
_TABLE.update({code: None for code in _REMOVED})
_CELL_TABLE: dict[int, str | None] = {code: None for code in (*_SHOWN, *_REMOVED)}


class HasData(Protocol):
    """A screen cell: its text is a base character and any zero-width ones joined to it."""

    @property
    def data(self) -> str: ...


def sanitize(text: str) -> str:
    """Text safe to show: unsafe characters become :data:`PLACEHOLDER`, invisible ones go.

    Args:
        text: Untrusted text (agent output, a title, a marker label, an identifier).

    Returns:
        The text with every character of the module's set replaced or removed; anything else
        (letters, emoji, combining marks, box drawing) as it was.
    """
    if text.isprintable():  # in C, and true for nearly all text: no table lookups then
        return text
    return text.translate(_TABLE)


def sanitize_title(raw: str) -> str:
    """A window title safe to show: sanitized, cut to :data:`MAX_TITLE`, outer blanks stripped.

    Args:
        raw: The title as the program sent it (OSC 0/1/2 payload, a peer's title frame).
    """
    return sanitize(raw[: MAX_TITLE * 4])[:MAX_TITLE].strip()


@lru_cache(maxsize=4096)
def sanitize_cell(data: str) -> str:
    """A cell's text safe to draw in the columns the cell takes.

    The terminal model joins zero-width characters (a bidi control among them) to the cell
    before them, so a placeholder cannot be added beside the cell without shifting the row:
    a cell carrying a shown character is drawn as the placeholder instead (padded to a wide
    character's two columns); removed characters are just dropped.
    """
    if data.isprintable():
        return data
    cleaned = data.translate(_CELL_TABLE)
    if len(cleaned) == len(data):
        return data  # not printable, but nothing of the set: e.g. a no-break space
    if data.translate(_TABLE) == cleaned:
        return cleaned  # only removed characters
    wide = bool(cleaned) and is_wide(cleaned)
    return PLACEHOLDER + " " if wide else PLACEHOLDER


def cells_text(cells: Sequence[HasData]) -> str:
    """The text of a run of cells, each made safe with :func:`sanitize_cell`."""
    text = "".join([cell.data for cell in cells])
    if text.isprintable():
        return text
    return "".join([sanitize_cell(cell.data) for cell in cells])


def rows_text(rows: Iterable[Sequence[HasData]]) -> list[str]:
    """Screen rows as safe text, trailing blanks trimmed (``render --format text``, ``export``)."""
    return [cells_text(row).rstrip() for row in rows]


__all__ = [
    "BIDI_CONTROLS",
    "MAX_TITLE",
    "PLACEHOLDER",
    "cells_text",
    "rows_text",
    "sanitize",
    "sanitize_cell",
    "sanitize_title",
]
