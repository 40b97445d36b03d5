"""Driving the client session core with wire literals, as the transport loop does."""

from __future__ import annotations

from dataclasses import dataclass, field

from observer.client.events import NoticePosted, Outlet, ScreenChanged, StatusChanged
from observer.client.lifecycle import Lifecycle
from observer.client.reconnect import Backoff, ReconnectPolicy
from observer.client.recording_policy import RecordingPolicy
from observer.client.watched import WatchedSession
from observer.protocol import frames as f
from observer.protocol.adapter import Adapter, Message
from observer.protocol.adapters import ProtocolName, create_adapter


def hello(
    offset: int = 0,
    mode: f.Mode = "watch",
    holder: f.Holder = "none",
    cols: int = 40,
    rows: int = 5,
    watchers: int = 1,
) -> Message:
    return f.encode(f.Hello("agent", mode, cols, rows, offset, holder, watchers, ""))


def snapshot(offset: int, data: str = "\x1b[Hscreen", cols: int = 40, rows: int = 5) -> Message:
    return f.encode(f.Snapshot(offset, cols, rows, data))


def control(holder: f.Holder) -> Message:
    return f.encode(f.Control(holder))


@dataclass
class Sink:
    """A recording sink that keeps what it is given."""

    events: list[tuple[str, object]] = field(default_factory=list)
    closed: bool = False

    def output(self, data: bytes) -> None:
        self.events.append(("o", data))

    def input(self, data: bytes) -> None:
        self.events.append(("i", data))

    def marker(self, label: str = "") -> None:
        self.events.append(("m", label))

    def resize(self, cols: int, rows: int) -> None:
        self.events.append(("r", (cols, rows)))

    def exit(self, status: int) -> None:
        self.events.append(("x", status))

    def close(self) -> None:
        self.closed = True

    def markers(self) -> list[str]:
        return [str(data) for code, data in self.events if code == "m"]

    def output_bytes(self) -> bytes:
        return b"".join(data for code, data in self.events if code == "o")  # type: ignore[misc]


def recorded(record_input: bool = False) -> tuple[RecordingPolicy, Sink]:
    sink = Sink()
    return RecordingPolicy(lambda cols, rows, title: sink, record_input=record_input), sink


def connect(
    session: WatchedSession, protocol: ProtocolName = "observer", now: float = 0.0
) -> Adapter:
    """Open a connection speaking ``protocol``; the native one greets with hello + snapshot."""
    request = session.join_request()
    adapter = create_adapter(protocol, cols=request.cols, rows=request.rows, since=request.since)
    session.connection_opened(adapter, now)
    if protocol == "observer":
        session.received(hello(offset=request.since or 0), now)
        if request.since is None:
            session.received(snapshot(0), now)
    return adapter


def drain(session: WatchedSession) -> list[Message]:
    """Feed everything waiting to the model; return what the session wants to send."""
    while session.pending:
        session.feed(1 << 20, 0.0)
    return session.data_to_send()


def notices(session: WatchedSession) -> list[str]:
    """The notices the session queued since events were last taken."""
    return [e.text for e in session.take_events() if isinstance(e, NoticePosted)]


def repainted(session: WatchedSession, rows: int) -> list[set[int]]:
    """The rows each screen change the session queued reported (all ``rows`` when whole)."""
    return [
        set(range(rows)) if e.whole else set(e.rows)
        for e in session.take_events()
        if isinstance(e, ScreenChanged)
    ]


def status_changed(session: WatchedSession) -> bool:
    """Whether the session queued a status change since events were last taken."""
    return any(isinstance(e, StatusChanged) for e in session.take_events())


def lifecycle(
    outlet: Outlet, size: tuple[int, int] = (80, 24), *, stop_at_exit: bool = False
) -> Lifecycle:
    """A session's lifecycle part on its own (no recording; backoff without jitter)."""
    policy = ReconnectPolicy(Backoff(0.5, 10.0, rand=lambda: 0.0))
    return Lifecycle(outlet, None, policy, identifier="agent", size=size, stop_at_exit=stop_at_exit)
