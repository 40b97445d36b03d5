"""The connection's life: resuming, what a close means, the exit and the quit."""

from __future__ import annotations

from observer.client.events import ConnectionOpened, Outlet, ReconnectDecided
from observer.client.lifecycle import JoinRequest, Lifecycle
from observer.client.reconnect import Retry, Stop
from observer.protocol.adapters import ProtocolName, create_adapter
from observer.protocol.adapters.native import NativeAdapter
from tests.unit.client.drive import lifecycle


def life(*, stop_at_exit: bool = False) -> tuple[Lifecycle, Outlet]:
    outlet = Outlet()
    return lifecycle(outlet, stop_at_exit=stop_at_exit), outlet


def test_the_next_connection_resumes_only_where_the_peer_can() -> None:
    native, _ = life()
    native.opened(NativeAdapter(), 0.0)
    native.next_offset = 120
    assert native.join_request(control=True, size=(100, 30)) == JoinRequest(True, 120, 100, 30)
    ttyd, _ = life()
    ttyd.opened(create_adapter("ttyd", cols=80, rows=24), 0.0)
    ttyd.next_offset = 120
    assert ttyd.join_request(control=False, size=None) == JoinRequest(False, None, 80, 24)


def test_opening_forgets_what_was_typed_for_the_last_connection_and_says_so() -> None:
    lifecycle, outlet = life()
    outlet.send([b"typed while down"])
    lifecycle.opened(NativeAdapter(), 0.0)
    assert outlet.data_to_send() == []
    assert ConnectionOpened(1, None) in outlet.take_events()
    assert lifecycle.state == "connected" and lifecycle.connections == 1


def test_a_drop_is_retried_a_normal_close_stops_and_a_quit_is_no_drop() -> None:
    lifecycle, outlet = life()
    lifecycle.opened(NativeAdapter(), 0.0)
    dropped = lifecycle.closed("gone", code=None, now=5.0, timed_out=False, refused=False)
    assert isinstance(dropped, Retry) and lifecycle.state == "reconnecting"
    assert ReconnectDecided(dropped) in outlet.take_events()
    lifecycle.opened(NativeAdapter(), 6.0)
    assert lifecycle.closed("bye", code=1000, now=7.0, timed_out=False, refused=False) == Stop(
        "bye"
    )
    lifecycle.opened(NativeAdapter(), 8.0)
    lifecycle.quit_requested = True
    assert lifecycle.closed("x", code=None, now=9.0, timed_out=False, refused=False) == Stop(
        "closed"
    )


def test_a_refusal_stops_for_good_with_its_reason_as_the_error() -> None:
    lifecycle, _ = life()
    lifecycle.opened(NativeAdapter(), 0.0)
    decision = lifecycle.closed("policy", code=1008, now=1.0, timed_out=False, refused=True)
    assert decision == Stop("policy", fatal=True) and lifecycle.last_error == "policy"


def test_a_close_means_exit_peer_that_closes_has_exited_unless_the_network_failed() -> None:
    exits, _ = life()
    exits.opened(create_adapter("ttyd", cols=80, rows=24), 0.0)
    assert isinstance(exits.closed("x", code=None, now=1.0, timed_out=False, refused=False), Stop)
    assert exits.exited
    timed_out, _ = life()
    timed_out.opened(create_adapter("ttyd", cols=80, rows=24), 0.0)
    timed_out.closed("no pings", code=None, now=1.0, timed_out=True, refused=False)
    assert not timed_out.exited


def test_a_recorder_ends_at_the_exit_and_asks_its_shell_to_close() -> None:
    lifecycle, outlet = life(stop_at_exit=True)
    rings: list[None] = []
    outlet.ring_with(lambda: rings.append(None))
    lifecycle.exit(3)
    assert lifecycle.close_after_sending and lifecycle.quit_requested and rings
    assert lifecycle.exit_reason() == "The agent exited with status 3"


def test_a_rejoin_of_a_peer_that_cannot_resume_says_output_was_lost() -> None:
    cases: list[tuple[ProtocolName, bool]] = [("observer", False), ("ttyd", True)]
    for protocol, lost in cases:
        lifecycle, outlet = life()
        lifecycle.opened(create_adapter(protocol, cols=80, rows=24), 0.0)
        lifecycle.closed("gone", code=None, now=1.0, timed_out=True, refused=False)
        lifecycle.opened(create_adapter(protocol, cols=80, rows=24), 2.0)
        opened = [e for e in outlet.take_events() if isinstance(e, ConnectionOpened)]
        assert [e.lost_output for e in opened] == [False, lost]
