"""Web addresses in a terminal's text: which one is under a cell, and how to show it before opening.

The terminal model keeps no OSC 8 hyperlink targets, so links are found in the text itself, as
terminals without OSC 8 do: ``http://`` and ``https://`` addresses only (an agent's ``file:``,
``javascript:`` or custom-scheme text never opens anything). The characters an address may hold
are RFC 3986's plus letters and digits of other scripts; anything else (a space, a quote, box
drawing, a control or bidi character the sanitizer replaced) ends it, and trailing punctuation
that usually closes a sentence is left out, as are closing brackets that open nowhere in it.

A long address wraps over several rows. The model does not say which rows wrapped, so a row whose
last cell is not blank is taken to continue on the next one (the look of a wrapped line); the
dialog shows the address that would open, and the user judges it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from urllib.parse import urlsplit

from observer.terminal import Cell
from observer.terminal.sanitize import sanitize_cell

URL = re.compile(r"https?://(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]|[^\x00-\x7f\W])+")
TRAILING = ".,;:!?'\""
CLOSERS = {")": "(", "]": "["}
REACH = 8
"""Rows looked at above and below the one clicked, for an address that wraps."""
MAX_URL = 8192
"""Longest address offered (longer text is not an address anyone clicks)."""


def url_at(cells_of: Callable[[int], Sequence[Cell]], line: int, column: int) -> str | None:
    """The web address covering cell ``(line, column)``, or None.

    Args:
        cells_of: the cells of a virtual line (an empty sequence outside the terminal).
        line: the virtual line clicked.
        column: the column clicked.
    """
    first = line
    while first > line - REACH and _continues(cells_of(first - 1)):
        first -= 1
    last = line
    while last < line + REACH and _continues(cells_of(last)) and cells_of(last + 1):
        last += 1
    text: list[str] = []
    places: list[tuple[int, int]] = []
    for number in range(first, last + 1):
        for col, cell in enumerate(cells_of(number)):
            for char in sanitize_cell(cell.data):
                text.append(char)
                places.append((number, col))
    joined = "".join(text)
    for start, stop in spans(joined):
        lines_cols = places[start:stop]
        if lines_cols[0] <= (line, column) <= lines_cols[-1]:
            return joined[start:stop]
    return None


def spans(text: str) -> list[tuple[int, int]]:
    """The ``(start, stop)`` character ranges of the web addresses in ``text``."""
    found = []
    for match in URL.finditer(text):
        url = _trimmed(match.group())
        if len(url) > len("https://") and len(url) <= MAX_URL:
            found.append((match.start(), match.start() + len(url)))
    return found


def describe(url: str) -> str:
    """The dialog's text for ``url``: the address, and its host in ASCII when it is not.

    A host in another script can look like a familiar one (``аpple.com`` with a Cyrillic
    ``а``); its IDNA form (``xn--pple-43d.com``) cannot.
    """
    host = urlsplit(url).hostname or ""
    if host.isascii():
        return url
    try:
        ascii_host = host.encode("idna").decode("ascii")
    except UnicodeError:
        ascii_host = "(not a valid host name)"
    return f"{url}\n\nhost: {ascii_host}"


def _trimmed(url: str) -> str:
    while url:
        last = url[-1]
        unopened = last in CLOSERS and url.count(last) > url.count(CLOSERS[last])
        if last not in TRAILING and not unopened:
            return url
        url = url[:-1]
    return url


def _continues(cells: Sequence[Cell]) -> bool:
    """Whether a row looks wrapped: its last cell (or a wide character ending it) is not blank."""
    if not cells:
        return False
    last = cells[-1].data
    if last == "" and len(cells) > 1:  # the stub of a wide character
        last = cells[-2].data
    return last.strip() != ""
