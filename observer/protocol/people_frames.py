"""Presence and hand-over frames of ``observer.v1``: who is here, who holds the keyboard, who asks.

Only a client that asked for them (``features=people``) gets ``people`` frames, as with ``echo``:
older clients take an unknown ``type`` for a malformed frame. A ``people`` frame lists every
connection of the session — a number for each, its label (the token's label or a JWT claim), its
role, since when (seconds since the epoch) and whether it is asking for the keyboard — with the
receiver's own number (``you``) and the holder's (``holder``, ``null`` when nobody holds it). It is
sent whole on every change: sessions have few people, and a client then keeps no state to mend.

A client whose token may control and that finds the keyboard held sends ``ask``; the holder
answers with ``hand`` (to that connection, or to any watcher whose token may control) or
``decline``. The server moves the keyboard in one step (:mod:`observer.protocol.arbiter`).

Labels are text the people at both ends read and neither controls: the server sanitizes them
before sending, and the client again on reading (the sandbox is not trusted), with
:func:`clean_label`. The full specification is in docs/protocol.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from observer.protocol.fields import BadFrame, boolean, choice, integer, string
from observer.terminal.sanitize import sanitize

PEOPLE_FEATURE: Final = "people"
"""Send ``people`` frames (:class:`People`), and answer ``ask``."""
MAX_LABEL: Final = 64
"""Characters of a label kept (the token file's labels are at most this long)."""
MAX_PEOPLE: Final = 1024
"""People one frame may list (a client refuses a longer list as malformed)."""
MAX_CONNECTION_ID: Final = 2**53
"""Connection numbers stay exact in every JSON reader (IEEE 754 doubles)."""

PersonRole = Literal["watch", "control"]
_ROLES: Final = frozenset({"watch", "control"})


def clean_label(text: str) -> str:
    """``text`` safe to show as a person's label: blanks collapsed, the one sanitizer, bounded."""
    shown = sanitize(" ".join(text.split()))[:MAX_LABEL].strip()
    return shown or "unnamed"


@dataclass(frozen=True, slots=True)
class Person:
    """One connection of a session, as ``people`` lists it."""

    id: int
    label: str
    role: PersonRole
    since: float
    """Seconds since the epoch when it connected."""
    asking: bool = False
    """It asked the holder for the keyboard and is waiting for the answer."""


@dataclass(frozen=True, slots=True)
class People:
    """Server to client: everybody connected, the receiver (``you``) and the holder."""

    you: int
    holder: int | None
    people: tuple[Person, ...]


@dataclass(frozen=True, slots=True)
class Ask:
    """Client to server: ask the holder for the keyboard (nobody holds it: take it)."""


@dataclass(frozen=True, slots=True)
class Hand:
    """Client to server, from the holder: give the keyboard to connection ``to``."""

    to: int


@dataclass(frozen=True, slots=True)
class Decline:
    """Client to server, from the holder: keep the keyboard; ``to`` is told no."""

    to: int


PeopleFrame = People | Ask | Hand | Decline


def people_fields(frame: PeopleFrame) -> dict[str, Any]:
    """The JSON fields of ``frame`` besides ``type``."""
    match frame:
        case People():
            return {
                "you": frame.you,
                "holder": frame.holder,
                "people": [_person_fields(person) for person in frame.people],
            }
        case Hand(to) | Decline(to):
            return {"to": to}
    return {}


def _person_fields(person: Person) -> dict[str, Any]:
    return {
        "id": person.id,
        "label": person.label,
        "role": person.role,
        "since": round(person.since, 3),
        "asking": person.asking,
    }


def decode_people(obj: dict[str, Any]) -> People:
    """A ``people`` frame; labels are cleaned here, whatever the server sent."""
    you = integer(obj, "you", 0, MAX_CONNECTION_ID)
    holder = obj.get("holder")
    listed = obj.get("people")
    if not isinstance(listed, list) or len(listed) > MAX_PEOPLE:
        raise BadFrame(f"'people' field 'people' must be a list of at most {MAX_PEOPLE}")
    return People(
        you,
        None if holder is None else integer(obj, "holder", 0, MAX_CONNECTION_ID),
        tuple(_person(item) for item in listed),
    )


def _person(item: object) -> Person:
    if not isinstance(item, dict):
        raise BadFrame("'people' lists something that is not an object")
    obj = {"type": "people", **item}
    since = obj.get("since")
    if isinstance(since, bool) or not isinstance(since, int | float) or not 0 <= since < 2**40:
        raise BadFrame("'people' field 'since' must be seconds since the epoch")
    return Person(
        integer(obj, "id", 0, MAX_CONNECTION_ID),
        clean_label(string(obj, "label")),
        choice(obj, "role", _ROLES),
        float(since),
        boolean(obj, "asking") if "asking" in obj else False,
    )


def decode_target(obj: dict[str, Any]) -> Hand | Decline:
    """A ``hand`` or ``decline`` frame."""
    to = integer(obj, "to", 0, MAX_CONNECTION_ID)
    return Hand(to) if obj["type"] == "hand" else Decline(to)
