"""One client's connection, from its ``hello`` to its close: read, decide, carry out.

The decisions come from the sans-I/O :class:`~observer.protocol.arbiter.ServerConnection`; this
loop only carries them out on the session, and paces the reading: a client that floods the
server with messages is read at :class:`~observer.server.limits.ReadBudget`'s rate. A
``resync`` while one is pending changes nothing (one snapshot per client per interval, however
often it asks), and reading goes on meanwhile: a controller that resyncs to catch up with a flood
keeps typing (stopping to read until the snapshot was sent held its keys up to a second).

A client of another stream than ``observer.v1`` (raw, asciicast, ALiS: its socket translates,
:mod:`observer.server.stream_socket`) sends nothing but input: its binary messages are input,
under the same rule as a native client's (only the holder's reach the PTY; a watcher's are
dropped, with nobody to tell); a text message closes it (1003), and so does asking for control
(``mode=control``) while another client holds it (1008): its input would go nowhere, unseen.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from websockets.asyncio.server import ServerConnection as WebSocket
from websockets.exceptions import ConnectionClosed

from observer.protocol import frames
from observer.protocol.arbiter import (
    ControlMoved,
    Decision,
    Disconnect,
    PeopleChanged,
    Reply,
    ResizePty,
    SendSnapshot,
    ServerConnection,
    SwitchView,
    Tell,
    WriteToPty,
)
from observer.protocol.screen_frames import Notified
from observer.server import people
from observer.server.clients import Client
from observer.server.limits import ReadBudget
from observer.server.stream_socket import Noticed, TranslatingSocket
from observer.server.terminal_session import TerminalSession
from observer.server.websocket_adapter import Message

log = logging.getLogger("observer.server")

INPUT_FULL_MESSAGE = "input dropped: the program has not read the earlier input yet"
UNSUPPORTED_DATA = 1003
"""Close code for a text message on a stream that takes binary input only (RFC 6455 7.4.1)."""
BINARY_ONLY = Disconnect(
    UNSUPPORTED_DATA, "this stream takes binary messages only: input, with mode=control"
)
CONTROL_HELD = Disconnect(1008, "another client holds control; connect with mode=watch to watch")
Receive = Callable[[Message, bool], list[Decision]]


async def run_connection(
    websocket: WebSocket,
    session: TerminalSession,
    client: Client,
    connection: ServerConnection,
    *,
    want_control: bool,
    since: int | None,
    budget: ReadBudget,
) -> None:
    """Join ``session``, serve the client until it leaves or is closed, then leave; its
    messages are read at ``budget``'s pace. A client whose socket translates (another stream
    than ``observer.v1``) is served by the module's rules for those streams."""
    native = not isinstance(client.socket, TranslatingSocket)
    opening = connection.open(want_control)
    session.join(client, since, granted=bool(opening) and connection.holder == "you")
    writer = asyncio.create_task(client.run_writer())
    receive = _native(connection) if native else _stream(connection)
    listeners = session.feed.notices.listeners
    listener = None if native else _noticer(client)
    if listener is not None:
        listeners.append(listener)
    try:
        ending = apply(session, client, opening)
        if not native and want_control and connection.holder != "you":
            ending = CONTROL_HELD
        if ending is None:
            async for message in websocket:
                ending = apply(session, client, receive(message, session.exited))
                if ending is not None:
                    break
                pause = budget.spend()
                if pause > 0:
                    await _first(asyncio.sleep(pause), writer)
        if ending is not None:
            await close(websocket, ending)
    except ConnectionClosed:
        pass
    finally:
        if listener in listeners:
            listeners.remove(listener)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
            await writer
        session.leave(client)
        apply(session, client, connection.close())


def _native(connection: ServerConnection) -> Receive:
    return lambda message, exited: connection.receive(message, exited=exited)


def _stream(connection: ServerConnection) -> Receive:
    """A raw or asciinema client's messages: binary is input (the holder's reaches the PTY,
    a watcher's is dropped: the reply saying so has no frame in these streams); text closes."""

    def receive(message: Message, exited: bool) -> list[Decision]:
        if isinstance(message, str):
            return [BINARY_ONLY]
        return connection.receive(message, exited=exited)

    return receive


def _noticer(client: Client) -> Callable[[Sequence[Notified]], None]:
    """Queues what the agent sent to be noticed for ``client``, in stream order."""
    return lambda events: client.push(Noticed(events))


def apply(session: TerminalSession, client: Client, decisions: list[Decision]) -> Disconnect | None:
    """Carry out decisions; return the :class:`Disconnect` that ends the connection, if any."""
    for decision in decisions:
        match decision:
            case WriteToPty(data):
                if not session.write_input(data):
                    client.push(frames.encode(frames.Error(frames.INPUT_FULL, INPUT_FULL_MESSAGE)))
            case ResizePty(cols, rows):
                session.resize(cols, rows)
            case Reply(frame):
                client.push(frames.encode(frame))
            case ControlMoved() | PeopleChanged() | Tell():
                people.carry_out(session, decision)
            case SendSnapshot():
                session.request_resync(client)
            case SwitchView(view, fps):
                session.switch_view(client, view, fps)
            case Disconnect():
                return decision
    return None


async def _first(waiting: Coroutine[Any, Any, None], writer: asyncio.Task[None]) -> None:
    """Wait for ``waiting``, or for the client's writer to end (its connection closed)."""
    task = asyncio.ensure_future(waiting)
    try:
        await asyncio.wait({task, writer}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        task.cancel()


async def close(websocket: WebSocket, ending: Disconnect) -> None:
    """Close with ``ending.code``, reading (and dropping) what the client still sends meanwhile.

    Reading is what lets the client's close frame in: with unread messages queued, websockets
    pauses the socket, and the closing handshake would wait for its timeout.
    """
    closing = asyncio.create_task(websocket.close(ending.code, ending.reason))
    with contextlib.suppress(ConnectionClosed):
        async for _ in websocket:
            pass
    await closing
