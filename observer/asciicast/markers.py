"""The one marker vocabulary: every label observer writes into a recording, and how readers read it.

Writers (the client session core's recording policy) build labels with :func:`label`; readers
(``export``, ``render --at-marker``, the replay view's marker list) ask :func:`kind_of`. A label is
``kind`` or ``kind: detail`` in plain words, because players (asciinema-player, the replay view)
list markers by their label. A user's own mark is written as ``mark: <text>``.

Recordings made before this vocabulary existed spelled some kinds differently; :func:`kind_of`
reads those spellings too, so old files export and render the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Final


class MarkerKind(Enum):
    """What a marker says happened. The value is the label's leading words."""

    CONNECT = "connect"
    """The first connection of the recording was made."""
    DISCONNECT = "disconnect"
    """The connection dropped (once per outage, however many retries follow)."""
    RECONNECT = "reconnect"
    """The connection is back after an outage; the stream resumed without loss."""
    GAP = "gap"
    """Output was lost: what follows starts from a fresh screen, not from where the last byte was."""
    NEW_PROGRAM = "new program"
    """The peer started a new program for the new connection (ttyd): not the same session."""
    JOINED_MID_STREAM = "joined mid-stream"
    """The peer sends no snapshot (raw, ttyd, Jupyter): the first screen may be incomplete."""
    TAKEOVER_START = "takeover start"
    """Somebody took the keyboard: the detail names them (:func:`attributed`), and who watched."""
    TAKEOVER_END = "takeover end"
    """Whoever held the keyboard handed it back (or lost it): the detail names them."""
    HANDOVER = "handover"
    """The keyboard went from one person to another in one step: ``alice → bob``."""
    INPUT_HIDDEN = "input hidden"
    """The program turned echo off (a password prompt): keys typed meanwhile are not recorded."""
    NOTIFICATION = "notification"
    """The agent asked for attention (OSC 9/99/777, a bell): the detail is its sanitized text."""
    EXIT = "exit"
    """The program ended; the detail is its status where the peer reports one."""
    MARK = "mark"
    """A mark the user set; the detail is the user's text."""


#: Spellings older recordings used, read as today's kinds.
LEGACY: Final[dict[str, MarkerKind]] = {
    "connected": MarkerKind.CONNECT,
    "reconnected": MarkerKind.RECONNECT,
    "disconnected": MarkerKind.DISCONNECT,
    "takeover started": MarkerKind.TAKEOVER_START,
    "takeover ended": MarkerKind.TAKEOVER_END,
    "exited": MarkerKind.EXIT,
}

_BY_VALUE: Final[dict[str, MarkerKind]] = {kind.value: kind for kind in MarkerKind}


def label(kind: MarkerKind, detail: str = "") -> str:
    """The marker label for ``kind`` with an optional ``detail`` (already safe text)."""
    detail = " ".join(detail.split())
    return f"{kind.value}: {detail}" if detail else kind.value


HANDED: Final = " → "
"""Between the giver and the taker in a ``handover`` marker's detail."""
WATCHING: Final = "; watching: "
"""Before who watched, at the end of a takeover or handover marker's detail."""


def attributed(who: str, watching: Sequence[str] = ()) -> str:
    """A control marker's detail: who (``alice``, or ``alice → bob`` for a handover), then who
    was watching: ``alice; watching: bob (2), carol``. Names are clean labels already."""
    return f"{who}{WATCHING}{', '.join(watching)}" if watching and who else who


def holder_of(detail: str) -> str:
    """Who holds the keyboard after a control marker with this detail (the taker of a
    handover; empty when the marker names nobody)."""
    who = detail.partition(WATCHING)[0]
    return who.rpartition(HANDED)[2].strip()


def kind_of(text: str) -> MarkerKind | None:
    """The kind a marker label names (today's or a legacy spelling), or None for other labels."""
    head = text.partition(":")[0].strip().lower()
    return _BY_VALUE.get(head) or LEGACY.get(head)


def detail_of(text: str) -> str:
    """The detail after ``kind:`` (empty when there is none)."""
    return text.partition(":")[2].strip()


def matches(text: str, wanted: str) -> bool:
    """Whether marker ``text`` answers a user's ``--at-marker wanted``.

    A kind's name matches every marker of that kind in any spelling (``takeover`` matches
    ``takeover start`` and an old ``takeover started``); otherwise ``wanted`` is looked for in
    the label, ignoring case.
    """
    wanted = wanted.strip().lower()
    kind = kind_of(text)
    if kind is not None and kind.value.startswith(wanted):
        return True
    return wanted in text.lower()
