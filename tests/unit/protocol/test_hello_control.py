"""``hello``'s ``control`` field: what the token allows, said by servers that know it; absent
(None) from older servers, and ignored by older clients (they ignore fields they do not know)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from observer.protocol import frames
from observer.protocol.adapters.native import NativeAdapter
from observer.protocol.events import SessionStarted

HELLO = frames.Hello("agent", "watch", 80, 24, 0, "none", 1, "")


@pytest.mark.parametrize("control", [True, False])
def test_a_hello_that_says_control_reaches_the_session_started_event(control: bool) -> None:
    wire = frames.encode(dataclasses.replace(HELLO, control=control))
    assert isinstance(wire, str) and json.loads(wire)["control"] is control
    (event,) = NativeAdapter().receive(wire)
    assert isinstance(event, SessionStarted) and event.may_control is control


def test_a_hello_from_an_older_server_says_nothing_about_control() -> None:
    wire = frames.encode(HELLO)
    assert isinstance(wire, str) and "control" not in json.loads(wire)
    (event,) = NativeAdapter().receive(wire)
    assert isinstance(event, SessionStarted) and event.may_control is None


def test_a_control_that_is_not_a_boolean_is_malformed() -> None:
    wire = json.loads(str(frames.encode(HELLO)))
    wire["control"] = "yes"
    assert isinstance(frames.decode_server_frame(json.dumps(wire)), frames.Malformed)
