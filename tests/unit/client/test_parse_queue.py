"""The parse queue on its own: slices, the newest chunk alone, snapshots, skipping ahead."""

from __future__ import annotations

from observer.client.attention import AttentionTracker
from observer.client.events import Outlet, ScreenChanged
from observer.client.lifecycle import Lifecycle
from observer.client.parse_queue import ParseQueue
from observer.protocol.adapters.native import NativeAdapter
from observer.protocol.events import SnapshotReceived
from tests.unit.client.drive import lifecycle


def queue(*, show: bool = True) -> tuple[ParseQueue, Lifecycle, Outlet]:
    outlet = Outlet()
    life = lifecycle(outlet, (20, 3))
    part = ParseQueue(life, outlet, AttentionTracker(), None, size=(20, 3), scrollback=0, show=show)
    return part, life, outlet


def changes(outlet: Outlet) -> list[ScreenChanged]:
    return [e for e in outlet.take_events() if isinstance(e, ScreenChanged)]


def test_output_is_fed_in_slices_of_the_budget() -> None:
    part, _, _ = queue()
    part.output(b"abcdef")
    assert part.backlog == 6 and part.feed(4, 0.0) == 4 and part.backlog == 2
    assert part.feed(4, 0.0) == 2 and not part.pending
    assert part.model.text()[0] == "abcdef"


def test_the_newest_chunk_is_fed_alone_so_its_bell_is_judged_on_it() -> None:
    part, _, _ = queue()
    part.output(b"\x07ring")
    part.output(b"quiet")
    assert part.feed(1 << 20, 0.0) == 5  # the older chunk, up to the newest
    assert not part.bell_rang_last  # the bell was not the latest output
    part.feed(1 << 20, 0.0)
    assert not part.bell_rang_last
    part.output(b"\x07")
    part.feed(1 << 20, 0.0)
    assert part.bell_rang_last


def test_a_snapshot_replaces_the_output_waiting_before_it() -> None:
    part, _, outlet = queue()
    part.output(b"stale")
    part.replace(SnapshotReceived(b"\x1b[Hfresh", 20, 3, 5, False))
    assert part.backlog == 0
    part.feed(1 << 20, 0.0)
    assert part.model.text()[0] == "fresh"
    assert changes(outlet)[-1].whole


def test_rows_written_again_the_same_are_not_reported_but_the_change_still_is() -> None:
    part, _, outlet = queue()
    part.output(b"\x1b[Hspinner\r\nsame")
    part.feed(1 << 20, 0.0)
    changes(outlet)
    part.output(b"\x1b[Hspinner\r\nsame")  # an Ink-style redraw of the same cells
    part.feed(1 << 20, 0.0)
    assert changes(outlet) == [ScreenChanged(frozenset(), False)]  # the cursor may have moved


def test_rows_a_scroll_moved_are_reported_and_a_change_in_place_after_it_too() -> None:
    part, _, outlet = queue()
    part.output(b"one\r\ntwo\r\nthree")
    part.feed(1 << 20, 0.0)
    changes(outlet)
    part.output(b"\r\nfour")  # a scroll: every row shows another line
    part.feed(1 << 20, 0.0)
    assert changes(outlet) == [ScreenChanged(frozenset({0, 1, 2}), False)]
    part.output(b"\x1b[1;1Htwo\x1b[2;1Hthree!")  # row 0 the same, row 1 changed, in place
    part.feed(1 << 20, 0.0)
    assert 1 in changes(outlet)[0].rows
    part.output(b"\x1b[1;1Htwo\x1b[2;1Hthree!")  # now both the same
    part.feed(1 << 20, 0.0)
    assert changes(outlet) == [ScreenChanged(frozenset(), False)]
    assert part.model.text() == ["two", "three!", "four"]


def test_a_headless_recorder_keeps_nothing_to_parse() -> None:
    part, _, _ = queue(show=False)
    part.output(b"x" * 100)
    assert not part.pending and part.backlog == 0


def test_skipping_ahead_asks_for_a_snapshot_and_drops_what_waits_until_it() -> None:
    part, life, outlet = queue()
    life.opened(NativeAdapter(), 0.0)
    outlet.data_to_send()
    part.output(b"x" * 1000)
    assert part.resync() and part.backlog == 0 and part.resyncs == 1
    assert outlet.data_to_send() == ['{"type":"resync"}']
    part.output(b"skipped until the snapshot")
    assert not part.pending
