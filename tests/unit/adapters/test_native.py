"""The native adapter: events from messages, offsets for resume, refusals of take told apart."""

from __future__ import annotations

import json

from observer.protocol import frames as f
from observer.protocol.adapters.native import NativeAdapter, query
from observer.protocol.events import (
    ControlChanged,
    ControlRefused,
    EchoChanged,
    ErrorReported,
    Exited,
    OutputReceived,
    PresenceChanged,
    ProtocolViolation,
    Resized,
    SessionStarted,
    SnapshotReceived,
)


def hello(offset: int = 10, mode: f.Mode = "watch", holder: f.Holder = "none") -> str:
    return f.encode(f.Hello("a", mode, 80, 24, offset, holder, 1, "t"))  # type: ignore[return-value]


def snapshot(offset: int) -> str:
    return f.encode(f.Snapshot(offset, 80, 24, "\x1b[Hscreen"))  # type: ignore[return-value]


def test_hello_and_snapshot_start_the_session_without_a_gap() -> None:
    session = NativeAdapter()
    assert session.receive(hello(10)) == [SessionStarted("a", "watch", 80, 24, 10, "none", 1, "t")]
    assert session.receive(snapshot(10)) == [SnapshotReceived(b"\x1b[Hscreen", 80, 24, 10, False)]
    assert session.offset == 10


def test_output_advances_the_stream_offset() -> None:
    session = NativeAdapter()
    session.receive(hello(10))
    session.receive(snapshot(10))
    assert session.receive(b"abc") == [OutputReceived(b"abc", 10)]
    assert session.receive(b"de") == [OutputReceived(b"de", 13)]
    assert session.offset == 15


def test_resume_keeps_its_offset_and_gets_the_missing_bytes() -> None:
    session = NativeAdapter(since=15)
    assert query("agent", since=15) == (
        "/?identifier=agent&api-version=2024-02-02-preview&mode=watch&since=15"
        "&features=echo%2Cpeople"
    )
    session.receive(hello(15))
    assert session.receive(b"xyz") == [OutputReceived(b"xyz", 15)]


def test_a_snapshot_instead_of_the_asked_bytes_is_a_gap() -> None:
    session = NativeAdapter(since=15)
    session.receive(hello(900))
    assert session.receive(snapshot(900)) == [SnapshotReceived(b"\x1b[Hscreen", 80, 24, 900, True)]
    assert session.offset == 900


def test_a_snapshot_after_falling_behind_is_a_gap() -> None:
    session = NativeAdapter()
    session.receive(hello(0))
    session.receive(snapshot(0))
    session.receive(b"12345")
    [event] = session.receive(snapshot(5000))
    assert isinstance(event, SnapshotReceived) and event.gap


def test_a_refused_take_is_told_apart_from_other_errors() -> None:
    session = NativeAdapter()
    session.receive(hello(holder="other"))
    assert session.receive(f.encode(f.Error(f.CONTROL_HELD, "held"))) == [
        ControlRefused(f.CONTROL_HELD, "held")
    ]
    assert session.receive(f.encode(f.Error(f.NOT_HOLDER, "no"))) == [
        ErrorReported(f.NOT_HOLDER, "no")
    ]
    assert session.receive(f.encode(f.Control("you"))) == [ControlChanged("you")]


def test_requests_are_encoded_as_frames() -> None:
    session = NativeAdapter()
    assert [json.loads(m) for m in session.encode_take()] == [{"type": "take"}]
    assert [json.loads(m) for m in session.encode_release()] == [{"type": "release"}]
    assert [json.loads(m) for m in session.encode_resize(100, 30)] == [
        {"type": "resize", "cols": 100, "rows": 30}
    ]
    assert session.encode_resize(0, 30) == [] and session.encode_input(b"y") == [b"y"]


def test_other_server_frames_become_events() -> None:
    session = NativeAdapter()
    session.receive(hello())
    assert session.receive('{"type":"resize","cols":100,"rows":30}') == [Resized(100, 30)]
    assert session.receive('{"type":"presence","watchers":3}') == [PresenceChanged(3)]
    assert session.receive('{"type":"exit","status":-15}') == [Exited(-15)]
    assert session.receive('{"type":"echo","on":false}') == [EchoChanged(False)]
    assert session.encode_resync() == ['{"type":"resync"}']


def test_the_session_asks_for_echo_frames() -> None:
    assert "&features=echo" in query("a")


def test_malformed_messages_become_violations_and_the_session_goes_on() -> None:
    session = NativeAdapter()
    session.receive(hello())
    [event] = session.receive("{oops")
    assert isinstance(event, ProtocolViolation)
    assert session.receive(b"ok") == [OutputReceived(b"ok", 10)]


def test_output_before_hello_is_reported() -> None:
    session = NativeAdapter()
    events = session.receive(b"early")
    assert isinstance(events[0], ProtocolViolation)
    assert events[1] == OutputReceived(b"early", 0)


def test_native_session_declares_every_capability_and_its_subprotocol() -> None:
    session = NativeAdapter()
    assert session.subprotocol == "observer.v1"
    caps = session.capabilities
    assert caps.snapshot and caps.resume and caps.resize and caps.watchers
    assert caps.arbitration == "server" and caps.exit == "frame" and caps.reconnect == "resume"
    assert session.opening_messages() == []
