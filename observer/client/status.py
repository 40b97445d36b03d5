"""What a watched session's state means to a person: connection, holder, agent state, notices.

:class:`SessionStatus` is derived by :meth:`observer.client.watched.WatchedSession.status` at a
given time; views and recorders read it and keep no copy. The agent-state rules (active, idle,
waiting) live in :mod:`observer.client.agent_state`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from observer.client.agent_state import AgentState
from observer.client.attention import Attention
from observer.protocol.events import Arbitration, Holder
from observer.terminal import ProgressReported

ConnectionState = Literal["connecting", "connected", "reconnecting", "closed"]
Severity = Literal["information", "warning", "error"]


@dataclass(frozen=True, slots=True)
class SessionStatus:
    """One watched session at one moment, as every view shows it."""

    connection: ConnectionState
    in_control: bool
    requesting: bool
    holder: Holder
    arbitration: Arbitration
    may_take: bool
    """Taking control can work now (connected, not exited, not refused as watch-only)."""
    cannot_take: str
    """Why it cannot, in words for people (empty when it can)."""
    watchers: int | None
    """Clients connected, this one included; None where the peer does not say."""
    title: str
    identifier: str
    exited: bool
    exit_status: int | None
    gaps: int
    reason: str
    """Why the connection is down or closed (empty while up)."""
    last_error: str
    """The last thing that went wrong (a refusal, a malformed frame, a failed attempt)."""
    retry_in: float | None
    latency: float | None
    complete: bool
    """False after joining a peer that sends no snapshot, until the screen is known whole."""
    echo: bool
    agent: AgentState
    quiet_for: float
    behind: bool
    """Output is waiting to be parsed: views draw fewer frames meanwhile."""
    attention: Attention | None = None
    """Why the agent needs someone (its notification, a bell, a prompt), since when."""
    progress: ProgressReported | None = None
    """The agent's last progress report (OSC 9;4), while it lasts."""
    asking: bool = False
    """We asked the holder for the keyboard and wait for the answer."""
    holder_label: str = ""
    """Who holds the keyboard by name, when somebody else does and the peer says who."""
    people: tuple[str, ...] = ()
    """Who is connected by name, grouped (``alice (2)``); empty where the peer does not say."""
    asked_by: tuple[tuple[int, str], ...] = ()
    """Who asks us, the holder, for the keyboard: (connection number, label), oldest first."""

    @property
    def live(self) -> bool:
        """The connection is up and the program runs, so what the peer last said is current.

        Otherwise the agent's state, the watchers and the holder are what they were when the
        connection went down or the program ended: a view says the connection's state (or the
        exit) instead, and shows none of them as if it were now.
        """
        return self.connection == "connected" and not self.exited
