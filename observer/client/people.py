"""Who is connected to a watched session, as the peer's last ``people`` frame said, in words.

:class:`Presence` is what a native server reports (``features=people``): every connection's
label, role and since when, which of them we are, who holds the keyboard and who asks for it.
The words for it — ``alice has the keyboard``, ``alice (2), bob`` for two connections of one
label — are written here once, for the status bar, the list of who is watching, the recording's
markers and ``observer sessions``. Labels are clean already (the frame's decoder cleans them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from observer.protocol.people_frames import Person


@dataclass(frozen=True, slots=True)
class Presence:
    """Everybody connected, which of them we are (``you``) and who holds the keyboard."""

    you: int
    holder: int | None
    people: tuple[Person, ...]

    def label(self, connection_id: int | None) -> str:
        """The label of connection ``connection_id`` (empty: not connected, or nobody)."""
        for person in self.people:
            if person.id == connection_id:
                return person.label
        return ""

    @property
    def holder_label(self) -> str:
        """Who holds the keyboard (empty: nobody)."""
        return self.label(self.holder)

    @property
    def askers(self) -> tuple[Person, ...]:
        """Who else asks for the keyboard, oldest first as the server lists them."""
        return tuple(p for p in self.people if p.asking and p.id != self.you)

    def others(self) -> tuple[Person, ...]:
        """Everybody but us."""
        return tuple(p for p in self.people if p.id != self.you)


def grouped(labels: Iterable[str]) -> list[str]:
    """Labels in first-seen order, each once, with how many connections carry it when more
    than one: ``["alice (2)", "bob"]``."""
    counts = Counter(labels)
    return [f"{label} ({count})" if count > 1 else label for label, count in counts.items()]


def listed(names: Iterable[str]) -> str:
    """Grouped labels as a line: ``alice (2), bob`` (``-`` for nobody)."""
    return ", ".join(grouped(names)) or "-"


def describe(presence: Presence) -> list[str]:
    """One line per connection for a person reading who is here: label, role, what they do."""
    lines = []
    for person in presence.people:
        doing = "has the keyboard" if person.id == presence.holder else "watching"
        if person.asking:
            doing = "asks for the keyboard"
        you = " (you)" if person.id == presence.you else ""
        may = "may type" if person.role == "control" else "watch only"
        lines.append(f"{person.label}{you}: {doing} · {may}")
    return lines
