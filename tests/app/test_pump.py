"""The catch-up rule: a client busy with a backlog for too long asks for a snapshot instead."""

from __future__ import annotations

from observer.app.pump import CatchUp
from observer.protocol.events import OutputReceived, SnapshotReceived

OUT = OutputReceived(b"x", 0)
SNAP = SnapshotReceived(b"", 80, 24, 0, gap=False)


def test_events_that_had_to_be_waited_for_never_trigger_a_resync() -> None:
    catch_up = CatchUp()
    assert not any(catch_up.arrived(t, t + 0.01) for t in range(100))


def test_buffered_events_for_longer_than_the_limit_trigger_one_resync() -> None:
    catch_up = CatchUp(behind_after=0.2)
    times = [n * 0.05 for n in range(6)]
    answers = [catch_up.arrived(t, t) for t in times]
    assert answers == [False, False, False, False, True, True]
    catch_up.resyncing = True
    assert not catch_up.arrived(0.3, 0.3)


def test_output_is_skipped_only_until_the_snapshot_arrives() -> None:
    catch_up = CatchUp(resyncing=True)
    assert catch_up.skips(OUT)
    assert not catch_up.skips(SNAP)
    assert not catch_up.resyncing and not catch_up.skips(OUT)


def test_nothing_is_skipped_when_no_resync_was_asked() -> None:
    assert not CatchUp().skips(OUT)
