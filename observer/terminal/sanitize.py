"""Sanitizing untrusted text the agent sets, such as the window title."""

from __future__ import annotations

import re

#: Longest title kept, in characters. xterm keeps more, but no title bar shows this much.
MAX_TITLE = 256

# C0 and C1 controls, DEL, and the Unicode bidirectional overrides and isolates that can make
# a title display differently from what it contains (CVE-2021-42574, "trojan source").
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def sanitize_title(raw: str) -> str:
    """Return a title that is safe to show as plain text.

    Controls and bidirectional overrides are removed and the result is cut to
    :data:`MAX_TITLE` characters.

    Args:
        raw: the title as the program sent it (OSC 0 or OSC 2 payload).

    Returns:
        The cleaned title; possibly empty.
    """
    return _UNSAFE.sub("", raw[: MAX_TITLE * 4])[:MAX_TITLE].strip()
