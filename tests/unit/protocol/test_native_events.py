"""The one frame<->event mapping: what a stand-in server sends reads back as the same event."""

from __future__ import annotations

import pytest

from observer.protocol import frames
from observer.protocol.events import (
    ControlChanged,
    ControlRefused,
    EchoChanged,
    ErrorReported,
    Event,
    Exited,
    OutputReceived,
    PeopleListed,
    PresenceChanged,
    ProtocolViolation,
    Resized,
    ScreenReceived,
    SessionStarted,
    SnapshotReceived,
    TitleChanged,
)
from observer.protocol.native_events import event_of, frame_of
from observer.protocol.people_frames import Person

EVENTS: list[Event] = [
    SessionStarted("agent", "watch", 80, 24, 7, "other", 2, "build", may_control=False),
    SnapshotReceived(b"\x1b[Hready \xe2\x9c", 80, 24, 7, False),  # cut inside a character
    Resized(120, 40),
    ControlChanged("you"),
    PresenceChanged(3),
    PeopleListed(2, None, (Person(2, "bob", "control", 17.25, True),)),
    ControlRefused(frames.DECLINED, "alice keeps the keyboard"),
    Exited(2),
    EchoChanged(False),
    ControlRefused(frames.CONTROL_HELD, "another client holds control"),
    ErrorReported("bad_request", "no such session"),
    ScreenReceived(9, 40, 5, True, ((0, "\x1b[1mok"),), (2, 0), True, "t"),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda event: type(event).__name__)
def test_every_event_a_server_frame_carries_reads_back_the_same(event: Event) -> None:
    message = frame_of(event)
    assert message is not None
    assert event_of(frames.decode_server_frame(message), 7) == event


def test_output_is_a_binary_frame_at_the_adapters_offset() -> None:
    message = frame_of(OutputReceived(b"hello", 0))
    assert message == b"hello"
    assert event_of(frames.decode_server_frame(message), 12) == OutputReceived(b"hello", 12)


def test_a_snapshot_at_another_offset_than_the_stream_is_a_gap() -> None:
    snapshot = frames.Snapshot(20, 10, 2, "x")
    assert event_of(snapshot, 12) == SnapshotReceived(b"x", 10, 2, 20, True)
    assert event_of(snapshot, None) == SnapshotReceived(b"x", 10, 2, 20, False)


def test_a_title_travels_in_the_output_and_a_violation_has_no_frame() -> None:
    assert frame_of(TitleChanged("agent")) == b"\x1b]2;agent\x07"
    assert frame_of(ProtocolViolation("garbled")) is None
    assert isinstance(event_of(frames.decode_server_frame("{"), 0), ProtocolViolation)
