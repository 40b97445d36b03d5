"""A session's life in the core: reconnect per peer, agent state, notices, skip-ahead."""

from __future__ import annotations

from observer.app.recogniser_files import built_in_recognisers
from observer.client.reconnect import Backoff, ReconnectPolicy, Retry, Stop
from observer.client.state_words import summary
from observer.client.watched import WatchedSession
from observer.protocol import frames as f
from tests.unit.client.drive import connect, drain, notices, recorded, repainted, snapshot


def test_a_ttyd_program_that_exited_is_not_started_again() -> None:
    policy, sink = recorded()
    session = WatchedSession(recording=policy)
    connect(session, "ttyd")
    session.received(b"0bye\r\n", 0.0)
    decision = session.connection_closed("the connection dropped", code=None, now=2.0)
    assert isinstance(decision, Stop)
    status = session.status(2.0)
    assert status.exited and status.connection == "closed"
    assert "a new connection would start a new program" in decision.reason
    assert sink.markers()[-1] == "exit"


def test_a_native_drop_is_resumed_from_the_next_offset() -> None:
    session = WatchedSession()
    connect(session)
    session.received(b"12345", 0.0)
    decision = session.connection_closed("the connection dropped", code=None, now=10.0)
    assert isinstance(decision, Retry) and decision.delay == 0.0
    assert session.status(10.0).connection == "reconnecting"
    assert session.join_request().since == 5


def test_a_keepalive_timeout_is_a_drop_even_for_a_peer_whose_close_is_its_exit() -> None:
    session = WatchedSession()
    connect(session, "raw")
    session.received(b"x", 0.0)
    decision = session.connection_closed(
        "no answer to keepalive pings", code=None, now=1.0, timed_out=True
    )
    assert isinstance(decision, Retry) and not session.status(1.0).exited


def test_a_jupyter_drop_is_rejoined_with_the_loss_marked() -> None:
    policy, sink = recorded()
    session = WatchedSession(recording=policy)
    connect(session, "jupyter")
    session.received('["setup", {}]', 0.0)
    assert isinstance(
        session.connection_closed("the connection dropped", code=None, now=1.0), Retry
    )
    connect(session, "jupyter", now=2.0)
    session.received('["setup", {}]', 2.0)
    assert sink.markers()[-3:] == [
        "disconnect",
        "reconnect",
        "gap: output while disconnected was lost",
    ]


def test_a_first_attempt_that_fails_stops_and_a_later_one_is_retried() -> None:
    session = WatchedSession(reconnect=ReconnectPolicy(Backoff(0.5, 4.0, lambda: 1.0)))
    stop = session.connection_failed("refused", retryable=True, now=0.0)
    assert isinstance(stop, Stop) and stop.fatal
    connect(session)
    session.connection_closed("the connection dropped", code=None, now=1.0)
    # the drop was retried at once; attempts after that back off, doubling
    assert session.connection_failed("refused", retryable=True, now=1.0) == Retry(1.0)
    assert session.connection_failed("refused", retryable=True, now=2.0) == Retry(2.0)
    status = session.status(2.0)
    assert status.retry_in == 2.0 and status.last_error == "refused"
    assert isinstance(session.connection_failed("403", retryable=False, now=3.0), Stop)


def test_quitting_is_not_a_drop() -> None:
    session = WatchedSession()
    connect(session)
    session.request_quit()
    assert session.connection_closed("closed", code=1000, now=1.0) == Stop("closed")


def test_output_makes_the_agent_active_then_idle_and_a_bell_then_silence_waiting() -> None:
    session = WatchedSession()
    connect(session)
    session.received(b"working...", 100.0)
    drain(session)
    assert session.status(100.5).agent == "active"
    assert session.status(110.0).agent == "idle"
    session.received(b"Proceed? \a", 120.0)
    while session.pending:
        session.feed(1 << 20, 120.0)
    assert session.status(122.0).agent == "waiting"
    session.received(b"y\r\nok, going on\r\n", 130.0)
    drain(session)
    assert session.status(150.0).agent == "idle"


def test_a_prompt_with_no_output_for_a_while_means_waiting() -> None:
    session = WatchedSession(recognisers=built_in_recognisers())
    connect(session)
    session.received(b"Overwrite the file? ", 100.0)
    drain(session)
    assert session.status(103.0).agent == "idle"
    assert session.status(106.0).agent == "waiting"


def test_exit_is_told_and_ends_the_agent() -> None:
    session = WatchedSession()
    connect(session)
    session.take_events()
    session.received(f.encode(f.Exit(2)), 1.0)
    assert any("status 2" in n for n in notices(session))
    status = session.status(200.0)
    assert status.agent == "exited" and summary(status) == "exited 2" and not status.may_take


def test_why_a_session_closed_stays_in_its_status() -> None:
    session = WatchedSession()
    session.connection_failed(
        "the endpoint rejected the token — run `observer auth login`", retryable=False, now=0
    )
    assert summary(session.status(0)).startswith("closed: the endpoint rejected the token")


def test_skip_ahead_asks_for_a_snapshot_and_drops_the_backlog() -> None:
    session = WatchedSession()
    connect(session)
    drain(session)
    session.parsed(1 << 20, 1.0)  # this client parses about 1 MB/s
    for _ in range(40):
        session.received(b"x" * 8192, 10.0)
    session.check_backlog(10.0)
    assert session.data_to_send() == ['{"type":"resync"}'] and session.backlog == 0
    session.received(b"y" * 100, 10.01)  # covered by the snapshot on its way: not parsed
    assert session.backlog == 0
    session.received(snapshot(400_000, "\x1b[Hcaught up"), 10.02)
    session.received(b"!", 10.03)
    drain(session)
    assert session.model.text()[0].startswith("caught up!")
    assert session.status(10.1).gaps == 0  # we asked for it: nothing was lost to the user


def test_a_snapshot_cut_inside_an_escape_sequence_is_fed_as_it_comes() -> None:
    """The server's snapshot carries its parser's unfinished input (ESC [ 3 of ESC [ 31 m): the
    client feeds the repaint and then the rest of the stream, with no mending of its own."""
    session = WatchedSession()
    connect(session)
    session.received(snapshot(0, "\x1b[Hred: \x1b[3"), 0.0)
    session.received(b"1mX\x1b[0m", 0.1)
    drain(session)
    line = session.model.line(0)
    assert "".join(c.data for c in line[:6]) == "red: X"
    assert line[5].fg == "red"


def test_rows_written_again_with_the_same_cells_are_not_reported_changed() -> None:
    session = WatchedSession()
    connect(session)
    drain(session)
    session.take_events()
    session.received(b"\x1b[H\x1b[2Kspinner 1\r\n\x1b[2Ktokens 10", 1.0)
    drain(session)
    session.received(b"\x1b[H\x1b[2Kspinner 2\r\n\x1b[2Ktokens 10", 1.1)  # an Ink-style redraw
    drain(session)
    assert repainted(session, 5)[-1] == {0}
