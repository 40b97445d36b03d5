"""The server side of ``observer.v1``: per-connection state and control arbitration, sans-I/O.

The server keeps one :class:`ControlArbiter` per terminal session and one :class:`ServerConnection`
per connected client. A connection is fed each received message and returns *decisions* for the
I/O shell: write these bytes to the PTY, resize it, send this frame to this client or to another,
tell everybody that the holder or the people changed, send a snapshot, close. Input and resize
reach the PTY only from the holder, checked with the same mode table the client uses
(:mod:`observer.protocol.modes`).

The arbiter also knows who is connected (each connection's label, role and since when) and who
asks for the keyboard. An ``ask`` while somebody holds it waits for the holder's ``hand`` or
``decline``; the keyboard then moves in one synchronous step (:meth:`ControlArbiter.give`), so no
third client can take it in between. A holder who lets go (``release``, or leaving) hands it to
the oldest asker. Unanswered requests are declined after :data:`ASK_TIMEOUT` seconds; with
``grant_idle`` a request is granted once the holder has not typed for that long
(:meth:`ControlArbiter.tick`, which the shell calls about once a second).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from observer.protocol import frames
from observer.protocol.modes import ControlEvent, ControlMode, may_send_input, next_mode
from observer.protocol.people_frames import Ask, Decline, Hand, People, Person
from observer.protocol.screen_frames import SetView, View

Role = Literal["watch", "control"]
"""What a client's credentials allow: watching only, or also taking control."""

MAX_VIOLATIONS: Final = 64
"""Malformed frames one connection may send before it is closed with 1008 (policy violation)."""
ASK_TIMEOUT: Final = 30.0
"""Seconds a holder has to answer an ``ask`` before it is declined for them."""


@dataclass(frozen=True, slots=True)
class WriteToPty:
    """Write the holder's keyboard input to the PTY."""

    data: bytes


@dataclass(frozen=True, slots=True)
class ResizePty:
    """Resize the PTY (and the server's model), then tell every client."""

    cols: int
    rows: int


@dataclass(frozen=True, slots=True)
class Reply:
    """Send ``frame`` to this client only."""

    frame: frames.ServerFrame


@dataclass(frozen=True, slots=True)
class ControlMoved:
    """The holder changed: send every client a ``control`` frame from its point of view."""


@dataclass(frozen=True, slots=True)
class PeopleChanged:
    """Who is connected, or who asks, changed: send a ``people`` frame to every client that
    asked for them (``features=people``), from its point of view."""


@dataclass(frozen=True, slots=True)
class Tell:
    """Send ``frame`` to connection ``connection_id`` (another client of the session)."""

    connection_id: int
    frame: frames.ServerFrame


@dataclass(frozen=True, slots=True)
class SendSnapshot:
    """The client asked for a fresh snapshot (``resync``)."""


@dataclass(frozen=True, slots=True)
class SwitchView:
    """Send this client the screen's state (``screen``, at most ``fps`` a second) or the stream."""

    view: View
    fps: int


@dataclass(frozen=True, slots=True)
class Disconnect:
    """Close the connection with this WebSocket close code (RFC 6455 §7.4.1)."""

    code: int
    reason: str


Decision = (
    WriteToPty
    | ResizePty
    | Reply
    | ControlMoved
    | PeopleChanged
    | Tell
    | SendSnapshot
    | SwitchView
    | Disconnect
)

A, K, C = ControlMode.ASKING, ControlMode.ASKED, ControlMode.CONTROL
E = ControlEvent


def _no_clock() -> float:
    return 0.0


class ControlArbiter:
    """Which connection of one session holds the keyboard (at most one), who is connected and
    who asks for it.

    Args:
        clock: monotonic seconds (deadlines of requests, the holder's last key).
        grant_idle: grant a request once the holder has not typed for this many seconds
            (``None``: only the holder's answer, or their letting go, moves the keyboard).
        ask_timeout: seconds after which an unanswered request is declined (at least
            ``grant_idle``).
    """

    def __init__(
        self,
        *,
        clock: Callable[[], float] = _no_clock,
        grant_idle: float | None = None,
        ask_timeout: float = ASK_TIMEOUT,
    ) -> None:
        self.holder: int | None = None
        self.seats: dict[int, ServerConnection] = {}
        """Every connection of the session, in the order they came."""
        self.asking: dict[int, float] = {}
        """Who asks for the keyboard, oldest first, with the time their request expires."""
        self.clock = clock
        self.grant_idle = grant_idle
        self.ask_timeout = ask_timeout
        self.last_input = 0.0
        """When the holder last typed (or got the keyboard)."""

    def view(self, connection_id: int) -> frames.Holder:
        """The holder as connection ``connection_id`` sees it: you, other or none."""
        if self.holder is None:
            return "none"
        return "you" if self.holder == connection_id else "other"

    def people(self, you: int) -> People:
        """The ``people`` frame for connection ``you``."""
        listed = tuple(
            Person(seat.id, seat.label, seat.role, seat.since, seat.id in self.asking)
            for seat in self.seats.values()
        )
        return People(you, self.holder, listed)

    def label_of(self, connection_id: int | None) -> str | None:
        """The label of connection ``connection_id`` (None: not connected, or nobody)."""
        seat = self.seats.get(connection_id) if connection_id is not None else None
        return seat.label if seat is not None else None

    def told(self) -> list[Decision]:
        """A :class:`PeopleChanged` when somebody gets ``people`` frames (else nothing to do)."""
        return [PeopleChanged()] if any(seat.people for seat in self.seats.values()) else []

    def give(self, to: ServerConnection) -> list[Decision]:
        """Move the keyboard to ``to`` in one step; the holder, if any, watches from now on."""
        old = self.seats.get(self.holder) if self.holder is not None else None
        if old is not None:
            old.mode = next_mode(old.mode, E.LOST)
        self.asking.pop(to.id, None)
        to.mode = next_mode(to.mode, E.GRANTED)
        self.holder = to.id
        self.last_input = self.clock()
        if self.asking:
            to.mode = next_mode(to.mode, E.ASKED)
        return [ControlMoved()]

    def let_go(self) -> list[Decision]:
        """Nobody holds the keyboard now: it goes to the oldest asker, if any."""
        self.holder = None
        for asker in list(self.asking):
            seat = self.seats.get(asker)
            if seat is not None:
                return self.give(seat)
            del self.asking[asker]
        return [ControlMoved()]

    def ask(self, asker: ServerConnection) -> list[Decision]:
        """``asker`` asks the holder (there is one) for the keyboard."""
        holder = self.seats[self.holder] if self.holder is not None else None
        asker.mode = next_mode(asker.mode, E.ASK)
        if holder is None or self._idle():
            return self.give(asker)
        if not holder.people:
            asker.mode = next_mode(asker.mode, E.DENIED)
            message = f"{holder.label}'s client cannot be asked; ask them to hand the keyboard back"
            return [Reply(frames.Error(frames.DECLINED, message))]
        # With grant_idle, a request waits at least that long: the holder may yet fall idle.
        wait = max(self.ask_timeout, self.grant_idle or 0.0)
        self.asking[asker.id] = self.clock() + wait
        holder.mode = next_mode(holder.mode, E.ASKED)
        return [PeopleChanged()]

    def decline(self, asker: int, message: str) -> list[Decision]:
        """Say no to ``asker``'s request."""
        del self.asking[asker]
        seat = self.seats[asker]
        seat.mode = next_mode(seat.mode, E.DENIED)
        self._answered()
        return [Tell(asker, frames.Error(frames.DECLINED, message)), PeopleChanged()]

    def withdraw(self, asker: ServerConnection) -> list[Decision]:
        """``asker`` no longer asks (it released, or left)."""
        del self.asking[asker.id]
        asker.mode = next_mode(next_mode(asker.mode, E.RELEASE), E.LOST)
        self._answered()
        return [PeopleChanged()]

    def tick(self) -> list[Decision]:
        """Grant the oldest request once the holder is idle long enough; decline expired ones."""
        if not self.asking or self.holder is None:
            return []
        if self._idle():
            return self.let_go()
        now, holder = self.clock(), self.label_of(self.holder)
        decisions: list[Decision] = []
        for asker, deadline in list(self.asking.items()):
            if now >= deadline:
                decisions += self.decline(asker, f"{holder} did not answer; ask again later")
        return decisions

    def _idle(self) -> bool:
        idle = self.grant_idle
        return idle is not None and self.clock() - self.last_input >= idle

    def _answered(self) -> None:
        """The holder has nobody left to answer: back from ASKED to CONTROL."""
        holder = self.seats.get(self.holder) if self.holder is not None else None
        if not self.asking and holder is not None and holder.mode is K:
            holder.mode = next_mode(holder.mode, E.ANSWERED)


class ServerConnection:
    """One client connection as the server sees it.

    Args:
        connection_id: unique among the session's connections.
        role: what the client's token allows.
        arbiter: the session's arbiter, shared by all its connections.
        label: how the others see it (already clean: :func:`~.people_frames.clean_label`).
        since: seconds since the epoch when it connected.
        people: it asked for ``people`` frames (and can answer a request).
    """

    def __init__(
        self,
        connection_id: int,
        role: Role,
        arbiter: ControlArbiter,
        *,
        label: str = "",
        since: float = 0.0,
        people: bool = False,
    ) -> None:
        self.id = connection_id
        self.role = role
        self._arbiter = arbiter
        self.mode = ControlMode.WATCH
        self.violations = 0
        self.label = label or f"client {connection_id}"
        self.since = since
        self.people = people
        arbiter.seats[connection_id] = self

    @property
    def holder(self) -> frames.Holder:
        """Who holds control, from this connection's point of view."""
        return self._arbiter.view(self.id)

    def open(self, want_control: bool) -> list[Decision]:
        """The client connected; with ``want_control`` (``mode=control``) try to take control."""
        if want_control:
            return self._take()
        return self._arbiter.told()

    def receive(self, message: str | bytes, *, exited: bool = False) -> list[Decision]:
        """Feed one message from the client; return what the server should do. Never raises."""
        frame = frames.decode_client_frame(message)
        match frame:
            case frames.Malformed(reason):
                self.violations += 1
                if self.violations > MAX_VIOLATIONS:
                    return [Disconnect(1008, "too many malformed frames")]
                return [Reply(frames.Error(frames.BAD_FRAME, reason))]
            case frames.Input(data):
                refusal = self._refuse_pty_access("input", exited)
                if refusal is not None:
                    return [refusal]
                self._arbiter.last_input = self._arbiter.clock()
                return [WriteToPty(data)] if data else []
            case frames.Resize(cols, rows):
                refusal = self._refuse_pty_access("resize", exited)
                return [refusal] if refusal is not None else [ResizePty(cols, rows)]
            case frames.Take():
                return self._take()
            case frames.Release():
                return self._release()
            case frames.Resync():
                return [SendSnapshot()]
            case SetView(view, fps):  # any role: watching a tile is watching
                return [SwitchView(view, fps)]
            case Ask():
                return self._ask()
            case Hand(to) | Decline(to):
                return self._answer(frame, to)
        return []

    def close(self) -> list[Decision]:
        """The client went away: a holder's disconnect lets go of control, an asker's withdraws."""
        arbiter = self._arbiter
        if arbiter.holder == self.id:
            del arbiter.seats[self.id]
            self.mode = ControlMode.WATCH
            return arbiter.let_go()
        if self.id in arbiter.asking:
            decisions = arbiter.withdraw(self)
            del arbiter.seats[self.id]
            return decisions
        arbiter.seats.pop(self.id, None)
        return arbiter.told()

    def _refuse_pty_access(self, what: str, exited: bool) -> Reply | None:
        if exited:
            return Reply(frames.Error(frames.EXITED, f"{what} dropped: the process has exited"))
        if not may_send_input(self.mode):
            message = f"{what} dropped: you are watching; take control first"
            return Reply(frames.Error(frames.NOT_HOLDER, message))
        return None

    def _take(self) -> list[Decision]:
        if self.role != "control":
            return [Reply(frames.Error(frames.WATCH_ONLY, "this token allows watching only"))]
        if may_send_input(self.mode):
            return [Reply(frames.Control("you"))]
        if self.mode is A:
            return []  # its request is waiting for the holder's answer
        self.mode = next_mode(self.mode, ControlEvent.REQUEST)
        if self._arbiter.holder is not None:
            self.mode = next_mode(self.mode, ControlEvent.DENIED)
            message = "another client holds control; ask them to release it"
            return [Reply(frames.Error(frames.CONTROL_HELD, message))]
        return self._arbiter.give(self)

    def _ask(self) -> list[Decision]:
        if self.role != "control":
            return [Reply(frames.Error(frames.WATCH_ONLY, "this token allows watching only"))]
        if may_send_input(self.mode):
            return [Reply(frames.Control("you"))]
        if self.mode is A:
            return []
        return self._arbiter.ask(self)

    def _answer(self, frame: Hand | Decline, to: int) -> list[Decision]:
        arbiter = self._arbiter
        if arbiter.holder != self.id:
            message = "you do not hold the keyboard"
            return [Reply(frames.Error(frames.HANDOVER_REFUSED, message))]
        if isinstance(frame, Decline):
            if to not in arbiter.asking:
                message = "nobody of that number asks for the keyboard"
                return [Reply(frames.Error(frames.HANDOVER_REFUSED, message))]
            return arbiter.decline(to, f"{self.label} keeps the keyboard")
        seat = arbiter.seats.get(to)
        if seat is None or seat is self or seat.role != "control":
            message = "nobody of that number may take the keyboard"
            return [Reply(frames.Error(frames.HANDOVER_REFUSED, message))]
        return arbiter.give(seat)

    def _release(self) -> list[Decision]:
        arbiter = self._arbiter
        if self.mode is A:
            return arbiter.withdraw(self)
        if not may_send_input(self.mode):
            return [Reply(frames.Error(frames.NOT_HOLDER, "you do not hold control"))]
        self.mode = next_mode(next_mode(self.mode, ControlEvent.RELEASE), ControlEvent.LOST)
        return arbiter.let_go()
