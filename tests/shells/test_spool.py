"""The recording spool: lines reach the OS in batches, by a deadline, and errors reach the caller."""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path

import pytest

from observer.errors import ObserverError
from observer.recording.recorder import Recorder
from observer.recording.spool import Spool
from tests.waiting import until_blocking


def test_lines_wait_for_the_deadline_a_flush_or_close(tmp_path: Path) -> None:
    path = tmp_path / "s.txt"
    spool = Spool(io.FileIO(path, "w"), interval=3600)
    spool.write("one\n")
    spool.write("two\n")
    assert path.read_text() == ""
    spool.flush()
    assert path.read_text() == "one\ntwo\n"
    spool.write("three\n")
    spool.close()
    spool.close()
    assert path.read_text() == "one\ntwo\nthree\n"
    assert spool.closed


def test_the_thread_writes_by_the_deadline_on_its_own(tmp_path: Path) -> None:
    path = tmp_path / "s.txt"
    spool = Spool(io.FileIO(path, "w"), interval=0.01)
    spool.write("soon\n")
    until_blocking(path.read_text, "the thread's write")
    assert path.read_text() == "soon\n"
    spool.close()


def test_an_fsync_asked_for_happens_in_the_thread_before_close_returns(tmp_path: Path) -> None:
    synced: list[int] = []
    spool = Spool(io.FileIO(tmp_path / "s.txt", "w"), interval=3600, fsync=synced.append)
    spool.write("marker\n")
    spool.sync_soon()
    assert (tmp_path / "s.txt").read_text() == "marker\n"  # in the OS before sync_soon returns
    spool.close()
    assert len(synced) == 1


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_write_error_in_the_thread_is_kept_and_raised_by_the_next_flush() -> None:
    spool = Spool(io.FileIO("/dev/full", "w"), interval=0.001)
    spool.write("lost\n")
    until_blocking(lambda: spool.error, "the write error")
    with pytest.raises(OSError, match="No space left"):
        spool.flush()
    with pytest.raises(OSError, match="No space left"):
        spool.close()
    assert spool.closed


def test_lines_appended_while_a_batch_is_taken_wait_for_the_next_one_in_order(
    tmp_path: Path,
) -> None:
    """Appends take no lock: a writer thread races the spool's own thread and explicit flushes."""
    path = tmp_path / "s.txt"
    spool = Spool(io.FileIO(path, "w"), interval=0.0005)
    for i in range(20_000):
        spool.write(f"{i}\n")
        if i % 997 == 0:
            spool.flush()
    spool.close()
    assert path.read_text().split() == [str(i) for i in range(20_000)]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_full_disk_is_a_clear_error_from_the_recorder() -> None:
    with pytest.raises(ObserverError, match="No space left on device — free some disk space"):
        Recorder("/dev/full", cols=80, rows=24, overwrite=True)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_disk_filling_up_while_recording_is_a_clear_error_at_the_next_event() -> None:
    """The header goes to a real file; then the spool's file is swapped for /dev/full."""
    with tempfile.TemporaryDirectory() as folder:
        rec = Recorder(Path(folder) / "s.cast", cols=80, rows=24)
        spool = rec._file
        spool.file.close()
        spool.file = io.FileIO("/dev/full", "w")
        rec.output(b"lost when the disk is full")
        until_blocking(lambda: spool.error, "the write error")
        with pytest.raises(ObserverError, match="free some disk space"):
            rec.output(b"next")
        with pytest.raises(ObserverError, match="free some disk space"):
            rec.close()
        assert rec.closed
