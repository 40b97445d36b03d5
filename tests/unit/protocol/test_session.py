"""The native client session: events from messages, offsets for resume, nothing sent in watch mode."""

from __future__ import annotations

import json

from observer.protocol import frames as f
from observer.protocol.events import (
    ControlChanged,
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
from observer.protocol.session import NativeClientSession


def hello(offset: int = 10, mode: f.Mode = "watch", holder: f.Holder = "none") -> str:
    return f.encode(f.Hello("a", mode, 80, 24, offset, holder, 1, "t"))  # type: ignore[return-value]


def snapshot(offset: int) -> str:
    return f.encode(f.Snapshot(offset, 80, 24, "\x1b[Hscreen"))  # type: ignore[return-value]


def test_hello_and_snapshot_start_the_session_without_a_gap() -> None:
    session = NativeClientSession()
    assert session.receive(hello(10)) == [SessionStarted("a", "watch", 80, 24, 10, "none", 1, "t")]
    assert session.receive(snapshot(10)) == [SnapshotReceived(b"\x1b[Hscreen", 80, 24, 10, False)]
    assert session.offset == 10


def test_output_advances_the_stream_offset() -> None:
    session = NativeClientSession()
    session.receive(hello(10))
    session.receive(snapshot(10))
    assert session.receive(b"abc") == [OutputReceived(b"abc", 10)]
    assert session.receive(b"de") == [OutputReceived(b"de", 13)]
    assert session.offset == 15


def test_resume_keeps_its_offset_and_gets_the_missing_bytes() -> None:
    session = NativeClientSession(since=15)
    assert (
        session.query("agent")
        == "/?identifier=agent&api-version=2024-02-02-preview&mode=watch&since=15&features=echo"
    )
    session.receive(hello(15))
    assert session.receive(b"xyz") == [OutputReceived(b"xyz", 15)]


def test_a_snapshot_instead_of_the_asked_bytes_is_a_gap() -> None:
    session = NativeClientSession(since=15)
    session.receive(hello(900))
    assert session.receive(snapshot(900)) == [SnapshotReceived(b"\x1b[Hscreen", 80, 24, 900, True)]
    assert session.offset == 900


def test_a_snapshot_after_falling_behind_is_a_gap() -> None:
    session = NativeClientSession()
    session.receive(hello(0))
    session.receive(snapshot(0))
    session.receive(b"12345")
    [event] = session.receive(snapshot(5000))
    assert isinstance(event, SnapshotReceived) and event.gap


def test_watch_mode_sends_no_input_and_no_resize_at_all() -> None:
    session = NativeClientSession()
    session.receive(hello())
    assert session.mode == "watch"
    assert session.send_input(b"rm -rf /\r") == []
    assert session.send_resize(100, 30) == []
    assert session.release_control() == []


def test_taking_control_sends_take_and_input_flows_only_after_the_grant() -> None:
    session = NativeClientSession()
    session.receive(hello())
    assert [json.loads(m) for m in session.request_control()] == [{"type": "take"}]
    assert session.request_control() == []
    assert session.send_input(b"y") == []
    assert session.receive(f.encode(f.Control("you"))) == [ControlChanged("you")]
    assert session.mode == "control"
    assert session.send_input(b"y\r") == [b"y\r"]
    assert [json.loads(m) for m in session.send_resize(100, 30)] == [
        {"type": "resize", "cols": 100, "rows": 30}
    ]
    assert session.send_resize(0, 30) == []


def test_release_stops_input_before_the_server_confirms() -> None:
    session = NativeClientSession(control=True)
    assert "mode=control" in session.query("a")
    session.receive(hello(mode="control", holder="you"))
    assert session.mode == "control"
    assert [json.loads(m) for m in session.release_control()] == [{"type": "release"}]
    assert session.send_input(b"x") == []
    assert session.receive(f.encode(f.Control("none"))) == [ControlChanged("none")]
    assert session.mode == "watch"


def test_a_refused_take_returns_to_watch() -> None:
    session = NativeClientSession()
    session.receive(hello(holder="other"))
    session.request_control()
    events = session.receive(f.encode(f.Error(f.CONTROL_HELD, "held")))
    assert events == [ErrorReported(f.CONTROL_HELD, "held")]
    assert session.mode == "watch"
    assert session.request_control() != []


def test_other_server_frames_become_events() -> None:
    session = NativeClientSession()
    session.receive(hello())
    assert session.receive('{"type":"resize","cols":100,"rows":30}') == [Resized(100, 30)]
    assert session.receive('{"type":"presence","watchers":3}') == [PresenceChanged(3)]
    assert session.receive('{"type":"exit","status":-15}') == [Exited(-15)]
    assert session.receive('{"type":"echo","on":false}') == [EchoChanged(False)]
    assert session.request_resync() == ['{"type":"resync"}']


def test_the_session_asks_for_echo_frames() -> None:
    assert "&features=echo" in NativeClientSession().query("a")


def test_malformed_messages_become_violations_and_the_session_goes_on() -> None:
    session = NativeClientSession()
    session.receive(hello())
    [event] = session.receive("{oops")
    assert isinstance(event, ProtocolViolation)
    assert session.receive(b"ok") == [OutputReceived(b"ok", 10)]


def test_output_before_hello_is_reported() -> None:
    session = NativeClientSession()
    events = session.receive(b"early")
    assert isinstance(events[0], ProtocolViolation)
    assert events[1] == OutputReceived(b"early", 0)


def test_native_session_declares_every_capability_and_its_subprotocol() -> None:
    session = NativeClientSession()
    assert session.subprotocol == "observer.v1"
    caps = session.capabilities
    assert caps.snapshot and caps.resume and caps.control and caps.resize
    assert session.opening_messages() == []
