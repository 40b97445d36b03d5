"""One client's connection, from its ``hello`` to its close: read, decide, carry out.

The decisions come from the sans-I/O :class:`~observer.protocol.arbiter.ServerConnection`; this
loop only carries them out on the session, and paces the reading: a client that floods the
server with messages is read at :class:`~observer.server.limits.ReadBudget`'s rate. A
``resync`` while one is pending changes nothing (one snapshot per client per interval, however
often it asks), and reading goes on meanwhile: a controller that resyncs to catch up with a flood
keeps typing (stopping to read until the snapshot was sent held its keys up to a second).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any

from websockets.asyncio.server import ServerConnection as WebSocket
from websockets.exceptions import ConnectionClosed

from observer.protocol import frames
from observer.protocol.arbiter import (
    ControlMoved,
    Decision,
    Disconnect,
    Reply,
    ResizePty,
    SendSnapshot,
    ServerConnection,
    SwitchView,
    WriteToPty,
)
from observer.server.clients import Client
from observer.server.limits import ReadBudget
from observer.server.terminal_session import TerminalSession

log = logging.getLogger("observer.server")

INPUT_FULL_MESSAGE = "input dropped: the program has not read the earlier input yet"


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
    messages are read at ``budget``'s pace."""
    opening = connection.open(want_control)
    session.join(client, since, granted=bool(opening) and connection.holder == "you")
    writer = asyncio.create_task(client.run_writer())
    try:
        ending = apply(session, client, opening)
        if ending is None:
            async for message in websocket:
                ending = apply(session, client, connection.receive(message, exited=session.exited))
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
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
            await writer
        session.leave(client)
        apply(session, client, connection.close())


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
            case ControlMoved():
                session.broadcast_control()
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
