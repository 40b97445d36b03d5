"""What the session core's façade shows views and shells: read-only attributes, each kept by
one of its parts (:class:`~observer.client.watched.WatchedSession` adds what they do)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar, overload

from observer.client.control import Control
from observer.client.events import Outlet
from observer.client.lifecycle import Lifecycle
from observer.client.parse_queue import ParseQueue
from observer.client.peer_events import PeerEvents
from observer.client.people import Presence
from observer.client.recording_policy import RecordingPolicy
from observer.client.tile_view import TileView
from observer.protocol.events import Capabilities
from observer.protocol.modes import ControlMode
from observer.protocol.screen_frames import View
from observer.terminal import TerminalModel

T = TypeVar("T")


class _Read(Generic[T]):
    """A read-only attribute the façade shows and one of its parts keeps (on the class, itself)."""

    def __init__(self, read: Callable[[SessionReads], T]) -> None:
        self._read = read

    @overload
    def __get__(self, session: None, owner: object = None) -> _Read[T]: ...
    @overload
    def __get__(self, session: SessionReads, owner: object = None) -> T: ...
    def __get__(self, session: SessionReads | None, owner: object = None) -> T | _Read[T]:
        return self if session is None else self._read(session)


class SessionReads:
    """The façade's read-only attributes; its ``__init__`` makes the parts they read."""

    _life: Lifecycle
    _queue: ParseQueue
    _control: Control
    _outlet: Outlet
    _tile: TileView
    _peer: PeerEvents
    _recording: RecordingPolicy | None

    identifier = _Read[str](lambda s: s._life.identifier)
    """The session's identifier (as the peer names it, once it has)."""
    model = _Read[TerminalModel](lambda s: s._queue.model)
    """The terminal model views draw."""
    capabilities = _Read[Capabilities | None](lambda s: s._life.capabilities)
    """The connected peer's capabilities (None until the first connection)."""
    mode = _Read[ControlMode](lambda s: s._control.mode)
    """Where this client stands on the way to and from the keyboard."""
    connections = _Read[int](lambda s: s._life.connections)
    """Connections opened so far."""
    queued = _Read[int](lambda s: s._outlet.queued)
    """Messages waiting in the outbox."""
    backlog = _Read[int](lambda s: s._queue.backlog)
    """Bytes of output received and not yet fed to the model."""
    pending = _Read[bool](lambda s: s._queue.pending)
    """Whether :meth:`feed` has something to do."""
    view = _Read[View](lambda s: s._tile.asked)
    """What this session gets from the peer now: the ``screen``'s state or the ``stream``."""
    last_output = _Read[float | None](lambda s: s._peer.last_output)
    """When output last arrived."""
    snapshots = _Read[int](lambda s: s._peer.snapshots)
    """Snapshots received so far."""
    recorded = _Read[bool](lambda s: s._recording is not None)
    """Whether this session is recorded."""
    scrollback = _Read[int](lambda s: s._queue.scrollback)
    """Lines of scrollback the model keeps."""
    parse_rate = _Read[float](lambda s: s._queue.catch_up.rate.bytes_per_second)
    """How fast this client parses output, in bytes a second (the feeder sizes its pieces by it)."""
    presence = _Read[Presence | None](lambda s: s._control.presence)
    """Who is connected, as the peer last said (None where it does not say)."""
    in_control = _Read[bool](lambda s: s._control.in_control)
    """Whether keys typed now are sent."""
    quit_requested = _Read[bool](lambda s: s._life.quit_requested)
    """The user ended the session (the close that follows is not a drop)."""
    close_after_sending = _Read[bool](lambda s: s._life.close_after_sending)
    """The session is over: the transport closes the connection once the outbox is sent."""
    behind = _Read[bool](lambda s: s._queue.catch_up.behind(s._queue.backlog))
    """Output is waiting that takes a while to parse: views draw fewer frames meanwhile."""
    paced = _Read[bool](lambda s: s._tile.asked == "screen" and s._tile.framed)
    """Whether the peer paces what this session gets (the screen view's few frames a second,
    not bytes as the agent writes them): a view draws each as it comes."""
    resyncs = _Read[int](lambda s: s._queue.resyncs)
    """Snapshots asked for to skip output that would take too long to parse."""
