"""The list of endpoint origins that have a stored token (never the tokens themselves).

``auth list`` needs to know which origins have a token, and keyring has no portable way to
enumerate entries. So the *origins* are kept in a small non-secret file, ``origins`` in observer's
config directory (:func:`observer.runtime.config.config_dir`: ``OBSERVER_CONFIG_DIR`` or platformdirs'),
one per line, rewritten atomically.
"""

from __future__ import annotations

import threading
from pathlib import Path

from observer.errors import TokenStoreError
from observer.runtime.files import replace_file


def default_index_path() -> Path:
    """Where the list of origins with a stored token lives (not secret)."""
    from observer.runtime.config import config_dir

    return config_dir() / "origins"


class OriginsIndex:
    """Read and update the origins file.

    Args:
        path: the file; ``None`` resolves :func:`default_index_path` when first needed.
    """

    def __init__(self, path: Path | None = None) -> None:
        self._path = path
        self._lock = threading.Lock()

    @property
    def path(self) -> Path:
        """The file's path."""
        if self._path is None:
            self._path = default_index_path()
        return self._path

    def read(self) -> list[str]:
        """The origins, sorted; a missing file is an empty list."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        except OSError as error:
            raise TokenStoreError(
                f"cannot read {self.path}: {error.strerror}", "check its permissions"
            ) from None
        return sorted({line.strip() for line in text.splitlines() if line.strip()})

    def update(self, *, add: str | None = None, remove: str | None = None) -> None:
        """Add and/or remove one origin."""
        with self._lock:
            known = set(self.read())
            if add:
                known.add(add)
            if remove:
                known.discard(remove)
            path = self.path
            try:
                # 0600: not a secret, but which endpoints one holds tokens for is nobody else's.
                replace_file(path, "".join(f"{o}\n" for o in sorted(known)), new_mode=0o600)
            except OSError as error:
                raise TokenStoreError(
                    f"cannot write {path}: {error.strerror}", "check its permissions"
                ) from None
