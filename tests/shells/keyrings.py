"""A real keyring backend kept in memory, for tests.

Why in memory rather than the OS keyring: the test machine has no Secret Service (no D-Bus session,
no unlocked collection), and tests must not touch a developer's real keychain. Why not keyrings.alt's
file backend: it has priority 0.5, which ``observer.credentials.store`` (rightly) refuses when it is picked
implicitly — the refusal is tested separately. This class implements keyring's full
``KeyringBackend`` API, so the code under test goes through keyring exactly as in production.
"""

from __future__ import annotations

from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError


class MemoryKeyring(KeyringBackend):
    """Passwords in a dict keyed by (service, username)."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.entries.pop((service, username), None) is None:
            raise PasswordDeleteError("no such password")


class BrokenKeyring(MemoryKeyring):
    """A backend whose store fails like a locked Secret Service collection does."""

    def set_password(self, service: str, username: str, password: str) -> None:
        raise RuntimeError(f"collection is locked (tried to store {password})")


# keyring registers every KeyringBackend subclass for auto-detection; these test backends must
# never be picked by keyring on its own (in this or any other test of the same process).
for _backend in (MemoryKeyring, BrokenKeyring):
    KeyringBackend._classes.discard(_backend)  # type: ignore[attr-defined]
