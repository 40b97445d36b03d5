"""Server-side connection state: one holder, watcher input dropped and reported."""

from __future__ import annotations

from observer.protocol import frames as f
from observer.protocol.arbiter import (
    MAX_VIOLATIONS,
    ControlArbiter,
    ControlMoved,
    Disconnect,
    Reply,
    ResizePty,
    SendSnapshot,
    ServerConnection,
    WriteToPty,
)

TAKE = f.encode(f.Take())
RELEASE = f.encode(f.Release())


def pair() -> tuple[ServerConnection, ServerConnection, ControlArbiter]:
    arbiter = ControlArbiter()
    return ServerConnection(1, "control", arbiter), ServerConnection(2, "control", arbiter), arbiter


def test_watcher_input_is_dropped_and_reported() -> None:
    a, _, _ = pair()
    [decision] = a.receive(b"rm -rf ~\r")
    assert isinstance(decision, Reply) and isinstance(decision.frame, f.Error)
    assert decision.frame.code == f.NOT_HOLDER


def test_watcher_resize_is_refused() -> None:
    a, _, _ = pair()
    [decision] = a.receive(f.encode(f.Resize(10, 10)))
    assert decision == Reply(
        f.Error(f.NOT_HOLDER, "resize dropped: you are watching; take control first")
    )


def test_the_holder_input_and_resize_reach_the_pty() -> None:
    a, _, arbiter = pair()
    assert a.receive(TAKE) == [ControlMoved()]
    assert arbiter.holder == 1 and a.holder == "you"
    assert a.receive(b"y\r") == [WriteToPty(b"y\r")]
    assert a.receive(f.encode(f.Resize(100, 30))) == [ResizePty(100, 30)]


def test_only_one_holder_at_a_time() -> None:
    a, b, _ = pair()
    a.receive(TAKE)
    [refusal] = b.receive(TAKE)
    assert isinstance(refusal, Reply) and refusal.frame.code == f.CONTROL_HELD  # type: ignore[union-attr]
    assert b.holder == "other"
    assert b.receive(b"x")[0] != WriteToPty(b"x")


def test_release_then_another_client_can_take() -> None:
    a, b, _ = pair()
    a.receive(TAKE)
    assert a.receive(RELEASE) == [ControlMoved()]
    assert a.holder == "none"
    assert b.receive(TAKE) == [ControlMoved()]
    assert a.holder == "other" and b.holder == "you"
    assert a.receive(TAKE)[0] == Reply(
        f.Error(f.CONTROL_HELD, "another client holds control; ask them to release it")
    )
    b.receive(RELEASE)
    assert a.receive(TAKE) == [ControlMoved()]


def test_holder_disconnect_releases_control() -> None:
    a, b, arbiter = pair()
    a.receive(TAKE)
    assert a.close() == [ControlMoved()]
    assert arbiter.holder is None
    assert b.close() == []


def test_a_watch_only_token_cannot_take_control() -> None:
    arbiter = ControlArbiter()
    watcher = ServerConnection(1, "watch", arbiter)
    [refusal] = watcher.open(want_control=True)
    assert refusal == Reply(f.Error(f.WATCH_ONLY, "this token allows watching only"))
    assert arbiter.holder is None


def test_connecting_with_mode_control_takes_control_when_free() -> None:
    a, b, _ = pair()
    assert a.open(want_control=True) == [ControlMoved()]
    assert b.open(want_control=True)[0].frame.code == f.CONTROL_HELD  # type: ignore[union-attr]


def test_input_after_exit_is_dropped_even_from_the_holder() -> None:
    a, _, _ = pair()
    a.receive(TAKE)
    [decision] = a.receive(b"x", exited=True)
    assert decision.frame.code == f.EXITED  # type: ignore[union-attr]


def test_releasing_without_holding_is_an_error_and_resync_asks_for_a_snapshot() -> None:
    a, _, _ = pair()
    assert a.receive(RELEASE)[0].frame.code == f.NOT_HOLDER  # type: ignore[union-attr]
    assert a.receive('{"type":"resync"}') == [SendSnapshot()]


def test_malformed_frames_get_an_error_until_the_limit_then_a_1008_close() -> None:
    a, _, _ = pair()
    for _ in range(MAX_VIOLATIONS):
        [decision] = a.receive("garbage")
        assert decision.frame.code == f.BAD_FRAME  # type: ignore[union-attr]
    assert a.receive("garbage") == [Disconnect(1008, "too many malformed frames")]
