"""What happened to a watched session, noted as its status changes: for rewind and "while away".

The app looks at each session's derived :class:`~observer.client.status.SessionStatus` when it
changes and every second; :class:`Happenings` turns the differences into moments of the one
marker vocabulary (:mod:`observer.asciicast.markers`): a notification or a new wait, the keyboard
taken or handed back (by whom), an outage and its end, the exit. Live rewind writes them into
its history as markers (``[``/``]`` jump between them); :func:`while_away` says them in one line
when the user comes back to a view.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from observer.asciicast.markers import MarkerKind, label
from observer.client import state_words
from observer.client.status import SessionStatus
from observer.terminal.sanitize import sanitize

KEPT = 1000
"""Moments kept per session (the oldest are forgotten)."""


@dataclass(frozen=True, slots=True)
class Happened:
    """One moment: when (monotonic seconds), what kind, and its detail (safe text)."""

    time: float
    kind: MarkerKind
    detail: str = ""

    @property
    def label(self) -> str:
        """The marker label (``notification: needs permission``)."""
        return label(self.kind, self.detail)


class Happenings:
    """The moments of one session (see the module docstring)."""

    def __init__(self) -> None:
        self.log: deque[Happened] = deque(maxlen=KEPT)
        self._wait: tuple[str, float] | None = None
        self._holder = "none"
        self._connected = False
        self._exited = False

    def seen(self, status: SessionStatus, now: float) -> list[Happened]:
        """Look at the session's status at ``now``; return (and keep) what is new."""
        new: list[Happened] = []
        attention = status.attention
        wait = (attention.reason, attention.since) if attention is not None else None
        if wait is not None and wait != self._wait and attention is not None:
            new.append(Happened(now, MarkerKind.NOTIFICATION, sanitize(str(attention))))
        self._wait = wait
        holder = status.holder
        if holder != self._holder:
            if self._holder != "none":
                new.append(Happened(now, MarkerKind.TAKEOVER_END))
            if holder != "none":
                who = "you" if holder == "you" else "another client"
                new.append(Happened(now, MarkerKind.TAKEOVER_START, who))
            self._holder = holder
        connected = status.connection == "connected"
        if connected != self._connected and not status.exited:
            kind = MarkerKind.RECONNECT if connected else MarkerKind.DISCONNECT
            if connected and not any(h.kind == MarkerKind.DISCONNECT for h in self.log):
                kind = MarkerKind.CONNECT
            new.append(Happened(now, kind))
        self._connected = connected
        if status.exited and not self._exited:
            self._exited = True
            new.append(Happened(now, MarkerKind.EXIT, state_words.exited(status.exit_status)))
        self.log.extend(new)
        return new

    def since(self, time: float) -> list[Happened]:
        """The moments after ``time``, oldest first."""
        return [happened for happened in self.log if happened.time > time]


def while_away(happened: Sequence[Happened], away: float) -> str:
    """One line of what happened in ``away`` seconds (empty when nothing did).

    ``Away 12m05s: 2 notifications (needs permission: Use Bash?), another client took the
    keyboard, 1 outage, exited with status 0 — ← shows it.``
    """
    said: list[str] = []
    notified = [h for h in happened if h.kind == MarkerKind.NOTIFICATION]
    if notified:
        plural = "s" if len(notified) > 1 else ""
        said.append(f"{len(notified)} notification{plural} (last: {notified[-1].detail})")
    takers = [h.detail for h in happened if h.kind == MarkerKind.TAKEOVER_START]
    for who in dict.fromkeys(takers):
        said.append(f"{'you' if who == 'you' else who} took the keyboard")
    outages = sum(h.kind == MarkerKind.DISCONNECT for h in happened)
    if outages:
        said.append(f"{outages} outage{'s' if outages > 1 else ''}")
    said.extend(h.detail or "exited" for h in happened if h.kind == MarkerKind.EXIT)
    if not said:
        return ""
    return f"Away {state_words.duration(away)}: {', '.join(said)} — ← shows it."
