"""Links in a terminal's text: which one is under a cell, and how to show it before opening.

Two kinds. An OSC 8 hyperlink: the model keeps each cell's target (``link_at``), and the text
the agent wrote for it can say anything, so the dialog shows the target (and its host), and
says so when the text differs from it (``[https://good.example](https://evil.example)``
shows ``evil.example``). A web address written as text, found as terminals without OSC 8 do:
``http://`` and ``https://`` only (an agent's ``file:``, ``javascript:`` or custom-scheme text
is no link). The characters an address may hold are RFC 3986's plus letters and digits of
other scripts; anything else (a space, a quote, box drawing, a control or bidi character the
sanitizer replaced) ends it, and trailing punctuation that usually closes a sentence is left
out, as are closing brackets that open nowhere in it.

Only web links open (:attr:`FoundLink.opens`): a hyperlink's ``file:`` target names a file in
the sandbox, not on this machine, and other schemes start programs.

A row continues on the next one where the model says autowrap broke it (``is_wrapped``), so an
address or a hyperlink cut by the wrap opens whole; a row the program ended with a line break
of its own is not joined to the next.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from observer.terminal import Cell, is_wrapped, link_at
from observer.terminal.sanitize import sanitize, sanitize_cell

URL = re.compile(r"https?://(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]|[^\x00-\x7f\W])+")
TRAILING = ".,;:!?'\""
CLOSERS = {")": "(", "]": "["}
REACH = 8
"""Rows looked at above and below the one clicked, for a link that wraps."""
MAX_URL = 8192
"""Longest address offered (longer text is not an address anyone clicks)."""
OPENS = frozenset({"http", "https"})
"""The schemes a link may open with."""
SHOWN_TEXT = 200
"""Characters of a hyperlink's text the dialog quotes at most."""


@dataclass(frozen=True, slots=True)
class FoundLink:
    """The link under a cell: what would open, and the text the agent shows for it."""

    target: str
    """What opens: a hyperlink's target (the model keeps it printable ASCII), or the address."""
    text: str
    """The text of the link's cells, sanitized (an address's is the address)."""
    hyperlink: bool = False
    """An OSC 8 hyperlink (its text is the agent's to choose)."""

    @property
    def opens(self) -> bool:
        """Whether it may open (a web link), after the user has seen :func:`describe`."""
        return urlsplit(self.target).scheme.lower() in OPENS

    @property
    def text_differs(self) -> bool:
        """A hyperlink whose text is not its target (a trailing ``/`` aside)."""
        return self.hyperlink and self.text.strip().rstrip("/") != self.target.rstrip("/")


@dataclass(frozen=True, slots=True)
class _Joined:
    """The text of rows joined where they wrapped, with each character's cell and link."""

    text: str
    places: list[tuple[int, int]]
    targets: list[str | None]

    def index_of(self, line: int, column: int) -> int | None:
        """The first character of the cell at ``(line, column)`` (a wide one's stub: its own)."""
        for place in ((line, column), (line, column - 1)):
            if place in self.places:
                return self.places.index(place)
        return None


def url_at(cells_of: Callable[[int], Sequence[Cell]], line: int, column: int) -> FoundLink | None:
    """The link covering cell ``(line, column)``: its OSC 8 hyperlink, else a web address.

    Args:
        cells_of: the cells of a virtual line, as the model gives them (an empty sequence
            outside the terminal).
        line: the virtual line clicked.
        column: the column clicked.
    """
    joined = _join(cells_of, line)
    at = joined.index_of(line, column)
    if at is None:
        return None
    target = link_at(cells_of(line), column)
    if target is not None:
        return _hyperlink(joined, at, target)
    for start, stop in spans(joined.text):
        if start <= at < stop:
            address = joined.text[start:stop]
            return FoundLink(address, address)
    return None


def spans(text: str) -> list[tuple[int, int]]:
    """The ``(start, stop)`` character ranges of the web addresses in ``text``."""
    found = []
    for match in URL.finditer(text):
        url = _trimmed(match.group())
        if len(url) > len("https://") and len(url) <= MAX_URL:
            found.append((match.start(), match.start() + len(url)))
    return found


def describe(link: FoundLink) -> str:
    """The dialog's text for ``link``: where it leads, its host, and what its text claims.

    The host is shown in ASCII when it is not (``аpple.com`` with a Cyrillic ``а`` cannot pass
    for ``apple.com`` as ``xn--pple-43d.com``), and whenever a hyperlink's text differs from
    its target, with that text quoted, so a link that reads like one address and leads to
    another says so.
    """
    target = sanitize(link.target)
    host = unquote(urlsplit(link.target).hostname or "")
    shown_host = host if host.isascii() else _ascii_host(host)
    if not link.text_differs:
        return target if host.isascii() else f"{target}\n\nhost: {shown_host}"
    text = link.text.strip()
    if len(text) > SHOWN_TEXT:
        text = text[: SHOWN_TEXT - 1] + "…"
    where = f"host: {shown_host}" if shown_host else "(no host)"
    return f"{target}\n\n{where}\n\nThe text on screen differs from where it leads: “{text}”"


def not_opened(link: FoundLink) -> str:
    """What a click on a link that may not open says (:attr:`FoundLink.opens` is false)."""
    return f"Not opened: {sanitize(link.target)} (only http and https links open)"


def _ascii_host(host: str) -> str:
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return "(not a valid host name)"


def _join(cells_of: Callable[[int], Sequence[Cell]], line: int) -> _Joined:
    """Line ``line`` and the rows it wraps from and onto, as one text."""
    first = line
    while first > line - REACH and is_wrapped(cells_of(first - 1)):
        first -= 1
    last = line
    while last < line + REACH and is_wrapped(cells_of(last)) and cells_of(last + 1):
        last += 1
    text: list[str] = []
    places: list[tuple[int, int]] = []
    targets: list[str | None] = []
    for number in range(first, last + 1):
        row = cells_of(number)
        for col, cell in enumerate(row):
            target = link_at(row, col)
            for char in sanitize_cell(cell.data):
                text.append(char)
                places.append((number, col))
                targets.append(target)
    return _Joined("".join(text), places, targets)


def _hyperlink(joined: _Joined, at: int, target: str) -> FoundLink:
    """The hyperlink through character ``at``: the run of characters with its target."""
    start, stop = at, at + 1
    while start > 0 and joined.targets[start - 1] == target:
        start -= 1
    while stop < len(joined.targets) and joined.targets[stop] == target:
        stop += 1
    return FoundLink(target, joined.text[start:stop], hyperlink=True)


def _trimmed(url: str) -> str:
    while url:
        last = url[-1]
        unopened = last in CLOSERS and url.count(last) > url.count(CLOSERS[last])
        if last not in TRAILING and not unopened:
            return url
        url = url[:-1]
    return url
