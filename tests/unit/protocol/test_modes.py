"""The mode table: only CONTROL may type, and the ways in and out of it."""

from __future__ import annotations

import itertools

import pytest

from observer.errors import InvalidState
from observer.protocol.modes import (
    TRANSITIONS,
    ControlEvent,
    ControlMode,
    allows,
    may_send_input,
    next_mode,
)

W, Q, C, R = ControlMode.WATCH, ControlMode.REQUESTING, ControlMode.CONTROL, ControlMode.RELEASED
A, K = ControlMode.ASKING, ControlMode.ASKED
E = ControlEvent


def test_only_the_holder_may_send_input_asked_or_not() -> None:
    assert [m for m in ControlMode if may_send_input(m)] == [C, K]


def test_take_then_grant_reaches_control_and_release_then_confirm_returns_to_watch() -> None:
    mode = W
    for event, expected in [
        (ControlEvent.REQUEST, Q),
        (ControlEvent.GRANTED, C),
        (ControlEvent.RELEASE, R),
        (ControlEvent.LOST, W),
    ]:
        mode = next_mode(mode, event)  # type: ignore[assignment]
        assert mode is expected


def test_a_denied_request_returns_to_watch() -> None:
    assert next_mode(Q, ControlEvent.DENIED) is W


def test_input_stops_at_release_before_the_server_confirms() -> None:
    released = next_mode(C, ControlEvent.RELEASE)
    assert released is R
    assert not may_send_input(released)


@pytest.mark.parametrize(
    ("mode", "event"),
    [(W, ControlEvent.RELEASE), (W, ControlEvent.DENIED), (C, ControlEvent.DENIED)],
)
def test_pairs_outside_the_table_raise(mode: ControlMode, event: ControlEvent) -> None:
    assert not allows(mode, event)
    with pytest.raises(InvalidState):
        next_mode(mode, event)


def test_the_keyboard_is_reached_only_by_a_grant() -> None:
    for (mode, event), target in TRANSITIONS.items():
        if may_send_input(target) and not may_send_input(mode):
            assert event is ControlEvent.GRANTED


def test_asking_then_a_grant_reaches_control() -> None:
    assert next_mode(next_mode(W, E.ASK), E.GRANTED) is C


def test_a_declined_ask_returns_to_watch_and_a_withdrawn_one_to_released() -> None:
    assert next_mode(A, E.DENIED) is W
    assert next_mode(A, E.RELEASE) is R
    assert not may_send_input(A)


def test_the_asked_holder_types_until_it_answers_or_hands_over() -> None:
    asked = next_mode(C, E.ASKED)
    assert asked is K and may_send_input(asked)
    assert next_mode(asked, E.ANSWERED) is C
    assert next_mode(asked, E.LOST) is W
    assert next_mode(asked, E.RELEASE) is R


NEW_PAIRS = {
    (W, E.ASK): A,
    (R, E.ASK): A,
    (A, E.ASK): A,
    (A, E.GRANTED): C,
    (A, E.DENIED): W,
    (A, E.RELEASE): R,
    (A, E.LOST): A,
    (C, E.ASKED): K,
    (K, E.ASKED): K,
    (K, E.ANSWERED): C,
    (K, E.GRANTED): K,
    (K, E.REQUEST): K,
    (K, E.RELEASE): R,
    (K, E.LOST): W,
}


def test_the_hand_over_pairs_are_exactly_these() -> None:
    new_modes, new_events = {A, K}, {E.ASK, E.ASKED, E.ANSWERED}
    found = {
        pair: target
        for pair, target in TRANSITIONS.items()
        if pair[0] in new_modes or pair[1] in new_events
    }
    assert found == NEW_PAIRS


@pytest.mark.parametrize(
    ("mode", "event"),
    [
        pair
        for pair in itertools.product(ControlMode, ControlEvent)
        if (pair[0] in (A, K) or pair[1] in (E.ASK, E.ASKED, E.ANSWERED)) and pair not in NEW_PAIRS
    ],
)
def test_every_illegal_hand_over_pair_raises(mode: ControlMode, event: ControlEvent) -> None:
    assert not allows(mode, event)
    with pytest.raises(InvalidState):
        next_mode(mode, event)


def test_every_pair_is_either_in_the_table_or_refused() -> None:
    for mode, event in itertools.product(ControlMode, ControlEvent):
        assert allows(mode, event) == ((mode, event) in TRANSITIONS)
