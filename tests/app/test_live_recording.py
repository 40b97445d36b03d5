"""What a live source writes to its recording around snapshots: a faithful stream, no repeats.

The connection here is a stand-in holding only settings (the recording logic never touches the
network); the recorder and the reader are the real ones.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

from observer.app.live import ConnectionSource
from observer.castfiles import open_cast
from observer.protocol.events import OutputReceived, SessionStarted, SnapshotReceived

HELLO = SessionStarted("t", "watch", 20, 4, 0, "none", 1, "")


def recorded(tmp_path: Path, *events: object) -> list[tuple[str, str]]:
    connection = SimpleNamespace(settings=SimpleNamespace(url="ws://127.0.0.1:1/"))
    source = ConnectionSource(cast(Any, connection), label="x", record=tmp_path / "s.cast")
    for event in (HELLO, *events):
        source._record(event)
    assert source.recorder is not None
    source.recorder.close()
    with open_cast(tmp_path / "s.cast") as reader:
        return [(e.code, e.data) for e in reader]


def test_the_first_snapshot_starts_the_recording_and_output_follows(tmp_path: Path) -> None:
    events = recorded(
        tmp_path, SnapshotReceived(b"SCREEN", 20, 4, 100, gap=False), OutputReceived(b"abc", 100)
    )
    assert events == [("o", "SCREEN"), ("o", "abc")]


def test_bytes_resent_after_a_resync_are_not_recorded_twice(tmp_path: Path) -> None:
    events = recorded(
        tmp_path,
        SnapshotReceived(b"S0", 20, 4, 0, gap=False),
        OutputReceived(b"abcdef", 0),
        SnapshotReceived(b"S1", 20, 4, 3, gap=False),
        OutputReceived(b"defgh", 3),
    )
    assert events == [("o", "S0"), ("o", "abcdef"), ("o", "gh")]


def test_a_resync_that_skips_unreceived_bytes_records_the_snapshot_and_a_gap(
    tmp_path: Path,
) -> None:
    events = recorded(
        tmp_path,
        SnapshotReceived(b"S0", 20, 4, 0, gap=False),
        OutputReceived(b"abc", 0),
        SnapshotReceived(b"S1", 20, 4, 10, gap=False),
        OutputReceived(b"xyz", 10),
    )
    assert events == [("o", "S0"), ("o", "abc"), ("m", "gap"), ("o", "S1"), ("o", "xyz")]
