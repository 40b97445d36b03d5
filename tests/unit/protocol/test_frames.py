"""Frames of observer.v1 round-trip through their wire form, and bad input never raises."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from observer.protocol import frames as f
from observer.protocol.people_frames import Ask, Decline, Hand, People, Person

SERVER_FRAMES: list[f.ServerFrame] = [
    f.Hello("agent-1", "watch", 120, 40, 42, "none", 3, "vim — main.py"),
    f.Snapshot(42, 120, 40, "\x1b[H\x1b[2Jhello"),
    f.Output(b"\x1b[31mred\x00\xff"),
    f.Resize(80, 24),
    f.Control("other"),
    f.Presence(2),
    f.Exit(0),
    f.Exit(-9),
    f.Exit(None),
    f.Echo(False),
    f.Echo(True),
    f.Error(f.NOT_HOLDER, "input dropped"),
    People(2, 1, (Person(1, "alice", "control", 1.5, False), Person(2, "bob", "watch", 2, True))),
    People(1, None, ()),
]
CLIENT_FRAMES: list[f.ClientFrame] = [
    f.Input(b"ls\r"),
    f.Take(),
    f.Release(),
    f.Resize(100, 30),
    f.Resync(),
    Ask(),
    Hand(3),
    Decline(4),
]


@pytest.mark.parametrize("frame", SERVER_FRAMES, ids=repr)
def test_server_frames_round_trip(frame: f.ServerFrame) -> None:
    assert f.decode_server_frame(f.encode(frame)) == frame


@pytest.mark.parametrize("frame", CLIENT_FRAMES, ids=repr)
def test_client_frames_round_trip(frame: f.ClientFrame) -> None:
    assert f.decode_client_frame(f.encode(frame)) == frame


def test_output_and_input_are_binary_frames_and_control_frames_are_json_text() -> None:
    assert f.encode(f.Output(b"abc")) == b"abc"
    assert f.encode(f.Input(b"\x03")) == b"\x03"
    assert json.loads(f.encode(f.Take())) == {"type": "take"}  # type: ignore[arg-type]
    hello = json.loads(f.encode(SERVER_FRAMES[0]))  # type: ignore[arg-type]
    assert hello == {
        "type": "hello",
        "protocol": 1,
        "identifier": "agent-1",
        "mode": "watch",
        "cols": 120,
        "rows": 40,
        "offset": 42,
        "holder": "none",
        "watchers": 3,
        "title": "vim — main.py",
    }


def test_unknown_fields_are_ignored_for_forward_compatibility() -> None:
    message = '{"type":"presence","watchers":4,"since_v2":"x"}'
    assert f.decode_server_frame(message) == f.Presence(4)


@pytest.mark.parametrize(
    ("message", "reason_part"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"cols": 3}', "no string 'type'"),
        ('{"type": "bogus"}', "unknown"),
        ('{"type": "resize", "cols": "80", "rows": 24}', "'cols' must be an integer"),
        ('{"type": "resize", "cols": true, "rows": 24}', "'cols' must be an integer"),
        ('{"type": "resize", "cols": 0, "rows": 24}', "out of range"),
        ('{"type": "resize", "cols": 80, "rows": 100000}', "out of range"),
        ('{"type": "hello"}', "'identifier' must be a string"),
        ('{"type": "echo"}', "'on' must be true or false"),
        ('{"type": "echo", "on": 0}', "'on' must be true or false"),
        ("[" * 100_000, "not JSON"),
    ],
)
def test_malformed_text_frames_give_a_reason_instead_of_raising(
    message: str, reason_part: str
) -> None:
    result = f.decode_server_frame(message)
    assert isinstance(result, f.Malformed)
    assert reason_part in result.reason
    assert isinstance(f.decode_client_frame(message), f.Malformed)


def test_server_frames_are_not_accepted_from_clients() -> None:
    assert isinstance(f.decode_client_frame(f.encode(f.Control("you"))), f.Malformed)
    assert isinstance(f.decode_server_frame(f.encode(f.Take())), f.Malformed)


def test_a_control_frame_with_an_unknown_holder_is_malformed() -> None:
    result = f.decode_server_frame('{"type":"control","holder":"everyone"}')
    assert result == f.Malformed("'control' field 'holder' has unknown value")


@given(st.one_of(st.binary(max_size=64), st.text(max_size=64)))
def test_random_messages_never_raise(message: str | bytes) -> None:
    assert f.decode_client_frame(message) is not None
    assert f.decode_server_frame(message) is not None


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@given(
    st.sampled_from(["hello", "snapshot", "resize", "control", "exit", "take", "error", "x"]),
    st.dictionaries(st.sampled_from(["cols", "rows", "offset", "holder", "data"]), json_values),
)
def test_random_json_objects_never_raise(kind: str, fields: dict[str, object]) -> None:
    message = json.dumps({"type": kind, **fields})
    assert f.decode_client_frame(message) is not None
    assert f.decode_server_frame(message) is not None


def test_the_echo_frame_is_compact_json() -> None:
    assert f.encode(f.Echo(False)) == '{"type":"echo","on":false}'
