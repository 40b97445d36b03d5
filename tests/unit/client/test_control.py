"""Who types, decided once by the core: per peer capability, strict, and nothing sent while watching."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from observer.client.watched import WatchedSession
from observer.protocol import frames as f
from observer.protocol.adapters import ProtocolName
from observer.protocol.adapters.native import NativeAdapter
from observer.protocol.modes import ControlMode
from tests.unit.client.drive import Sink, connect, control, drain, hello, notices, recorded


def recorded_session() -> tuple[WatchedSession, Sink]:
    policy, sink = recorded()
    return WatchedSession(recording=policy), sink


FIRST_MESSAGE: dict[ProtocolName, str | bytes] = {
    "raw": b"$ ",
    "ttyd": b"0$ ",
    "jupyter": '["setup", {}]',
}


@pytest.mark.parametrize("protocol", ["raw", "ttyd", "jupyter"])
def test_ctrl_t_takes_and_ctrl_bracket_hands_back_on_peers_that_arbitrate_nothing(
    protocol: ProtocolName,
) -> None:
    session = WatchedSession()
    connect(session, protocol)
    session.received(FIRST_MESSAGE[protocol], 0.0)
    session.data_to_send()
    status = session.status(0.0)
    assert status.may_take and status.arbitration == "none" and status.watchers is None
    assert session.take(1.0)
    assert session.in_control and session.status(1.0).holder == "you"
    assert session.type(b"y\r", 1.0)
    assert session.data_to_send() != []
    session.release(2.0)
    assert not session.in_control
    assert not session.type(b"x", 2.0) and session.data_to_send() == []
    assert session.take(3.0) and session.in_control  # and again, as often as wanted


def test_the_native_server_decides_and_input_waits_for_the_grant() -> None:
    session = WatchedSession()
    connect(session)
    session.data_to_send()
    assert session.take(0.0)
    assert [json.loads(m) for m in session.data_to_send()] == [{"type": "take"}]
    assert session.mode is ControlMode.REQUESTING and not session.type(b"y", 0.0)
    session.received(control("you"), 0.1)
    assert session.in_control and session.type(b"y", 0.2)
    assert session.data_to_send() == [b"y"]
    session.release(0.3)
    assert [json.loads(m) for m in session.data_to_send()] == [{"type": "release"}]
    assert not session.type(b"z", 0.3)


def test_a_watch_only_token_is_told_before_it_is_asked_to_confirm_again() -> None:
    session = WatchedSession()
    connect(session)
    session.take(0.0)
    session.received(f.encode(f.Error(f.WATCH_ONLY, "this token allows watching only")), 0.1)
    assert session.mode is ControlMode.WATCH
    status = session.status(0.2)
    assert not status.may_take and "watching only" in status.cannot_take
    assert not session.take(0.3)
    assert any("watching only" in n for n in notices(session))


def test_another_holder_blocks_taking_until_they_hand_back() -> None:
    session = WatchedSession()
    connect(session)
    session.received(control("other"), 0.0)
    assert session.status(0.0).holder == "other" and not session.status(0.0).may_take
    session.received(control("none"), 1.0)
    assert session.status(1.0).may_take


def test_a_refusal_nobody_asked_for_changes_nothing() -> None:
    session = WatchedSession()
    connect(session)
    session.received(f.encode(f.Error(f.CONTROL_HELD, "held")), 0.0)
    assert session.mode is ControlMode.WATCH


def test_asking_for_control_at_connect_is_granted_by_hello() -> None:
    session = WatchedSession(want_control=True)
    assert session.join_request().control
    session.connection_opened(NativeAdapter(), 0.0)
    session.received(hello(mode="control"), 0.0)
    assert session.in_control


def test_interrupt_takes_sends_one_ctrl_c_and_hands_back() -> None:
    session = WatchedSession()
    connect(session)
    session.data_to_send()
    assert session.interrupt(0.0)
    session.received(control("you"), 0.1)
    sent = session.data_to_send()
    assert sent[0] == '{"type":"take"}' and b"\x03" in sent and sent[-1] == '{"type":"release"}'
    assert not session.in_control


def test_control_is_handed_back_after_idle_release_seconds_without_typing() -> None:
    session = WatchedSession(idle_release=60.0)
    connect(session, "raw")
    session.received(b"x", 0.0)
    session.take(0.0)
    session.type(b"a", 30.0)
    session.tick(80.0)
    assert session.in_control
    session.tick(91.0)
    assert not session.in_control


def test_the_pty_follows_the_controllers_view_and_never_a_watchers() -> None:
    session = WatchedSession()
    connect(session)
    session.view_resized(120, 40, 0.0)
    assert session.data_to_send() == []  # watching: never a resize
    session.take(0.0)
    session.received(control("you"), 0.1)
    assert json.loads(session.data_to_send()[-1]) == {"type": "resize", "cols": 120, "rows": 40}
    session.view_resized(100, 30, 0.2)
    assert json.loads(session.data_to_send()[-1]) == {"type": "resize", "cols": 100, "rows": 30}


@pytest.mark.parametrize("protocol", ["ttyd", "jupyter"])
def test_a_peer_that_never_reports_its_size_gives_our_screen_the_size_sent(
    protocol: ProtocolName,
) -> None:
    session, sink = recorded_session()
    connect(session, protocol)
    session.received(FIRST_MESSAGE[protocol], 0.0)
    session.view_resized(120, 35, 0.0)
    drain(session)
    assert (session.model.cols, session.model.rows) == (80, 24)  # watching: nothing changes
    session.take(0.1)
    drain(session)
    assert (session.model.cols, session.model.rows) == (120, 35)
    session.view_resized(100, 30, 0.2)
    drain(session)
    assert (session.model.cols, session.model.rows) == (100, 30)
    session.release(0.3)
    session.view_resized(90, 20, 0.4)  # handed back: the PTY keeps the last size sent
    assert drain(session) == []
    assert (session.model.cols, session.model.rows) == (100, 30)
    assert [data for code, data in sink.events if code == "r"] == [(120, 35), (100, 30)]


def test_a_native_screen_waits_for_the_servers_resize() -> None:
    session = WatchedSession()
    connect(session)
    drain(session)
    session.view_resized(120, 35, 0.0)
    session.take(0.0)
    session.received(control("you"), 0.1)
    drain(session)
    assert (session.model.cols, session.model.rows) == (40, 5)  # the server has not said yet
    session.received(f.encode(f.Resize(120, 35)), 0.2)
    drain(session)
    assert (session.model.cols, session.model.rows) == (120, 35)


def test_a_chosen_size_is_the_remote_size_in_control_whatever_the_window() -> None:
    session = WatchedSession(remote_size=(100, 30))
    assert (session.join_request().cols, session.join_request().rows) == (100, 30)
    connect(session)
    session.view_resized(120, 40, 0.0)
    session.take(0.0)
    session.received(control("you"), 0.1)
    assert json.loads(session.data_to_send()[-1]) == {"type": "resize", "cols": 100, "rows": 30}
    session.received(f.encode(f.Resize(100, 30)), 0.2)
    session.view_resized(90, 20, 0.3)
    assert session.data_to_send() == []


def test_the_remote_size_can_be_kept() -> None:
    session = WatchedSession(follow_size=False)
    connect(session)
    session.view_resized(120, 40, 0.0)
    session.take(0.0)
    session.received(control("you"), 0.1)
    assert all("resize" not in str(m) for m in session.data_to_send())


received = st.one_of(
    st.binary(max_size=40),
    st.text(max_size=40),
    st.sampled_from(
        [
            '["stdout", "x"]',
            '["setup", {}]',
            '["disconnect", 1]',
            b"0out",
            b"1title",
            hello(),
            hello(mode="control", holder="you"),
            control("you"),
            control("other"),
            control("none"),
            f.encode(f.Error(f.CONTROL_HELD, "x")),
            '{"type":"exit","status":0}',
        ]
    ),
)
calls = st.lists(
    st.one_of(
        st.tuples(st.just("receive"), received),
        st.tuples(st.just("type"), st.binary(max_size=20)),
        st.tuples(st.just("resize"), st.tuples(st.integers(1, 500), st.integers(1, 200))),
        st.tuples(st.just("take"), st.none()),
        st.tuples(st.just("release"), st.none()),
        st.tuples(st.just("tick"), st.none()),
    ),
    max_size=30,
)


@pytest.mark.parametrize("protocol", ["observer", "raw", "ttyd", "jupyter"])
@settings(max_examples=150, deadline=None)
@given(sequence=calls)
def test_no_input_or_resize_leaves_a_client_that_is_not_in_control(
    protocol: ProtocolName, sequence: list[tuple[str, object]]
) -> None:
    session = WatchedSession()
    connect(session, protocol)
    session.data_to_send()
    for now, (op, arg) in enumerate(sequence):
        watching = not session.in_control
        if op == "receive":
            session.received(arg, float(now))  # type: ignore[arg-type]
        elif op == "type":
            session.type(arg, float(now))  # type: ignore[arg-type]
        elif op == "resize":
            session.view_resized(*arg, float(now))  # type: ignore[misc]
        elif op == "take":
            session.take(float(now))
        elif op == "release":
            session.release(float(now))
        else:
            session.tick(float(now) + 1000)
        sent = session.data_to_send()
        if watching and not session.in_control:
            # Only control requests may leave a client that is not in control.
            for message in sent:
                assert isinstance(message, str), "input left a watching client"
                assert "resize" not in message and "stdin" not in message
                assert not message.startswith("0") and not message.startswith("1")


def test_a_reply_takes_the_keyboard_types_once_granted_and_hands_it_back() -> None:
    session = WatchedSession()
    connect(session)
    drain(session)
    assert session.reply(b"y\r", 1.0)
    sent = session.data_to_send()
    assert [f.decode_client_frame(m) for m in sent if isinstance(m, str)] == [f.Take()]
    assert not [m for m in sent if isinstance(m, bytes)]  # nothing typed before the grant
    session.received(control("you"), 2.0)
    after = session.data_to_send()
    assert [m for m in after if isinstance(m, bytes)] == [b"y\r"]
    assert f.Release() in [f.decode_client_frame(m) for m in after if isinstance(m, str)]
    assert "Sent 'y⏎' to the agent" in notices(session)


def test_a_refused_reply_is_never_typed_later() -> None:
    session = WatchedSession()
    connect(session)
    session.reply(b"y\r", 1.0)
    session.received(f.encode(f.Error(f.CONTROL_HELD, "another client holds control")), 2.0)
    session.received(control("you"), 3.0)
    assert not [m for m in session.data_to_send() if isinstance(m, bytes)]


def test_a_reply_cut_by_a_drop_is_not_typed_into_the_next_connection() -> None:
    session = WatchedSession()
    connect(session)
    session.reply(b"n\r", 4.0)
    session.connection_closed("the connection dropped", code=None, now=5.0)
    connect(session, now=6.0)
    session.received(control("you"), 7.0)
    assert not [m for m in session.data_to_send() if isinstance(m, bytes)]
