"""The one way a session talks outwards: events and messages queued in order, drained by shells."""

from __future__ import annotations

from observer.client.events import (
    NoticePosted,
    Outlet,
    PeerEventApplied,
    ScreenChanged,
    StatusChanged,
)
from observer.protocol.events import Exited


def test_what_happened_is_drained_in_order_and_once() -> None:
    outlet = Outlet()
    outlet.post(ScreenChanged(frozenset({1}), False))
    outlet.tell("Reconnected")
    assert outlet.take_events() == [
        ScreenChanged(frozenset({1}), False),
        NoticePosted("Reconnected"),
        StatusChanged(),
    ]
    assert outlet.take_events() == []


def test_status_changes_in_a_row_are_one_piece_of_news() -> None:
    outlet = Outlet()
    for _ in range(3):
        outlet.status_changed()
    outlet.post(ScreenChanged(frozenset(), True))
    outlet.status_changed()
    assert outlet.take_events() == [
        StatusChanged(),
        ScreenChanged(frozenset(), True),
        StatusChanged(),
    ]


def test_the_doorbell_rings_for_events_and_messages_but_carries_nothing() -> None:
    outlet, rings = Outlet(), list[None]()
    outlet.ring_with(lambda: rings.append(None))
    outlet.send([b"ls\r", '{"type":"take"}'])
    outlet.send([])  # nothing queued: no ring
    outlet.status_changed()
    assert len(rings) == 2 and outlet.queued == 2
    assert outlet.data_to_send() == [b"ls\r", '{"type":"take"}'] and outlet.queued == 0


def test_messages_meant_for_a_gone_connection_are_forgotten() -> None:
    outlet = Outlet()
    outlet.send([b"typed before the drop"])
    outlet.forget_outbox()
    assert outlet.data_to_send() == []


def test_the_peers_events_are_logged_only_when_asked_for() -> None:
    quiet, logging = Outlet(), Outlet(log_peer_events=True)
    for outlet in (quiet, logging):
        outlet.peer_event(Exited(0))
    assert quiet.take_events() == []
    assert logging.take_events() == [PeerEventApplied(Exited(0))]
