"""What a watched session tells its shells, and the one queue it tells it through.

The core never calls out with what happened: it queues it, in order, as the events below, and
queues what to send beside them; the shells drain both
(:meth:`~observer.client.watched.WatchedSession.take_events`,
:meth:`~observer.client.watched.WatchedSession.data_to_send`), as websockets' and h11's
sans-I/O protocols are drained. The one doorbell a shell may hang
(:meth:`~observer.client.watched.WatchedSession.wake_with`) carries nothing: it only says that
something waits, so a writer or a view need not poll.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from observer.client.reconnect import Decision
from observer.client.status import Severity
from observer.protocol.adapter import Message
from observer.protocol.events import Event


@dataclass(frozen=True, slots=True)
class StatusChanged:
    """The derived status may read differently now: views read it again."""


@dataclass(frozen=True, slots=True)
class NoticePosted:
    """Something a person should be told (``severity`` as Textual's ``notify``)."""

    text: str
    severity: Severity = "information"


@dataclass(frozen=True, slots=True)
class KeyboardAsked:
    """Connection ``connection_id`` (``label``) asks us, the holder, for the keyboard: a view
    asks the person whether to hand it over."""

    connection_id: int
    label: str


@dataclass(frozen=True, slots=True)
class ScreenChanged:
    """The model's ``rows`` changed (every row when ``whole``): views repaint those."""

    rows: frozenset[int]
    whole: bool


@dataclass(frozen=True, slots=True)
class ConnectionOpened:
    """A connection came up: the ``count``-th of this session, resuming from ``since``;
    ``lost_output`` when it rejoins a peer that cannot resume (what was sent meanwhile is lost)."""

    count: int
    since: int | None
    lost_output: bool = False


@dataclass(frozen=True, slots=True)
class PeerEventApplied:
    """The peer's adapter decoded ``event`` and the session applied it (queued only when the
    session was built with ``log_peer_events``: tests and tools read the log)."""

    event: Event


@dataclass(frozen=True, slots=True)
class ReconnectDecided:
    """An attempt failed or a connection ended, and the reconnect policy decided ``decision``."""

    decision: Decision


SessionEvent = (
    StatusChanged
    | NoticePosted
    | KeyboardAsked
    | ScreenChanged
    | ConnectionOpened
    | PeerEventApplied
    | ReconnectDecided
)


class Outlet:
    """The queue of what happened and the outbox of what to send, with the doorbell.

    Args:
        log_peer_events: queue a :class:`PeerEventApplied` for every event the peer sent.
    """

    def __init__(self, *, log_peer_events: bool = False) -> None:
        self.log_peer_events = log_peer_events
        self._events: list[SessionEvent] = []
        self._outbox: list[Message] = []
        self._ring: Callable[[], object] | None = None

    def ring_with(self, ring: Callable[[], object] | None) -> None:
        """Call ``ring()`` whenever something is queued (None: nobody listens)."""
        self._ring = ring

    def post(self, event: SessionEvent) -> None:
        """Queue ``event``; a status change right after another is the same news."""
        events = self._events
        if isinstance(event, StatusChanged) and events and isinstance(events[-1], StatusChanged):
            return
        events.append(event)
        self._wake()

    def status_changed(self) -> None:
        """Queue a :class:`StatusChanged`."""
        self.post(StatusChanged())

    def tell(self, text: str, severity: Severity = "information") -> None:
        """Queue a notice for a person, and the status change it comes with."""
        self.post(NoticePosted(text, severity))
        self.status_changed()

    def peer_event(self, event: Event) -> None:
        """Log ``event`` when the session keeps a log of what the peer said."""
        if self.log_peer_events:
            self.post(PeerEventApplied(event))

    def send(self, messages: list[Message]) -> None:
        """Queue ``messages`` for the connection, in order."""
        if messages:
            self._outbox.extend(messages)
            self._wake()

    def forget_outbox(self) -> None:
        """Drop what waits to be sent (it was meant for a connection that is gone)."""
        self._outbox.clear()

    @property
    def queued(self) -> int:
        """Messages waiting in the outbox."""
        return len(self._outbox)

    def take_events(self) -> list[SessionEvent]:
        """What happened since the last call, in order."""
        events, self._events = self._events, []
        return events

    def data_to_send(self) -> list[Message]:
        """Messages to write to the connection, in order; empties the outbox."""
        messages, self._outbox = self._outbox, []
        return messages

    def wake(self) -> None:
        """Ring the doorbell (the session asks its shell to look)."""
        self._wake()

    def _wake(self) -> None:
        if self._ring is not None:
            self._ring()
