"""What moves one watched session's bytes: a live connection, or a script standing in for a server.

The app holds one :class:`Link` per session (the transport's ``Connection`` is the live one; the
app never imports the transport: the command that starts the app hands it the links). A link
drives its
:class:`~observer.client.watched.WatchedSession` (the core) until the session ends; the app's feeder
parses what the core received and the views draw the core's model and status. Neither kind of link
decides anything about the session: that is the core's.

:class:`ScriptedLink` plays fixed steps through the real native adapter, encoded as the wire
frames an ``observer.v1`` server would send, and answers ``take``/``release`` as that server would:
screenshots and the app's tests run the same code path as a live session, without a network.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from observer.app.widgets.screen_source import Listener
from observer.client.events import (
    KeyboardAsked,
    NoticePosted,
    ScreenChanged,
    SessionEvent,
    StatusChanged,
)
from observer.client.watched import WatchedSession
from observer.protocol import frames
from observer.protocol.adapter import Message
from observer.protocol.adapters.native import NativeAdapter
from observer.protocol.events import (
    Event,
    OutputReceived,
    Resized,
    SessionStarted,
    SnapshotReceived,
)
from observer.protocol.native_events import frame_of
from observer.protocol.people_frames import Decline, Hand
from observer.terminal import TerminalModel


class Link(Protocol):
    """One session's I/O, as the app sees it (the transport's ``Connection`` is one)."""

    session: WatchedSession
    label: str
    """What people call the session (its profile's name, or endpoint and identifier)."""
    received: asyncio.Event
    """Set whenever the session received or queued something (the feeder waits on it, then
    drains the session's events)."""

    async def run(self) -> None:
        """Drive the session until it ends (raising what ended it, if it failed)."""
        ...

    async def close(self) -> None:
        """End the session and its recording."""
        ...


class LiveScreen:
    """What a view draws of a live session: its model, and the rows the session reports
    changed (the app drains the session's events and hands each screen change to
    :meth:`changed`; views subscribe here, never to the session)."""

    def __init__(self, session: WatchedSession) -> None:
        self._session = session
        self._listeners: list[Listener] = []

    @property
    def model(self) -> TerminalModel:
        """The terminal to draw."""
        return self._session.model

    @property
    def behind(self) -> bool:
        """Output is waiting to be parsed: draw fewer frames."""
        return self._session.behind

    @property
    def in_control(self) -> bool:
        """Keys typed go to the agent."""
        return self._session.in_control

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(dirty_rows, whole)`` after each change."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        """Stop calling ``listener``."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def changed(self, rows: set[int], whole: bool) -> None:
        """The session reported ``rows`` changed (every row when ``whole``)."""
        for listener in list(self._listeners):
            listener(rows, whole)


_screens: weakref.WeakKeyDictionary[WatchedSession, LiveScreen] = weakref.WeakKeyDictionary()


def live_screen(session: WatchedSession) -> LiveScreen:
    """The one :class:`LiveScreen` of ``session`` (made at the first ask)."""
    screen = _screens.get(session)
    if screen is None:
        screen = _screens[session] = LiveScreen(session)
    return screen


def dispatch(
    session: WatchedSession,
    events: list[SessionEvent],
    *,
    status_changed: Callable[[], object],
    notify: Callable[[NoticePosted], object],
    asked: Callable[[KeyboardAsked], object] = lambda event: None,
) -> None:
    """Hand what ``session`` queued to the app: screen changes to its views, notices to
    ``notify``, requests for the keyboard to ``asked``, and one ``status_changed()`` for any
    number of status changes."""
    changed = False
    for event in events:
        if isinstance(event, ScreenChanged):
            live_screen(session).changed(set(event.rows), event.whole)
        elif isinstance(event, NoticePosted):
            notify(event)
        elif isinstance(event, KeyboardAsked):
            asked(event)
        elif isinstance(event, StatusChanged):
            changed = True
    if changed:
        status_changed()


def session_name(label: str) -> str:
    """What people call the session labelled ``label``: its first part (the profile's name, or
    the identifier), without the endpoint after ``·``."""
    return label.partition(" · ")[0]


def endpoint_said_once(state: str, label: str) -> str:
    """``state`` (``closed: ws://host:1 has no session…``) without the endpoint at the start of
    its reason when the line shows the label's endpoint anyway: the reason then fits."""
    endpoint = label.partition(" · ")[2]
    return state.replace(f": {endpoint} ", ": ", 1) if endpoint else state


@dataclass(frozen=True, slots=True)
class ConnectionChanged:
    """A scripted step: the connection went up, dropped (``reconnecting``) or closed."""

    state: Literal["connected", "reconnecting", "closed"]
    reason: str = ""


@dataclass(frozen=True, slots=True)
class LatencyMeasured:
    """A scripted step: a round trip took ``seconds``."""

    seconds: float


Step = Event | ConnectionChanged | LatencyMeasured
Steps = Sequence[tuple[float, Step]]


@dataclass
class ScriptedLink:
    """A session played from ``(delay, step)`` pairs by a stand-in ``observer.v1`` server.

    It grants ``take`` unless ``holder_other`` (then it answers ``control_held``), keeps the input
    it is sent while the holder in ``sent``, and every request in ``requests``; like a server it
    keeps its own model of the screen and answers ``resync`` with a snapshot of it.
    """

    session: WatchedSession
    steps: Steps
    label: str = "scripted session"
    holder_other: bool = False
    hold_open: bool = True
    clock: Callable[[], float] = time.monotonic
    sent: list[bytes] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    """``take``, ``release`` and ``resync`` requests (and ``hand``/``decline`` frames as sent),
    in order."""
    resizes: list[tuple[int, int]] = field(default_factory=list)
    received: asyncio.Event = field(default_factory=asyncio.Event)
    drained: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once every step has been played."""
    _outgoing: asyncio.Event = field(default_factory=asyncio.Event)
    _closed: asyncio.Event = field(default_factory=asyncio.Event)
    _holder: bool = False
    _model: TerminalModel = field(default_factory=lambda: TerminalModel(80, 24, scrollback=0))
    _offset: int = 0

    async def run(self) -> None:
        """Play the steps; then stay open (answering requests) until closed."""
        self.session.wake_with(self._wake)
        server = asyncio.create_task(self._serve())
        try:
            for delay, step in self.steps:
                if delay > 0:
                    await asyncio.sleep(delay)
                self._play(step)
                self.received.set()
            self.drained.set()
            if self.hold_open:
                await self._closed.wait()
        finally:
            server.cancel()
            await asyncio.gather(server, return_exceptions=True)
            self.received.set()

    async def close(self) -> None:
        """Stop, as a user closing the app would."""
        self.session.request_quit()
        if self.session.capabilities is not None:
            self.session.connection_closed("closed", code=1000, now=self.clock())
        self._closed.set()
        self.session.end_recording()

    def _wake(self) -> None:
        """The session queued something: the stand-in server reads what was sent, the feeder
        drains events."""
        if self.session.queued:
            self._outgoing.set()
        self.received.set()

    def push(self, step: Step) -> None:
        """Play ``step`` now (a test's way to make something happen mid-session)."""
        self._play(step)
        self.received.set()

    def _play(self, step: Step) -> None:
        session, now = self.session, self.clock()
        if isinstance(step, ConnectionChanged):
            if step.state == "connected":
                session.connection_opened(NativeAdapter(), now)
            else:
                session.connection_closed(
                    step.reason or "the connection dropped", code=None, now=now
                )
            return
        if isinstance(step, LatencyMeasured):
            session.measured(step.seconds)
            return
        if session.capabilities is None:
            session.connection_opened(NativeAdapter(), now)
        self._follow(step)
        message = frame_of(step)
        if message is not None:
            session.received(message, now)

    def _follow(self, step: Event) -> None:
        """Keep this stand-in server's own model of the screen, as a real server does."""
        match step:
            case OutputReceived(data):
                self._model.feed(data)
                self._offset += len(data)
            case SessionStarted(cols=cols, rows=rows) | Resized(cols, rows):
                self._model.resize(cols, rows)
            case SnapshotReceived(data, cols, rows, offset):
                self._model = TerminalModel(cols, rows, scrollback=0)
                self._model.feed(data)
                self._offset = offset

    async def _serve(self) -> None:
        while True:
            await self._outgoing.wait()
            self._outgoing.clear()
            for message in self.session.data_to_send():
                self._answer(message)
            self.received.set()

    def _answer(self, message: Message) -> None:
        if isinstance(message, bytes):
            if self._holder:
                self.sent.append(message)
            return
        frame = frames.decode_client_frame(message)
        answer: frames.ServerFrame | None = None
        match frame:
            case frames.Take():
                self.requests.append("take")
                if self.holder_other:
                    answer = frames.Error(frames.CONTROL_HELD, "another client holds control")
                else:
                    self._holder, answer = True, frames.Control("you")
            case frames.Release():
                self.requests.append("release")
                self._holder, answer = False, frames.Control("none")
            case frames.Resize(cols, rows):
                self.resizes.append((cols, rows))
            case Hand() | Decline():
                self.requests.append(str(frames.encode(frame)))
            case frames.Resync():
                self.requests.append("resync")
                model = self._model
                answer = frames.Snapshot(self._offset, model.cols, model.rows, model.to_ansi())
        if answer is not None:
            self.session.received(frames.encode(answer), self.clock())
