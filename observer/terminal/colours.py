"""The one rule for what a colour is when it is written as hex digits.

A model cell's ``fg``/``bg`` holds ``"default"``, one of the 16 palette names
(:data:`observer.terminal.sgr.COLOUR_NAMES`) or six hex digits ``rrggbb`` for a direct colour
(xterm's ``38;2;R;G;B``, as pyte stores it). Theme files write the same six digits after a ``#``.
Every reader of a colour (the SGR writer, the Rich renderer, the SVG theme, the theme loader)
asks here, so a colour one accepts no other refuses.
"""

from __future__ import annotations

from typing import Final

_HEX_DIGITS: Final = frozenset("0123456789abcdefABCDEF")


def is_hex_colour(text: str) -> bool:
    """True when ``text`` is exactly six hex digits (``rrggbb``, no ``#``)."""
    return len(text) == 6 and set(text) <= _HEX_DIGITS


def hex_rgb(text: str) -> tuple[int, int, int] | None:
    """The red, green and blue of ``rrggbb`` (0..255 each), or None when it is not a colour."""
    if not is_hex_colour(text):
        return None
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)
