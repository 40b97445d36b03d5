"""The arbiter's presence and hand-over: who is here, asking, answering, one holder always."""

from __future__ import annotations

import itertools

from observer.protocol import frames as f
from observer.protocol.arbiter import (
    ControlArbiter,
    ControlMoved,
    PeopleChanged,
    Reply,
    ServerConnection,
    Tell,
    WriteToPty,
)
from observer.protocol.modes import ControlMode
from observer.protocol.people_frames import Ask, Decline, Hand, Person

TAKE = f.encode(f.Take())
RELEASE = f.encode(f.Release())
ASK = f.encode(Ask())


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def people(
    *labels: str, grant_idle: float | None = None
) -> tuple[list[ServerConnection], ControlArbiter, Clock]:
    clock = Clock()
    arbiter = ControlArbiter(clock=clock, grant_idle=grant_idle)
    seats = [
        ServerConnection(n, "control", arbiter, label=label, since=1000.0 + n, people=True)
        for n, label in enumerate(labels, start=1)
    ]
    return seats, arbiter, clock


def holders(arbiter: ControlArbiter) -> list[int]:
    return [seat.id for seat in arbiter.seats.values() if seat.holder == "you"]


def test_the_people_frame_names_everybody_their_role_since_and_the_holder() -> None:
    (alice, bob), arbiter, _ = people("alice", "bob")
    alice.receive(TAKE)
    frame = arbiter.people(bob.id)
    assert frame.you == 2 and frame.holder == 1
    assert frame.people == (
        Person(1, "alice", "control", 1001.0, False),
        Person(2, "bob", "control", 1002.0, False),
    )


def test_joining_and_leaving_change_the_people_only_for_clients_that_asked() -> None:
    arbiter = ControlArbiter()
    old = ServerConnection(1, "control", arbiter)
    assert old.open(want_control=False) == []
    new = ServerConnection(2, "watch", arbiter, label="carol", people=True)
    assert new.open(want_control=False) == [PeopleChanged()]
    assert old.close() == [PeopleChanged()]


def test_an_ask_while_held_waits_for_the_holder_who_keeps_typing() -> None:
    (alice, bob), arbiter, _ = people("alice", "bob")
    alice.receive(TAKE)
    assert bob.receive(ASK) == [PeopleChanged()]
    assert bob.mode is ControlMode.ASKING and alice.mode is ControlMode.ASKED
    assert arbiter.people(alice.id).people[1].asking
    assert alice.receive(b"ls\r") == [WriteToPty(b"ls\r")]
    assert bob.receive(b"x")[0] == Reply(
        f.Error(f.NOT_HOLDER, "input dropped: you are watching; take control first")
    )


def test_hand_moves_the_keyboard_in_one_step() -> None:
    (alice, bob), arbiter, _ = people("alice", "bob")
    alice.receive(TAKE)
    bob.receive(ASK)
    assert alice.receive(f.encode(Hand(bob.id))) == [ControlMoved()]
    assert arbiter.holder == bob.id
    assert bob.mode is ControlMode.CONTROL and alice.mode is ControlMode.WATCH
    assert bob.receive(b"y") == [WriteToPty(b"y")]
    assert alice.receive(b"n")[0] != WriteToPty(b"n")


def test_decline_tells_the_asker_and_the_holder_stops_being_asked() -> None:
    (alice, bob), arbiter, _ = people("alice", "bob")
    alice.receive(TAKE)
    bob.receive(ASK)
    decisions = alice.receive(f.encode(Decline(bob.id)))
    assert decisions == [
        Tell(bob.id, f.Error(f.DECLINED, "alice keeps the keyboard")),
        PeopleChanged(),
    ]
    assert bob.mode is ControlMode.WATCH and alice.mode is ControlMode.CONTROL
    assert arbiter.holder == alice.id and not arbiter.asking


def test_an_unanswered_ask_is_declined_after_the_timeout() -> None:
    (alice, bob), arbiter, clock = people("alice", "bob")
    alice.receive(TAKE)
    bob.receive(ASK)
    clock.now += arbiter.ask_timeout - 1
    assert arbiter.tick() == []
    clock.now += 1
    [told, _] = arbiter.tick()
    assert told == Tell(bob.id, f.Error(f.DECLINED, "alice did not answer; ask again later"))
    assert holders(arbiter) == [alice.id] and alice.mode is ControlMode.CONTROL


def test_with_grant_idle_an_idle_holder_is_handed_over_at_once_or_later() -> None:
    (alice, bob, carol), arbiter, clock = people("alice", "bob", "carol", grant_idle=60)
    alice.receive(TAKE)
    clock.now += 10
    alice.receive(b"x")
    assert bob.receive(ASK) == [PeopleChanged()]
    clock.now += 59
    assert arbiter.tick() == []
    clock.now += 1
    assert arbiter.tick() == [ControlMoved()]
    assert holders(arbiter) == [bob.id]
    clock.now += 60
    assert carol.receive(ASK) == [ControlMoved()]
    assert holders(arbiter) == [carol.id]


def test_only_the_holder_may_hand_or_decline_and_only_to_a_control_token() -> None:
    arbiter = ControlArbiter()
    alice = ServerConnection(1, "control", arbiter, label="alice", people=True)
    bob = ServerConnection(2, "control", arbiter, label="bob", people=True)
    carol = ServerConnection(3, "watch", arbiter, label="carol", people=True)
    alice.receive(TAKE)
    refused = f.HANDOVER_REFUSED
    assert bob.receive(f.encode(Hand(bob.id)))[0].frame.code == refused  # type: ignore[union-attr]
    assert alice.receive(f.encode(Hand(carol.id)))[0].frame.code == refused  # type: ignore[union-attr]
    assert alice.receive(f.encode(Hand(99)))[0].frame.code == refused  # type: ignore[union-attr]
    assert alice.receive(f.encode(Decline(bob.id)))[0].frame.code == refused  # type: ignore[union-attr]
    assert carol.receive(ASK)[0].frame.code == f.WATCH_ONLY  # type: ignore[union-attr]
    assert alice.receive(f.encode(Hand(bob.id))) == [ControlMoved()]  # not asking: still fine
    assert holders(arbiter) == [bob.id]


def test_a_holder_whose_client_cannot_be_asked_declines_at_once() -> None:
    arbiter = ControlArbiter()
    old = ServerConnection(1, "control", arbiter, label="alice")
    bob = ServerConnection(2, "control", arbiter, label="bob", people=True)
    old.receive(TAKE)
    [refusal] = bob.receive(ASK)
    assert isinstance(refusal, Reply) and refusal.frame.code == f.DECLINED  # type: ignore[union-attr]
    assert bob.mode is ControlMode.WATCH


def test_releasing_hands_to_the_oldest_asker_and_leaving_withdraws_an_ask() -> None:
    (alice, bob, carol), arbiter, _ = people("alice", "bob", "carol")
    alice.receive(TAKE)
    bob.receive(ASK)
    carol.receive(ASK)
    assert alice.receive(RELEASE) == [ControlMoved()]
    assert holders(arbiter) == [bob.id] and bob.mode is ControlMode.ASKED
    assert carol.close() == [PeopleChanged()]
    assert bob.mode is ControlMode.CONTROL and not arbiter.asking


def test_an_asker_withdraws_with_release_and_a_take_while_asking_changes_nothing() -> None:
    (alice, bob), _, _ = people("alice", "bob")
    alice.receive(TAKE)
    bob.receive(ASK)
    assert bob.receive(TAKE) == []
    assert bob.receive(RELEASE) == [PeopleChanged()]
    assert bob.mode is ControlMode.WATCH and alice.mode is ControlMode.CONTROL


def test_two_askers_and_a_release_at_once_end_with_exactly_one_holder() -> None:
    """Every order in which the three messages can arrive leaves one holder and no lost ask."""
    for order in itertools.permutations(("bob", "carol", "alice")):
        (alice, bob, carol), arbiter, _ = people("alice", "bob", "carol")
        alice.receive(TAKE)
        seats = {"alice": alice, "bob": bob, "carol": carol}
        for name in order:
            seats[name].receive(RELEASE if name == "alice" else ASK)
        assert len(holders(arbiter)) == 1, order
        holder = arbiter.holder
        assert holder in (bob.id, carol.id), order
        waiting = {bob.id, carol.id} - {holder}
        assert set(arbiter.asking) == waiting, order
        assert all(arbiter.seats[w].mode is ControlMode.ASKING for w in waiting)
        assert arbiter.seats[holder].mode is ControlMode.ASKED  # type: ignore[index]
