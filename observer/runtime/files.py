"""The one way observer replaces a small file's contents: atomically and durably.

The new text goes to a temporary file in the same folder, which is flushed to disk, given the
old file's permissions (or the caller's for a new file) and renamed over the old one; then the
folder itself is flushed, so the rename survives a power loss too (rename(2) is atomic, but only
an fsync of the directory makes it durable: see fsync(2), "Calling fsync() does not necessarily
ensure that the entry in the directory containing the file has also reached disk"). A reader, or
a crash at any moment, sees the old file or the new one, whole, never a mix or an empty file.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


def replace_file(path: Path, text: str, *, new_mode: int = 0o600) -> None:
    """Replace the contents of ``path`` with ``text`` (UTF-8) in one step.

    Args:
        path: The file; it and its folder are created if missing.
        text: Its new contents.
        new_mode: The permissions of a file that did not exist yet; an existing file keeps its
            own. The temporary file has them before it holds a byte, so a secret is never
            readable by others, even for a moment.

    Raises:
        OSError: The folder cannot be written, or the disk is full; the old file is untouched.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = new_mode
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as file:
            os.fchmod(fd, mode)
            file.write(text)
            file.flush()
            os.fsync(fd)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
