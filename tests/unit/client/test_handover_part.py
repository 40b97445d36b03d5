"""Control with presence: a held keyboard is asked for, the holder is told and answers."""

from __future__ import annotations

from observer.client.events import KeyboardAsked, NoticePosted
from observer.protocol.events import PeopleListed
from observer.protocol.modes import ControlMode
from observer.protocol.people_frames import Person
from tests.unit.client.test_control_part import control, sent

ALICE = Person(1, "alice", "control", 1.0)
BOB = Person(2, "bob", "control", 2.0)


def listed(you: int, holder: int | None, *people: Person) -> PeopleListed:
    return PeopleListed(you, holder, people)


def test_taking_a_keyboard_someone_holds_asks_them_by_name() -> None:
    part, outlet = control()
    part.holder_changed("other", 0.0)
    assert "Another client" in part.cannot_take()  # an older server: no names, no asking
    part.people_listed(listed(2, 1, ALICE, BOB), 0.0)
    assert part.cannot_take() == "" and part.holder_label == "alice"
    assert part.take(1.0) and part.mode is ControlMode.ASKING
    assert sent(outlet) == [{"type": "ask"}]
    assert NoticePosted("Asked alice for the keyboard.") in outlet.take_events()
    assert not part.type(b"x", 1.0)
    part.holder_changed("you", 2.0)
    assert part.in_control and part.type(b"x", 2.0)


def test_a_declined_ask_returns_to_watching_and_says_why() -> None:
    part, outlet = control()
    part.holder_changed("other", 0.0)
    part.people_listed(listed(2, 1, ALICE, BOB), 0.0)
    part.take(1.0)
    outlet.take_events()
    part.refused("declined", "alice keeps the keyboard", 2.0)
    assert part.mode is ControlMode.WATCH
    assert NoticePosted("alice keeps the keyboard", "warning") in outlet.take_events()


def test_the_holder_is_told_once_per_request_and_answers() -> None:
    part, outlet = control()
    part.take(0.0)
    part.holder_changed("you", 0.0)
    outlet.data_to_send()
    asking_bob = Person(2, "bob", "control", 2.0, asking=True)
    part.people_listed(listed(1, 1, ALICE, asking_bob), 1.0)
    part.people_listed(listed(1, 1, ALICE, asking_bob), 1.5)
    events = outlet.take_events()
    assert events.count(KeyboardAsked(2, "bob")) == 1
    assert NoticePosted("bob asks for the keyboard") in events
    assert part.mode is ControlMode.ASKED and part.type(b"still typing", 1.5)
    outlet.data_to_send()
    assert part.decline(2, 2.0) and sent(outlet) == [{"type": "decline", "to": 2}]
    part.people_listed(listed(1, 1, ALICE, BOB), 2.5)
    assert part.mode is ControlMode.CONTROL
    assert not part.decline(2, 3.0)  # nobody asks now
    assert part.hand_over(2, 3.0) and sent(outlet) == [{"type": "hand", "to": 2}]
    part.holder_changed("other", 3.5)
    assert part.mode is ControlMode.WATCH and not part.hand_over(2, 4.0)


def test_an_asker_that_withdraws_is_watching_again_when_the_server_says_so() -> None:
    part, _ = control()
    part.holder_changed("other", 0.0)
    part.people_listed(listed(2, 1, ALICE, Person(2, "bob", "control", 2.0, asking=True)), 0.0)
    part.take(1.0)
    part.release(2.0)
    assert part.mode is ControlMode.RELEASED and not part.in_control
    part.people_listed(listed(2, 1, ALICE, BOB), 3.0)
    assert part.mode is ControlMode.WATCH
