"""A tile says when somebody else types into its agent, by name where the peer says who."""

from __future__ import annotations

from observer.app.widgets.tile import title_line
from observer.client.watched import WatchedSession
from observer.protocol import frames as f
from observer.protocol.people_frames import People, Person
from tests.unit.client.drive import connect, control


def test_a_tile_names_who_else_holds_the_keyboard() -> None:
    session = WatchedSession()
    connect(session)
    assert "⌨" not in title_line(0, "agent-1", session.status(0.0)).plain
    session.received(control("other"), 0.1)
    assert "⌨ someone" in title_line(0, "agent-1", session.status(0.1)).plain
    people = People(2, 1, (Person(1, "alice", "control", 1.0), Person(2, "me", "watch", 2.0)))
    session.received(f.encode(people), 0.2)
    assert "⌨ alice" in title_line(0, "agent-1", session.status(0.2)).plain
    session.received(control("none"), 0.3)
    assert "⌨" not in title_line(0, "agent-1", session.status(0.3)).plain
