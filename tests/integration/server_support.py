"""Helpers for the server's integration tests: a real server, real clients, a real model."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from observer.auth.tokens import Authenticator, TokenDigests
from observer.protocol.adapters.native import NativeAdapter, query
from observer.protocol.events import (
    ControlChanged,
    ControlRefused,
    ErrorReported,
    Event,
    Exited,
    OutputReceived,
    SessionStarted,
    SnapshotReceived,
)
from observer.server import Server
from observer.terminal import TerminalModel
from tests.waiting import until

CONTROL_TOKEN = "control-token-for-tests"
WATCH_TOKEN = "watch-token-for-tests"
PY = sys.executable


def authenticator() -> Authenticator:
    return Authenticator(
        TokenDigests.from_tokens([("control", CONTROL_TOKEN), ("watch", WATCH_TOKEN)])
    )


@contextlib.asynccontextmanager
async def running_server(command: Sequence[str], **options: Any) -> AsyncIterator[Server]:
    """A real server on 127.0.0.1 and a free port, stopped (children ended) afterwards."""
    options.setdefault("auth", authenticator())
    server = Server(command, **options)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


def url(server: Server, query: str) -> str:
    return f"ws://127.0.0.1:{server.port}{query}"


async def refusal(
    server: Server, query: str, headers: dict[str, str] | None = None
) -> tuple[int, str]:
    """Status and body of a refused upgrade."""
    try:
        async with connect(
            url(server, query), additional_headers=headers or {}, subprotocols=["observer.v1"]
        ):
            pass
    except InvalidStatus as error:
        return error.response.status_code, error.response.body.decode()
    raise AssertionError("the upgrade was accepted")


@dataclass
class Observer:
    """A real client: a websockets connection driven by the native session, with a model."""

    ws: ClientConnection
    session: NativeAdapter
    model: TerminalModel | None = None
    events: list[Event] = field(default_factory=list)
    stream: bytearray = field(default_factory=bytearray)
    """Output bytes received since the first snapshot (or since the resumed offset)."""
    stream_start: int | None = None
    _unparsed: bytearray = field(default_factory=bytearray)
    """Output not yet fed to the model: parsed when the screen is asked for, dropped by a snapshot."""

    async def send(self, messages: Sequence[str | bytes]) -> None:
        for message in messages:
            await self.ws.send(message)

    def _take(self, event: Event) -> None:
        self.events.append(event)
        match event:
            case SessionStarted(cols=cols, rows=rows):
                self.model = TerminalModel(cols=cols, rows=rows, scrollback=0)
                self.stream_start = self.session.offset
            case SnapshotReceived(data=data, cols=cols, rows=rows, offset=offset):
                self.model = TerminalModel(cols=cols, rows=rows, scrollback=0)
                self.model.feed(data)
                self.stream = bytearray()
                self._unparsed = bytearray()
                self.stream_start = offset
            case OutputReceived(data=data):
                self._unparsed += data
                self.stream += data

    async def until(self, condition: Callable[[Observer], bool], timeout: float = 10.0) -> None:
        """Receive until ``condition(self)`` holds; fail after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not condition(self):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"condition not met within {timeout} s")
            try:
                message = await asyncio.wait_for(self.ws.recv(), remaining)
            except TimeoutError:
                continue
            for event in self.session.receive(message):
                self._take(event)

    @property
    def screen(self) -> TerminalModel:
        """The client's model, with every output byte received so far parsed."""
        assert self.model is not None
        if self._unparsed:
            self.model.feed(bytes(self._unparsed))
            self._unparsed = bytearray()
        return self.model

    def text(self) -> list[str]:
        return self.screen.text()

    @property
    def mode(self) -> str:
        """``control`` while the server says this client holds the keyboard, else ``watch``."""
        mode = "watch"
        for event in self.events:
            if isinstance(event, SessionStarted):
                mode = event.mode
            elif isinstance(event, ControlChanged):
                mode = "control" if event.holder == "you" else "watch"
        return mode

    def errors(self) -> list[str]:
        return [e.code for e in self.events if isinstance(e, ErrorReported | ControlRefused)]

    def holders(self) -> list[str]:
        return [e.holder for e in self.events if isinstance(e, ControlChanged)]

    def exited(self) -> bool:
        return any(isinstance(e, Exited) for e in self.events)

    def sha256(self) -> str:
        return hashlib.sha256(self.stream).hexdigest()


@contextlib.asynccontextmanager
async def observe(
    server: Server,
    *,
    token: str = CONTROL_TOKEN,
    control: bool = False,
    since: int | None = None,
    identifier: str = "default",
    **options: Any,
) -> AsyncIterator[Observer]:
    """Connect a real client and wait for its hello."""
    session = NativeAdapter(since=since)
    async with connect(
        url(server, query(identifier, control=control, since=since)),
        additional_headers={"Authorization": f"Bearer {token}"},
        subprotocols=["observer.v1"],
        max_size=None,
        **options,
    ) as ws:
        client = Observer(ws, session)
        await client.until(lambda c: c.model is not None)
        yield client


async def crowd(stack: contextlib.AsyncExitStack, server: Server, readers: int) -> list[Observer]:
    """A watcher of the control token, then ``readers`` watchers of the watch token (one token's
    crowd beside another token's watcher), each once it has its snapshot."""
    honest = await stack.enter_async_context(observe(server, token=CONTROL_TOKEN))
    crowd = [
        await stack.enter_async_context(observe(server, token=WATCH_TOKEN)) for _ in range(readers)
    ]
    for client in (honest, *crowd):
        await client.until(lambda c: any(isinstance(e, SnapshotReceived) for e in c.events))
    return [honest, *crowd]


async def wait_for(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Poll a server-side condition (the tests share the server's event loop)."""
    await until(condition, "a condition on the server", timeout)


def model_text(server: Server, identifier: str = "default") -> list[str]:
    model = server.sessions[identifier].model
    return model.text()  # type: ignore[attr-defined,no-any-return]


async def closed_code(ws: ClientConnection, timeout: float = 5.0) -> int | None:
    """Drain until the connection closes; return the close code."""
    with contextlib.suppress(ConnectionClosed):
        async with asyncio.timeout(timeout):
            while True:
                await ws.recv()
    return ws.close_code


async def close_draining(ws: ClientConnection) -> None:
    """Close while reading what is still queued: a client with unread messages has its socket
    paused by websockets, and would not see the server's close frame until its timeout."""
    closing = asyncio.create_task(ws.close())
    with contextlib.suppress(ConnectionClosed):
        while True:
            await ws.recv()
    await closing
