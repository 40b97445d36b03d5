"""The connection's life: up, dropped and retried, or closed for good; and how the session ends.

:class:`Lifecycle` keeps the peer that speaks now (its adapter and capabilities), the stream
offset the next connection resumes from, the reconnect policy's decisions, the program's exit
and the user's quit, and what the peer last said about the session (its identifier, title,
size, watchers, echo). It decides what a closed connection means: a ttyd or raw bridge closes
the socket when its program ends, so that close is the exit; a close the user asked for is no
drop; a refusal stops the session; any other close is a drop the policy may retry.
"""

from __future__ import annotations

from dataclasses import dataclass

from observer.client.events import ConnectionOpened, Outlet, ReconnectDecided
from observer.client.reconnect import Decision, ReconnectPolicy, Retry, Stop
from observer.client.recording_policy import RecordingPolicy
from observer.client.status import ConnectionState, Severity
from observer.protocol.adapter import Adapter
from observer.protocol.events import Capabilities, SessionStarted
from observer.terminal.sanitize import sanitize_title


@dataclass(frozen=True, slots=True)
class JoinRequest:
    """What the next connection asks for (the transport builds the URL and adapter from it)."""

    control: bool
    since: int | None
    cols: int
    rows: int


class Lifecycle:
    """One watched session's connections, from the first to the end (see the module docstring).

    Args:
        outlet: where what happened is queued.
        recording: the recording policy, if the session is recorded.
        reconnect: the reconnect policy.
        identifier: the session identifier asked for.
        size: the remote size until the peer says.
        stop_at_exit: end the session when the program exits (a recorder).
    """

    def __init__(
        self,
        outlet: Outlet,
        recording: RecordingPolicy | None,
        reconnect: ReconnectPolicy,
        *,
        identifier: str,
        size: tuple[int, int],
        stop_at_exit: bool,
    ) -> None:
        self._outlet, self._recording, self.reconnect = outlet, recording, reconnect
        self.stop_at_exit = stop_at_exit
        self.adapter: Adapter | None = None
        self.capabilities: Capabilities | None = None
        self.connections = 0
        self._opened_at = 0.0
        self.state: ConnectionState = "connecting"
        self.retry_at: float | None = None
        self.reason = ""
        self.last_error = ""
        self.latency: float | None = None
        self.exited = False
        self.exit_status: int | None = None
        self.quit_requested = False
        """The user ended the session: the close that follows is not a drop."""
        self.close_after_sending = False
        """The session is over: the transport closes the connection once the outbox is sent."""
        self.next_offset: int | None = None
        self.identifier = identifier
        self.title = ""
        self.remote_size = size
        self.watchers: int | None = None
        self.complete = True
        self.echo = True
        self.gaps = 0

    def join_request(self, *, control: bool, size: tuple[int, int] | None) -> JoinRequest:
        """What the next connection asks for (``size``: the view's, if known)."""
        caps = self.capabilities
        resumable = caps is not None and caps.resume and self.next_offset is not None
        cols, rows = size or self.remote_size
        return JoinRequest(control, self.next_offset if resumable else None, cols, rows)

    def opened(self, adapter: Adapter, now: float) -> None:
        """A connection is up, speaking through ``adapter``."""
        self.adapter, self.capabilities = adapter, adapter.capabilities
        self.connections += 1
        self._opened_at = now
        self.state, self.retry_at, self.reason = "connected", None, ""
        self.reconnect.opened()
        outlet = self._outlet
        outlet.forget_outbox()  # nothing typed for the last connection goes to this one
        outlet.send(adapter.opening_messages())
        recording = self._recording
        if recording is not None and recording.record_input and not adapter.capabilities.echo:
            outlet.tell(
                "This peer does not say when echo is off: keys typed at a password prompt "
                "would be recorded — record without --record-input to keep them out",
                "warning",
            )
        since = self.next_offset if adapter.capabilities.resume else None
        outlet.post(ConnectionOpened(self.connections, since, self._lost_output()))
        outlet.status_changed()

    def started(self, event: SessionStarted) -> bool:
        """The peer's hello; True when the screen must start afresh (a rejoin that lost output,
        or a new program)."""
        caps = self.capabilities
        self.identifier = sanitize_title(event.identifier) or self.identifier
        self.title = sanitize_title(event.title) or self.title
        self.watchers = event.watchers if caps is not None and caps.watchers else None
        self.remote_size = (event.cols, event.rows)
        self.complete = event.complete
        again, fresh = self.connections > 1, self._lost_output()
        recording = self._recording
        if recording is not None:
            if again:
                recording.reconnected()
            recording.started(event.cols, event.rows, event.title, complete=event.complete)
            if fresh and caps is not None:
                recording.restarted(new_program=caps.reconnect == "new program")
        if again:
            self._outlet.tell(self._rejoined())
        return fresh

    def failed(self, reason: str, *, retryable: bool, now: float) -> Decision:
        """An attempt to connect failed before the upgrade."""
        decision = self.reconnect.failed(reason, retryable=retryable)
        self.last_error = self.reason = reason
        return self._decided(decision, now)

    def closed(
        self, reason: str, *, code: int | None, now: float, timed_out: bool, refused: bool
    ) -> Decision:
        """The connection ended.

        Args:
            reason: why, in words for people.
            code: the close code the peer sent (None: no close frame came).
            now: the time.
            timed_out: we closed it because the peer stopped answering keepalive pings: the
                network failed, not the peer (so not even a close-means-exit peer has exited).
            refused: the close code says no attempt can work (RFC 6455 policy, protocol or
                size errors): the session stops, and ``reason`` is its error.
        """
        self.adapter = None
        caps = self.capabilities
        was_up = self.state == "connected"
        if refused:
            self.last_error = reason
            return self._decided(Stop(reason, fatal=True), now)
        if not self.exited and not timed_out and caps is not None and caps.exit == "close":
            # ttyd and raw bridges close the socket when their program ends: that is the exit.
            self.exit(None)
        if self.exited:
            return self._decided(Stop(self.exit_reason()), now)
        if self.quit_requested:
            return self._decided(Stop("closed"), now)
        if self._recording is not None:
            self._recording.disconnected()
        self.reason = reason
        decision = Stop(reason) if code == 1000 else self.reconnect.dropped(now - self._opened_at)
        if was_up:
            after = "; reconnecting" if isinstance(decision, Retry) else ""
            self.tell(f"Disconnected: {reason}{after}", "warning")
        return self._decided(decision, now)

    def exit(self, status: int | None) -> None:
        """The program ended (with ``status`` where the peer says)."""
        self.exited, self.exit_status = True, status
        if self._recording is not None:
            self._recording.exited(status)
        self.tell(self.exit_reason())
        if self.stop_at_exit:
            self.quit_requested = self.close_after_sending = True
            self._outlet.wake()

    def tell(self, text: str, severity: Severity = "information") -> None:
        """Tell a person ``text``; a warning or an error is also the session's last error."""
        if severity != "information":
            self.last_error = text
        self._outlet.tell(text, severity)

    def printed_since(self, offset: int) -> bool:
        """Whether a screen at stream ``offset`` shows output this session has not had: only
        then is a snapshot or a frame the agent printing (opening a tile, going back or a
        reconnect with nothing missed repaints the same screen, and must not end a wait)."""
        return self.next_offset is None or offset > self.next_offset

    def arbitrated(self) -> bool:
        """Whether the peer arbitrates control (unknown peers are assumed to)."""
        caps = self.capabilities
        return caps is None or caps.arbitration == "server"

    def exit_reason(self) -> str:
        """The program's exit, in words for people."""
        caps = self.capabilities
        status = "" if self.exit_status is None else f" with status {self.exit_status}"
        text = f"The agent exited{status}"
        if caps is not None and caps.reconnect == "new program":
            text += " (a new connection would start a new program)"
        return text

    def _lost_output(self) -> bool:
        """Whether this connection rejoined a peer that cannot resume: the output sent while
        disconnected is lost, and the screen starts afresh."""
        caps = self.capabilities
        return self.connections > 1 and caps is not None and caps.reconnect != "resume"

    def _rejoined(self) -> str:
        caps = self.capabilities
        if caps is not None and caps.reconnect == "new program":
            return "Reconnected: the peer started a new program"
        if caps is not None and caps.reconnect == "rejoin":
            return "Reconnected: output sent while disconnected was lost"
        return "Reconnected"

    def _decided(self, decision: Decision, now: float) -> Decision:
        self._outlet.post(ReconnectDecided(decision))
        if isinstance(decision, Retry):
            self.state = "reconnecting"
            self.retry_at = now + decision.delay
        else:
            self.state, self.retry_at = "closed", None
            self.reason = decision.reason
        self._outlet.status_changed()
        return decision
