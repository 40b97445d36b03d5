"""One error tree for the whole project.

Every error a user can cause is an :class:`ObserverError` that carries what happened
(:attr:`~ObserverError.what`) and, where there is one, what to do (:attr:`~ObserverError.advice`)
as separate fields. ``str(error)`` joins them as ``what — advice``: the CLI prints
``observer: <what> — <what to do>`` and exits non-zero; the app shows the same line as a
notification; a title line that has room for one part shows :attr:`~ObserverError.what` alone.
Nobody sees a traceback for a bad token, a refused connection or a corrupt file.
"""

from __future__ import annotations

SEPARATOR = " — "
"""Between what happened and what to do, in every message a person reads."""


def joined(what: str, advice: str | None) -> str:
    """The one-line message for a person: ``what — advice``, or ``what`` when there is no advice."""
    return f"{what}{SEPARATOR}{advice}" if advice else what


def what_happened(message: str) -> str:
    """The ``what`` of a message that reached a consumer only as text (``what — advice``).

    For state that keeps an error's words rather than the error (a session's last reason):
    where the error object is at hand, read :attr:`ObserverError.what` instead.
    """
    return message.partition(SEPARATOR)[0].strip()


class ObserverError(Exception):
    """Base of every error the project raises on purpose.

    Args:
        what: What happened, in words for the person who ran the command.
        advice: What they can do about it, or None when there is nothing to do.
    """

    def __init__(self, what: str, advice: str | None = None) -> None:
        self.what = what
        self.advice = advice
        super().__init__(joined(what, advice))


class ProtocolError(ObserverError):
    """The peer sent something that breaks the protocol (its fault, not ours)."""


class InvalidState(ObserverError):
    """An operation was asked for in a state that does not allow it (our fault)."""


class CastFormatError(ObserverError):
    """An asciicast file is malformed. ``line`` is 1-based, or ``None`` if not tied to a line.

    ``reason`` is what is wrong without the place; ``what`` names the file and line too.
    """

    def __init__(
        self,
        reason: str,
        advice: str | None = None,
        *,
        path: str | None = None,
        line: int | None = None,
    ) -> None:
        self.reason = reason
        self.path = path
        self.line = line
        where = path or "recording"
        if line is not None:
            where = f"{where}, line {line}"
        super().__init__(f"{where}: {reason}", advice)


class TokenStoreError(ObserverError):
    """The OS keyring could not store or return a token."""


class ConnectionFailed(ObserverError):
    """A connection to an endpoint could not be made or was refused.

    ``retryable`` is False for refusals that another attempt cannot fix (a 403, a 400, a 404).
    """

    def __init__(
        self,
        what: str,
        advice: str | None = None,
        *,
        retryable: bool = True,
        status: int | None = None,
    ) -> None:
        self.retryable = retryable
        self.status = status
        super().__init__(what, advice)


class UsageError(ObserverError):
    """The command line or a config file asks for something that cannot be done."""


class ThemeError(ObserverError):
    """A theme file is missing or malformed."""
