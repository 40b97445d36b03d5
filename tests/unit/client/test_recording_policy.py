"""The one recording policy: the same events give the same markers, whoever records."""

from __future__ import annotations

from observer.client.recording_policy import RESET
from observer.client.watched import WatchedSession
from observer.commands.record import parse_all
from observer.protocol import frames as f
from observer.protocol.adapter import Message
from observer.protocol.adapters.native import NativeAdapter
from observer.protocol.events import EchoChanged, Event
from tests.unit.client.drive import connect, control, hello, notices, recorded, snapshot


def test_a_session_records_snapshot_connect_output_takeover_pair_and_exit() -> None:
    """``connect`` follows the first screen: a player pausing on it shows that screen."""
    policy, sink = recorded(record_input=True)
    session = WatchedSession(recording=policy)
    connect(session)
    session.received(b"hello", 0.1)
    session.take(0.2)
    session.received(control("you"), 0.3)
    session.type(b"y\r", 0.4)
    session.release(0.5)
    session.received(control("none"), 0.6)
    session.received(f.encode(f.Exit(0)), 0.7)
    assert sink.events == [
        ("o", b"\x1b[Hscreen"),
        ("m", "connect"),
        ("o", b"hello"),
        ("m", "takeover start"),
        ("i", b"y\r"),
        ("m", "takeover end"),
        ("x", 0),
    ]


def test_one_outage_is_one_marker_pair_however_many_attempts() -> None:
    policy, sink = recorded()
    session = WatchedSession(recording=policy)
    connect(session)
    session.received(b"abc", 0.1)
    session.connection_closed("the connection dropped", code=None, now=1.0)
    for attempt in range(5):
        session.connection_failed("refused", retryable=True, now=2.0 + attempt)
    connect(session, now=10.0)  # resumes with since=3: the server replays from there
    session.received(b"def", 10.1)
    assert sink.markers() == ["connect", "disconnect", "reconnect"]
    assert sink.output_bytes() == b"\x1b[Hscreenabcdef"


def test_a_snapshot_instead_of_the_missed_bytes_is_a_gap_with_a_reset() -> None:
    policy, sink = recorded()
    session = WatchedSession(recording=policy)
    connect(session)
    session.received(b"abc", 0.1)
    session.connection_closed("the connection dropped", code=None, now=1.0)
    request = session.join_request()
    assert request.since == 3
    connect(session, now=2.0)  # hello at since; the server could not replay: a snapshot
    session.received(snapshot(900, "\x1b[Hnew"), 2.1)
    assert sink.markers() == ["connect", "disconnect", "reconnect", "gap"]
    assert sink.events[-1] == ("o", RESET + b"\x1b[Hnew")
    assert session.status(3.0).gaps == 1


def test_bytes_resent_after_a_resync_snapshot_are_written_once() -> None:
    policy, sink = recorded()
    session = WatchedSession(recording=policy)
    connect(session)
    session.received(b"0123456789", 0.1)  # offsets 0..10
    session.received(snapshot(4, "\x1b[Hlagging model"), 0.2)  # the server's model was behind
    session.received(b"456789AB", 0.3)  # it resends from its snapshot's offset on
    assert sink.output_bytes() == b"\x1b[Hscreen0123456789AB"
    assert sink.markers() == ["connect"]


def test_a_snapshot_that_skips_bytes_never_received_is_a_gap() -> None:
    policy, sink = recorded()
    session = WatchedSession(recording=policy)
    connect(session)
    session.received(b"abc", 0.1)
    session.received(snapshot(50, "\x1b[Hlater"), 0.2)
    assert sink.markers() == ["connect", "gap"]
    assert sink.events[-1] == ("o", RESET + b"\x1b[Hlater")


def test_input_is_recorded_only_when_asked() -> None:
    policy, sink = recorded(record_input=False)
    session = WatchedSession(recording=policy)
    connect(session, "raw")
    session.received(b"$ ", 0.0)
    session.take(0.1)
    session.type(b"secret\r", 0.2)
    assert not [e for e in sink.events if e[0] == "i"]


class EchoReportingPeer(NativeAdapter):
    """The native adapter, plus two literal messages standing for the peer's echo reports."""

    def receive(self, message: Message) -> list[Event]:
        if message in ("echo off", "echo on"):
            return [EchoChanged(on=message == "echo on")]
        return super().receive(message)


def test_keys_typed_while_echo_is_off_are_not_recorded() -> None:
    policy, sink = recorded(record_input=True)
    session = WatchedSession(recording=policy)
    session.connection_opened(EchoReportingPeer(), 0.0)
    session.received(hello(), 0.0)
    session.received(snapshot(0), 0.0)
    session.take(0.0)
    session.received(control("you"), 0.0)
    session.type(b"ls\r", 0.1)
    session.received("echo off", 0.2)
    for key in b"hunter2\r":
        session.type(bytes([key]), 0.3)
    assert not session.status(0.3).echo
    session.received("echo on", 0.4)
    session.type(b"exit\r", 0.5)
    typed = b"".join(data for code, data in sink.events if code == "i")  # type: ignore[misc]
    assert typed == b"ls\rexit\r"
    assert sink.markers().count("input hidden: echo was off") == 1


def test_a_jupyter_control_recording_pairs_its_takeover_markers() -> None:
    policy, sink = recorded()
    session = WatchedSession(recording=policy, want_control=True)
    connect(session, "jupyter")
    session.received('["setup", {}]', 0.0)
    session.received('["stdout", "$ "]', 0.1)
    session.received('["disconnect", 1]', 0.2)
    assert sink.markers() == [
        "connect",
        "joined mid-stream: the screen may be incomplete",
        "takeover start",
        "takeover end",
        "exit",
    ]


def test_every_recorder_gets_the_same_markers_from_the_same_events() -> None:
    """``observer record``'s session (parsed at once, no scrollback) and the app's (parsed in
    slices by its feeder, here in one go) mark the same notification, outage and exit."""

    def run(session: WatchedSession) -> None:
        connect(session)
        session.received(hello(), 0.0)
        session.received(b"x\x1b]9;needs you\x07", 0.1)
        parse_all(session)
        session.connection_closed("the connection dropped", code=None, now=1.0)
        connect(session, now=2.0)
        session.received(f.encode(f.Exit(3)), 3.0)

    headless_policy, headless = recorded()
    app_policy, app = recorded()
    run(WatchedSession(recording=headless_policy, scrollback=0, stop_at_exit=True))
    run(WatchedSession(recording=app_policy))
    assert headless.events == app.events
    assert headless.markers() == [
        "connect",
        "notification: needs you",
        "disconnect",
        "reconnect",
    ]
    assert headless.events[-1] == ("x", 3)


def test_a_watchers_recording_marks_another_clients_takeover() -> None:
    policy, sink = recorded(record_input=True)
    session = WatchedSession(recording=policy, show=False)
    connect(session)
    session.received(control("other"), 1.0)
    session.type(b"never", 1.1)  # watching: nothing sent, nothing recorded
    session.received(control("none"), 2.0)
    assert sink.markers() == ["connect", "takeover start: another client", "takeover end"]
    assert not [e for e in sink.events if e[0] == "i"]


def test_recording_input_from_a_peer_that_cannot_tell_echo_is_warned_about() -> None:
    policy, _ = recorded(record_input=True)
    session = WatchedSession(recording=policy)
    connect(session, "ttyd")
    assert any("does not say when echo is off" in n for n in notices(session))
    policy, _ = recorded(record_input=True)
    session = WatchedSession(recording=policy)
    connect(session)
    assert not any("echo" in n for n in notices(session))
