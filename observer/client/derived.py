"""The derived status: what one watched session's parts add up to at a given time.

Views and recorders read :class:`~observer.client.status.SessionStatus` and keep no copy; it is
worked out anew from the parts each time, so nothing is synced by hand. A prompt is looked for
only once the agent has been quiet for its rule's settle time
(:func:`~observer.client.agent_state.settle_time`; the rows the recognisers read are painted first, where a tile's crop left them unpainted).
"""

from __future__ import annotations

from observer.client.agent_state import WAIT_AFTER_DIALOG, agent_state, settle_time
from observer.client.attention import rows_read
from observer.client.peer_events import Parts, PeerEvents
from observer.client.people import grouped
from observer.client.recognisers import Match
from observer.client.status import SessionStatus
from observer.protocol.modes import ControlMode


class Derived:
    """Derives one session's status from its parts."""

    def __init__(self, parts: Parts, peer: PeerEvents) -> None:
        self._life, self._control, self._queue = parts.life, parts.control, parts.queue
        self._tile, self._attention, self._peer = parts.tile, parts.attention, peer

    def status(self, now: float) -> SessionStatus:
        """The session as views show it at ``now``."""
        life, control, attention, queue = self._life, self._control, self._attention, self._queue
        prompt = self._prompt(now)
        state, quiet = agent_state(
            exited=life.exited,
            last_output=self._peer.last_output,
            bell_rang_last=queue.bell_rang_last,
            prompt_line=prompt is not None,
            now=now,
            asked=attention.asked is not None,
        )
        cannot = control.cannot_take()
        caps = life.capabilities
        presence = control.presence
        return SessionStatus(
            connection=life.state,
            in_control=control.in_control,
            requesting=control.mode is ControlMode.REQUESTING,
            holder="you" if control.in_control else control.holder,
            arbitration=caps.arbitration if caps is not None else "server",
            may_take=not cannot,
            cannot_take=cannot,
            watchers=life.watchers,
            title=life.title,
            identifier=life.identifier,
            exited=life.exited,
            exit_status=life.exit_status,
            gaps=life.gaps,
            reason=life.reason,
            last_error=life.last_error,
            retry_in=max(0.0, life.retry_at - now) if life.retry_at is not None else None,
            latency=life.latency,
            complete=life.complete,
            echo=life.echo,
            agent=state,
            quiet_for=quiet,
            behind=queue.catch_up.behind(queue.backlog),
            attention=attention.current(state, prompt, self._peer.last_output),
            progress=attention.progress,
            asking=control.mode is ControlMode.ASKING,
            holder_label=control.holder_label,
            people=tuple(grouped(p.label for p in presence.people)) if presence else (),
            asked_by=tuple((p.id, p.label) for p in presence.askers)
            if presence and control.in_control
            else (),
        )

    def _prompt(self, now: float) -> Match | None:
        """The prompt the screen shows, looked for once the agent has been quiet long enough."""
        last = self._peer.last_output
        if self._life.exited or last is None or now - last < WAIT_AFTER_DIALOG:
            return None
        model = self._queue.model
        self._tile.paint_unread(rows_read(self._tile.cursor_row()))  # what a crop left unpainted
        prompt = self._attention.prompt(model)
        return prompt if prompt is not None and now - last >= settle_time(prompt.where) else None
