"""The recording spool: lines reach the OS in batches, by a deadline, and errors reach the caller."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import pytest

from observer.errors import ObserverError
from observer.recording import Recorder
from observer.spool import FLUSH_BYTES, Spool


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


def test_a_full_batch_is_written_at_once_without_waiting(tmp_path: Path) -> None:
    path = tmp_path / "s.txt"
    spool = Spool(io.FileIO(path, "w"), interval=3600)
    line = "x" * 1023 + "\n"
    for _ in range(FLUSH_BYTES // len(line)):
        spool.write(line)
    assert path.stat().st_size == FLUSH_BYTES
    spool.close()


def test_the_thread_writes_by_the_deadline_on_its_own(tmp_path: Path) -> None:
    path = tmp_path / "s.txt"
    spool = Spool(io.FileIO(path, "w"), interval=0.01)
    spool.write("soon\n")
    deadline = time.monotonic() + 10
    while not path.read_text() and time.monotonic() < deadline:
        time.sleep(0.005)
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
def test_a_write_error_in_the_thread_is_raised_by_the_next_write() -> None:
    spool = Spool(io.FileIO("/dev/full", "w"), interval=0.001)
    spool.write("lost\n")
    deadline = time.monotonic() + 10
    while spool.error is None and time.monotonic() < deadline:
        time.sleep(0.005)
    with pytest.raises(OSError, match="No space left"):
        spool.write("next\n")
    spool.file.close()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_full_disk_is_a_clear_error_from_the_recorder() -> None:
    with pytest.raises(ObserverError, match="No space left on device — free some disk space"):
        Recorder("/dev/full", cols=80, rows=24, overwrite=True)
