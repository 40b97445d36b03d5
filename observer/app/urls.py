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

The host the dialog names is the one a browser goes to: the target is parsed as browsers parse
it, by the WHATWG URL Standard (``ada_url``), not RFC 3986. There a backslash is a ``/`` in
http(s) addresses (``https://evil.example\\@github.com/`` goes to ``evil.example``),
everything before the authority's last ``@`` is a user name, and the host is mapped to ASCII
by UTS #46 (IDNA). The dialog says so when a target has a user name or a backslash, and an
address the standard cannot parse does not open: nobody could say where it leads.

A row continues on the next one where the model says autowrap broke it (``is_wrapped``), so an
address or a hyperlink cut by the wrap opens whole; a row the program ended with a line break
of its own is not joined to the next.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import ada_url

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
class Destination:
    """Where a browser goes for a target (WHATWG URL Standard), and what disguises it."""

    scheme: str
    """The scheme, lower case, without its colon."""
    host: str
    """The host as the browser resolves it (ASCII, after IDNA), or empty."""
    user_name: bool
    """The target names a user (and password) before its host."""
    backslash: bool
    """The target has a backslash, which a browser reads as ``/`` in http(s) addresses."""


def destination(target: str) -> Destination | None:
    """Where ``target`` leads by the WHATWG URL Standard, or ``None`` if it cannot be parsed."""
    if not ada_url.check_url(target):
        return None
    url = ada_url.URL(target)
    scheme = url.protocol.rstrip(":").lower()
    named = bool(url.username or url.password)
    return Destination(scheme, url.hostname, named, "\\" in target and scheme in OPENS)


@dataclass(frozen=True)
class FoundLink:
    """The link under a cell: what would open, and the text the agent shows for it."""

    target: str
    """What opens: a hyperlink's target (the model keeps it printable ASCII), or the address."""
    text: str
    """The text of the link's cells, sanitized (an address's is the address)."""
    hyperlink: bool = False
    """An OSC 8 hyperlink (its text is the agent's to choose)."""

    @cached_property
    def destination(self) -> Destination | None:
        """Where a browser would go for :attr:`target` (``None``: no browser could parse it)."""
        return destination(self.target)

    @property
    def opens(self) -> bool:
        """Whether it may open (a web link a browser can parse, with a host), after the user
        has seen :func:`describe`."""
        found = self.destination
        return found is not None and found.scheme in OPENS and bool(found.host)

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
    """The dialog's text for ``link``: where it leads, its host, and what disguises it.

    The host (as a browser resolves it, in ASCII: ``аpple.com`` with a Cyrillic ``а`` cannot
    pass for ``apple.com`` as ``xn--pple-43d.com``) is named whenever the target could read as
    another: a host that was not ASCII, a user name or a backslash before it, or a hyperlink
    whose text differs from its target, with that text quoted.
    """
    target = sanitize(link.target)
    found = link.destination
    host = found.host if found is not None else ""
    notes = _disguises(link, found)
    if not notes and host.isascii() and host in link.target.lower():
        return target
    where = f"host: {host}" if host else "(no host)"
    return "\n\n".join([target, where, *notes])


def _disguises(link: FoundLink, found: Destination | None) -> list[str]:
    """What makes ``link`` read as leading somewhere else than it does."""
    notes = []
    if found is not None and found.user_name:
        notes.append("The address has a user name before the host: it reads like a host, isn't.")
    if found is not None and found.backslash:
        notes.append("The address has a backslash: a browser reads it as / .")
    if link.text_differs:
        text = link.text.strip()
        if len(text) > SHOWN_TEXT:
            text = text[: SHOWN_TEXT - 1] + "…"
        notes.append(f"The text on screen differs from where it leads: “{text}”")
    return notes


def not_opened(link: FoundLink) -> str:
    """What a click on a link that may not open says (:attr:`FoundLink.opens` is false)."""
    if link.destination is None or link.destination.scheme in OPENS:
        return f"Not opened: {sanitize(link.target)} (not an address a browser can read)"
    return f"Not opened: {sanitize(link.target)} (only http and https links open)"


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
