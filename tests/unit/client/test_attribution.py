"""Who did what in the recording: markers name the holder, a handover and who watched."""

from __future__ import annotations

from observer.client.watched import WatchedSession
from observer.protocol import frames as f
from observer.protocol.people_frames import People, Person
from tests.unit.client.drive import connect, control, drain, recorded

ALICE = Person(1, "alice", "control", 1.0)
BOB = Person(2, "bob", "control", 2.0)
CAROL = Person(3, "carol", "watch", 3.0)


def people(you: int, holder: int | None, *listed: Person) -> str:
    message = f.encode(People(you, holder, listed))
    assert isinstance(message, str)
    return message


def test_bobs_recording_names_alice_then_the_handover_to_bob() -> None:
    policy, sink = recorded(record_input=True)
    bob = WatchedSession(recording=policy)
    connect(bob)
    bob.received(control("other"), 0.5)
    bob.received(people(2, 1, ALICE, BOB, CAROL), 0.5)
    drain(bob)
    assert bob.take(1.0)  # asks alice
    bob.received(people(2, 1, ALICE, BOB.__class__(2, "bob", "control", 2.0, True), CAROL), 1.1)
    # The server sends who holds the keyboard now, then the control frame that moves it.
    bob.received(people(2, 2, ALICE, BOB, CAROL), 2.0)
    bob.received(control("you"), 2.0)
    assert bob.type(b"y\r", 2.5)
    bob.release(3.0)
    bob.received(people(2, None, ALICE, BOB, CAROL), 3.1)
    bob.received(control("none"), 3.1)
    assert sink.markers()[1:] == [
        "takeover start: alice; watching: bob, carol",
        "handover: alice → bob; watching: alice, carol",
        "takeover end: bob",
    ]
    assert ("i", b"y\r") in sink.events


def test_alices_recording_names_bob_as_the_taker() -> None:
    policy, sink = recorded()
    alice = WatchedSession(recording=policy, want_control=True)
    connect(alice)
    alice.received(control("you"), 0.1)
    alice.received(people(1, 1, ALICE, BOB), 0.2)
    drain(alice)
    alice.received(people(1, 2, ALICE, BOB), 2.0)
    alice.received(control("other"), 2.0)
    assert sink.markers()[1:] == [
        "takeover start: alice; watching: bob",
        "handover: alice → bob; watching: alice",
    ]


def test_a_server_that_names_nobody_keeps_the_old_markers() -> None:
    policy, sink = recorded()
    session = WatchedSession(recording=policy)
    connect(session)
    session.received(control("other"), 0.5)
    drain(session)
    session.received(control("none"), 1.0)
    assert sink.markers()[1:] == ["takeover start: another client", "takeover end"]
