"""Skipping ahead is paced to the server's snapshot interval: asked sooner, the server would hold
the snapshot back and send nothing meanwhile, so the session keeps parsing until it would answer."""

from __future__ import annotations

from observer.client.watched import WatchedSession
from observer.protocol.frames import RESYNC_INTERVAL
from tests.unit.client.drive import connect, drain, snapshot

RESYNC = '{"type":"resync"}'


def behind(session: WatchedSession, now: float, text: bytes = b"x") -> None:
    """Output this client would take about a third of a second to parse arrives at ``now``."""
    for _ in range(40):
        session.received(text * 8192, now)


def test_within_the_interval_after_a_snapshot_the_session_parses_instead_of_going_blind() -> None:
    session = WatchedSession()
    connect(session, now=0.0)  # the join's snapshot at 0.0
    drain(session)
    session.parsed(1 << 20, 1.0)  # this client parses about 1 MB/s
    behind(session, 0.5)
    session.received(b"\r\nkey echoed", 0.5)
    session.check_backlog(0.5)
    assert RESYNC not in session.data_to_send()  # the server would hold its answer back
    assert session.backlog > 0 and session.resyncs == 0
    drain(session)
    assert "key echoed" in session.model.text()  # parsed, not waited for
    behind(session, 0.5 + RESYNC_INTERVAL)
    session.check_backlog(0.5 + RESYNC_INTERVAL)  # the interval is up: skipping ahead pays
    assert session.data_to_send() == [RESYNC] and session.backlog == 0


def test_the_interval_counts_from_the_last_snapshot_whatever_brought_it() -> None:
    session = WatchedSession()
    connect(session, now=0.0)
    session.parsed(1 << 20, 1.0)
    session.received(snapshot(10, "\x1b[Hresynced"), 5.0)  # e.g. the server shed this client
    behind(session, 5.0 + RESYNC_INTERVAL / 2)
    session.check_backlog(5.0 + RESYNC_INTERVAL / 2)
    assert session.resyncs == 0
    session.check_backlog(5.0 + RESYNC_INTERVAL)
    assert session.resyncs == 1
