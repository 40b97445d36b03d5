"""One error tree for the whole project.

Every error a user can cause is an :class:`ObserverError` whose message says what happened and,
where there is one, what to do. The CLI prints ``observer: <message>`` and exits non-zero; the app
shows a notification. Nobody sees a traceback for a bad token, a refused connection or a corrupt file.
"""

from __future__ import annotations


class ObserverError(Exception):
    """Base of every error the project raises on purpose."""


class ProtocolError(ObserverError):
    """The peer sent something that breaks the protocol (its fault, not ours)."""


class InvalidState(ObserverError):
    """An operation was asked for in a state that does not allow it (our fault)."""


class CastFormatError(ObserverError):
    """An asciicast file is malformed. ``line`` is 1-based, or ``None`` if not tied to a line."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None) -> None:
        self.reason = message
        self.path = path
        self.line = line
        where = path or "recording"
        if line is not None:
            where = f"{where}, line {line}"
        super().__init__(f"{where}: {message}")


class TokenStoreError(ObserverError):
    """The OS keyring could not store or return a token."""


class ConnectionFailed(ObserverError):
    """A connection to an endpoint could not be made or was refused.

    ``retryable`` is False for refusals that another attempt cannot fix (a 403, a 400, a 404).
    """

    def __init__(self, message: str, *, retryable: bool = True, status: int | None = None) -> None:
        self.retryable = retryable
        self.status = status
        super().__init__(message)


class UsageError(ObserverError):
    """The command line or a config file asks for something that cannot be done."""


class ThemeError(ObserverError):
    """A theme file is missing or malformed."""
