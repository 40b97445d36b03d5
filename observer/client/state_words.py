"""One vocabulary for a session's state: the words the status bar, the tiles, ``observer
sessions`` and ``export`` use for it, written once.

Pure functions of the derived :class:`~observer.client.status.SessionStatus` (or, for a listing
or a recording, of the same facts as the peer or the file gives them). Each fact is said once
per line: while the connection is down or the program has exited, what the agent was doing is
not said as if it were now (:func:`agent_now`).
"""

from __future__ import annotations

from observer.client.attention import Attention
from observer.client.status import SessionStatus
from observer.errors import what_happened
from observer.protocol.events import Holder


def exited(status: int | str | None, *, short: bool = False) -> str:
    """``exited with status 2`` (``exited 2`` for a tile's title line; ``exited`` when the peer
    does not say)."""
    if status is None or status == "":
        return "exited"
    return f"exited {status}" if short else f"exited with status {status}"


def exited_column(has_exited: bool, status: int | str | None) -> str:
    """Whether the program exited, for a table's ``EXITED`` column: ``no``, or ``yes (3)``."""
    if not has_exited:
        return "no"
    return f"yes ({status})"


def holder(who: Holder | str | None) -> str:
    """Who holds the keyboard, for a table: ``you``, ``someone`` (another client) or ``nobody``."""
    if who == "you":
        return "you"
    return "someone" if who == "other" else "nobody"


def keyboard(status: SessionStatus) -> str:
    """Who has the keyboard when it is not ours, or who asks us for it: ``alice has the
    keyboard``, ``asking alice for the keyboard…``, ``bob asks for the keyboard``."""
    holder = status.holder_label
    if status.in_control and status.asked_by:
        names = ", ".join(label for _, label in status.asked_by)
        return f"{names} {'ask' if len(status.asked_by) > 1 else 'asks'} for the keyboard"
    if status.asking:
        return f"asking {holder or 'the holder'} for the keyboard…"
    return f"{holder} has the keyboard" if holder else "held by another client"


def duration(seconds: float) -> str:
    """A time span as a glance reads it: ``12s``, ``4m05s``, ``1h02m``."""
    whole = max(0, int(seconds))
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"


def waited_for(status: SessionStatus) -> float:
    """Seconds the agent has waited: since it last printed (what it asks stays on its screen)."""
    return status.quiet_for


def waited(attention: Attention, quiet_for: float) -> str:
    """How long the agent has waited, after what it needs (``needs permission 4m05s``)."""
    return f"{attention.reason} {duration(quiet_for)}"


def why_down(status: SessionStatus) -> str:
    """Why the connection is down, short enough for a title line (empty while it is up).

    The part before the advice (``observer: what happened — what to do``): while the client
    retries by itself, what happened is the news; the full line went by as a notice.
    """
    if status.connection == "connected":
        return ""
    return what_happened(status.reason)


def connection(status: SessionStatus) -> str:
    """The connection's state for the status bar, the exit included (``reconnecting in 2 s:
    ...``, ``closed: ...``, ``connected (gap ×1)``)."""
    if status.exited:
        return exited(status.exit_status)
    if status.connection == "reconnecting":
        retry = f" in {round(status.retry_in)} s" if status.retry_in is not None else ""
        why = why_down(status)
        return f"reconnecting{retry}: {why}" if why else f"reconnecting{retry}"
    if status.connection == "closed" and status.reason:
        return f"closed: {status.reason}"
    if status.connection == "connected" and status.gaps:
        return f"connected (gap ×{status.gaps})"
    return status.connection


def summary(status: SessionStatus) -> str:
    """A short plain-text state for a tile's title line: what the agent needs, or its exit, or
    why the connection is down, or what the agent does."""
    attention = status.attention
    if attention is not None and status.connection == "connected":
        said = waited(attention, waited_for(status))
        return f"{said}: {attention.text}" if attention.text else said
    if status.exited:
        return exited(status.exit_status, short=True)
    if status.connection != "connected":
        if status.connection == "closed" and status.last_error:
            return f"closed: {status.last_error}"
        why = why_down(status) if status.connection == "reconnecting" else ""
        return f"reconnecting: {why}" if why else status.connection
    if status.agent in ("idle", "waiting"):
        return f"{status.agent} {duration(status.quiet_for)}"
    return status.agent


def agent_now(status: SessionStatus) -> str | None:
    """The agent's state for a line that says the connection's state apart (the status bar):
    None when that already says it all (the program exited), or when it is not known now (the
    connection is down: the last state would read as current)."""
    return summary(status) if status.live else None
