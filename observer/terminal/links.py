"""OSC 8 hyperlinks: what a link is, how its sequence is read, and the query for the view.

``OSC 8 ; params ; URI ST`` opens a link for the cells written after it and ``OSC 8 ; ; ST``
(an empty URI) closes it (the specification Egmont Koblinger wrote for VTE and iTerm2,
which xterm, kitty and tmux 3.4 follow). ``params`` are ``key=value`` pairs separated by
``:``; ``id=`` names a link so that cells written apart (a link cut by a line break, or
redrawn) are one link. The link is not part of the SGR pen: ``SGR 0`` keeps it, as in
VTE and tmux; erasing a cell drops it.

The URI is agent text. The model keeps it printable ASCII (every other character,
spaces and controls included, is percent-encoded as UTF-8, so no bidi or control character
survives into a dialog), drops links longer than VTE's limits, and opens nothing itself:
which schemes may open is the view's decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol
from urllib.parse import quote

#: Longest URI kept (VTE's limit); a longer one opens no link.
MAX_URI = 2048
#: Longest ``id`` kept (VTE's limit); a longer one is cut.
MAX_ID = 250
#: Distinct links interned at once (see :class:`Links`).
MAX_LINKS = 4096
# Printable ASCII but space: what a URI may hold unchanged (RFC 3986 plus what real URIs
# carry unescaped). ``%`` stays as it is, so an escaped URI is not escaped again.
_SAFE = "".join(chr(c) for c in range(0x21, 0x7F))


class Link(NamedTuple):
    """A hyperlink target: the sanitized URI, and the ``id`` that joins cells ("" for none)."""

    uri: str
    id: str = ""


class LinkedCell(Protocol):
    """What :func:`link_at` reads of a cell (:class:`~observer.terminal.cells.Cell` has it)."""

    @property
    def link(self) -> Link | None:
        """The cell's hyperlink."""
        ...


def parse(value: str) -> Link | None:
    """The link an OSC 8's text (``params;URI``, after ``8;``) opens, or ``None`` when it
    closes the link (an empty URI) or opens none (a URI over :data:`MAX_URI`)."""
    params, _, uri = value.partition(";")
    if not uri or len(uri) > MAX_URI:
        return None
    uri = quote(uri, safe=_SAFE)
    link_id = ""
    for param in params.split(":"):
        key, _, found = param.partition("=")
        if key == "id":
            link_id = "".join(c for c in found[:MAX_ID] if c in _SAFE and c not in ":;")
    return Link(uri, link_id)


class Links(dict[Link, Link]):
    """Interned links: one object per distinct link, so a pen carrying one is one object."""

    def intern(self, link: Link | None) -> Link | None:
        """The one object equal to ``link``."""
        if link is None:
            return None
        found = self.get(link)
        if found is None:
            if len(self) >= MAX_LINKS:  # bounds memory; cells keep the links they have
                self.clear()
            found = self[link] = link
        return found


def link_at(cells: Sequence[LinkedCell], column: int) -> str | None:
    """The hyperlink target (OSC 8) of the cell at ``column`` of a row, or ``None``.

    Args:
        cells: a row as the model gives it: ``TerminalModel.line(y)`` or
            ``TerminalModel.history[i]``.
        column: 0-based; outside the row there is no link.
    """
    if not 0 <= column < len(cells):
        return None
    link = cells[column].link
    return None if link is None else link.uri
