"""Small files (config, token file, origins list) are replaced atomically and durably."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from observer.credentials.origins_index import OriginsIndex
from observer.runtime.files import replace_file


def _record_fsyncs(monkeypatch: pytest.MonkeyPatch, fail_files: bool = False) -> list[str]:
    """Record what each fsync flushed. A power loss cannot be staged in a test, so the proof of
    durability is that both the file and its folder reach fsync before the call returns."""
    real: Callable[[int], None] = os.fsync
    kinds: list[str] = []

    def fsync(fd: int) -> None:
        kind = "folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"
        kinds.append(kind)
        if fail_files and kind == "file":
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return kinds


def test_the_new_contents_and_the_rename_reach_the_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "deeper" / "config.toml"
    kinds = _record_fsyncs(monkeypatch)
    replace_file(path, "a = 1\n")
    assert path.read_text() == "a = 1\n"
    assert kinds == ["file", "folder"]
    assert sorted(p.name for p in path.parent.iterdir()) == ["config.toml"]


def test_a_new_file_gets_the_callers_mode_and_an_old_one_keeps_its_own(tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    replace_file(secret, "x")
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    shared = tmp_path / "shared"
    shared.write_text("old")
    shared.chmod(0o640)
    replace_file(shared, "new", new_mode=0o600)
    assert (shared.read_text(), stat.S_IMODE(shared.stat().st_mode)) == ("new", 0o640)


def test_a_failed_write_leaves_the_old_file_whole_and_no_litter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "tokens"
    path.write_text("watch sha256:old\n")
    _record_fsyncs(monkeypatch, fail_files=True)
    with pytest.raises(OSError, match="No space left"):
        replace_file(path, "control sha256:new\n")
    assert path.read_text() == "watch sha256:old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["tokens"]


def test_the_origins_list_is_written_durably_and_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "origins"
    kinds = _record_fsyncs(monkeypatch)
    OriginsIndex(path).update(add="wss://a.example")
    assert OriginsIndex(path).read() == ["wss://a.example"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert kinds == ["file", "folder"]
