"""Carrying out the arbiter's presence and hand-over decisions on one session's clients.

The decisions come from :mod:`observer.protocol.arbiter` (a client's message, or the arbiter's
:meth:`~observer.protocol.arbiter.ControlArbiter.tick`); this module only sends the frames they
name: ``control`` to everybody, ``people`` to the clients that asked for it (``features=people``),
a refusal to the one client it concerns. ``people`` frames for joins, leaves and requests wait
:data:`PEOPLE_DELAY` and go out once for all the changes meanwhile: a hundred watchers joining
at once would otherwise be sent a hundred lists each. When the keyboard moves, the list goes at
once, before ``control``. :class:`HandoverClock` ticks the arbiters of a server's
sessions so that requests expire, or are granted to an idle holder, without anybody writing.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import Callable, Iterable
from typing import Final

from observer.protocol import frames
from observer.protocol.arbiter import ControlMoved, Decision, PeopleChanged, Tell
from observer.protocol.people_frames import PEOPLE_FEATURE
from observer.server.terminal_session import TerminalSession

TICK: Final = 0.5
"""Seconds between two looks at the pending requests of every session."""
PEOPLE_DELAY: Final = 0.1
"""Seconds a change of who is here waits for others to go out with it in one ``people``."""

_waiting: weakref.WeakKeyDictionary[TerminalSession, asyncio.TimerHandle] = (
    weakref.WeakKeyDictionary()
)
"""Sessions whose ``people`` frame is due, with the timer that sends it."""


def carry_out(session: TerminalSession, decision: ControlMoved | PeopleChanged | Tell) -> None:
    """Send what ``decision`` says to the session's clients."""
    match decision:
        case ControlMoved():
            # people first: a client then knows the new holder's name when ``control`` says
            # the keyboard moved (its recording names both sides of a handover).
            send_people(session)
            session.broadcast_control()
        case PeopleChanged():
            if session not in _waiting:
                loop = asyncio.get_running_loop()
                _waiting[session] = loop.call_later(PEOPLE_DELAY, send_people, session)
        case Tell(connection_id, frame):
            for client in session.clients:
                if client.connection.id == connection_id:
                    client.push(frames.encode(frame))


def send_people(session: TerminalSession) -> None:
    """A ``people`` frame to every client that asked for them, from its own point of view."""
    waiting = _waiting.pop(session, None)
    if waiting is not None:
        waiting.cancel()
    arbiter = session.arbiter
    for client in session.clients:
        if PEOPLE_FEATURE in client.features:
            client.push(frames.encode(arbiter.people(client.connection.id)))


def carry_out_all(session: TerminalSession, decisions: Iterable[Decision]) -> None:
    """Carry out the presence and hand-over decisions among ``decisions`` (a tick's)."""
    for decision in decisions:
        if isinstance(decision, ControlMoved | PeopleChanged | Tell):
            carry_out(session, decision)


class HandoverClock:
    """Ticks every session's arbiter every :data:`TICK` seconds while the server runs.

    Args:
        sessions: the server's sessions now (called at each tick: sessions come and go).
    """

    def __init__(self, sessions: Callable[[], Iterable[TerminalSession]]) -> None:
        self._sessions = sessions
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start ticking (in the running loop)."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop ticking."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            for session in list(self._sessions()):
                if session.arbiter.asking:
                    carry_out_all(session, session.arbiter.tick())
