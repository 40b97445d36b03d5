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


def test_only_control_mode_may_send_input() -> None:
    assert [m for m in ControlMode if may_send_input(m)] == [C]


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


def test_control_is_reached_only_by_a_grant() -> None:
    for (mode, event), target in TRANSITIONS.items():
        if target is C and mode is not C:
            assert event is ControlEvent.GRANTED


def test_every_pair_is_either_in_the_table_or_refused() -> None:
    for mode, event in itertools.product(ControlMode, ControlEvent):
        assert allows(mode, event) == ((mode, event) in TRANSITIONS)
