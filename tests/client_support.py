"""A real client for tests: a :class:`Connection` driving a :class:`WatchedSession`, as the app does.

:class:`Client` runs the real transport loop against a real peer and hands a test what the core
saw, in order, through the core's own event log (``log_peer_events``, drained as the core queues
it): the peer's protocol
events, and the connection's life written as :class:`Connected`, :class:`Reconnecting`,
:class:`GapDetected` and :class:`Disconnected`. Intentions (take, release, type, resize) go to the
core, which alone decides whether anything is sent; each returns whether a message left.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import sys
import time
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass
from typing import Any

from observer.auth.tokens import Authenticator, TokenDigests
from observer.client.events import ConnectionOpened, PeerEventApplied, ReconnectDecided
from observer.client.reconnect import Retry, Stop
from observer.client.watched import WatchedSession
from observer.credentials.store import Secret
from observer.protocol.events import Event
from observer.recording.file_policy import recording_policy
from observer.server import Server
from observer.transport.connection import Connection
from observer.transport.settings import ConnectionSettings


@dataclass(frozen=True, slots=True)
class Connected:
    """The ``attempt``-th connection came up, speaking ``protocol``."""

    protocol: str | None
    attempt: int
    resumed_from: int | None


@dataclass(frozen=True, slots=True)
class Reconnecting:
    """The session will connect again in ``delay`` seconds."""

    delay: float
    reason: str


@dataclass(frozen=True, slots=True)
class GapDetected:
    """A new connection to a peer that cannot resume: what was sent meanwhile is lost."""

    reason: str


@dataclass(frozen=True, slots=True)
class Disconnected:
    """The session will not connect again."""

    reason: str


Seen = Event | Connected | Reconnecting | GapDetected | Disconnected


class Client:
    """One watched session over a real connection (see the module docstring)."""

    def __init__(
        self,
        settings: ConnectionSettings,
        token: Secret | None = None,
        *,
        token_error: Exception | None = None,
        rand: Callable[[], float] | None = None,
        **options: Any,
    ) -> None:
        policy = settings.reconnect_policy(rand) if rand else settings.reconnect_policy()
        self.session = WatchedSession(
            identifier=settings.identifier,
            want_control=settings.mode == "control",
            size=(settings.cols, settings.rows),
            reconnect=policy,
            log_peer_events=True,
            **options,
        )
        self.connection = connection = Connection(
            settings, self.session, token, token_error=token_error
        )
        self.settings, self.endpoint = settings, connection.endpoint
        self._seen: asyncio.Queue[Seen] = asyncio.Queue()
        self.session.wake_with(lambda: (connection.wake(), self._drain()))

    def _drain(self) -> None:
        """Log what the core queued, as it queues it (the connection's life as it was then)."""
        for entry in self.session.take_events():
            if isinstance(entry, PeerEventApplied):
                self._seen.put_nowait(entry.event)
            elif isinstance(entry, ConnectionOpened | ReconnectDecided):
                self._log(entry.decision if isinstance(entry, ReconnectDecided) else entry)

    def _log(self, entry: ConnectionOpened | Retry | Stop) -> None:
        session = self.session
        if isinstance(entry, ConnectionOpened):
            self._seen.put_nowait(Connected(self.connection.protocol, entry.count, entry.since))
            if entry.lost_output:
                self._seen.put_nowait(GapDetected("reconnected: output sent meanwhile was lost"))
        elif isinstance(entry, Retry):
            self._seen.put_nowait(
                Reconnecting(entry.delay, session.status(time.monotonic()).reason)
            )
        else:
            self._seen.put_nowait(Disconnected(entry.reason))

    async def events(self) -> AsyncGenerator[Seen]:
        """Run the connection; yield what the session saw until it ends (raising its failure)."""
        runner = asyncio.create_task(self.connection.run())
        try:
            while True:
                getter = asyncio.ensure_future(self._seen.get())
                done, _ = await asyncio.wait({getter, runner}, return_when=asyncio.FIRST_COMPLETED)
                if getter in done:
                    yield getter.result()
                    continue
                getter.cancel()
                while not self._seen.empty():
                    yield self._seen.get_nowait()
                runner.result()  # raises what ended it
                return
        finally:
            runner.cancel()
            with contextlib.suppress(BaseException):
                await runner

    @property
    def latency(self) -> float | None:
        """The keepalive's last round trip, as the session knows it."""
        return self.session.status(time.monotonic()).latency

    async def _sent(self, act: Callable[[], object]) -> bool:
        before = self.session.queued
        act()
        sent = self.session.queued > before
        await asyncio.sleep(0)  # the writer task sends it
        return sent

    async def send_input(self, data: bytes) -> bool:
        """Type ``data``; whether it was sent (only in control)."""
        return await self._sent(lambda: self.session.type(data, time.monotonic()))

    async def resize(self, cols: int, rows: int) -> bool:
        """The view is now ``cols`` x ``rows``; whether a resize was sent (only in control)."""
        return await self._sent(lambda: self.session.view_resized(cols, rows, time.monotonic()))

    async def take(self) -> None:
        """Ask for the keyboard."""
        self.session.take(time.monotonic())
        await asyncio.sleep(0)

    async def release(self) -> None:
        """Hand the keyboard back."""
        self.session.release(time.monotonic())
        await asyncio.sleep(0)

    async def close(self) -> None:
        """End the session."""
        await self.connection.close()


def live_link(
    settings: ConnectionSettings,
    token: Secret | None = None,
    *,
    label: str = "",
    record: str | os.PathLike[str] | None = None,
    record_input: bool = False,
    **options: Any,
) -> Connection:
    """The app's link to a real endpoint, as ``observer watch`` builds it (token given)."""
    policy = None
    if record is not None:
        policy = recording_policy(
            record, identifier=settings.identifier, endpoint=settings.url, record_input=record_input
        )
    session = WatchedSession(
        identifier=settings.identifier,
        want_control=settings.mode == "control",
        recording=policy,
        reconnect=settings.reconnect_policy(),
        **options,
    )
    return Connection(settings, session, token, label=label or settings.url)


@contextlib.asynccontextmanager
async def serving(
    program: str, names: tuple[str, ...], size: tuple[int, int] = (60, 10)
) -> AsyncGenerator[tuple[Server, list[Connection]], None]:
    """A real server on 127.0.0.1 running ``python -c program`` once for each of ``names``,
    and the app's links to them (no scrollback, as tiles), with a control token."""
    token = secrets.token_urlsafe(16)
    server = Server(
        [sys.executable, "-c", program],
        auth=Authenticator(TokenDigests.from_tokens([("control", token)])),
        identifiers=names,
        size=size,
    )
    await server.start()
    url = f"ws://127.0.0.1:{server.port}/"
    links = [
        live_link(ConnectionSettings(url=url, identifier=n), Secret(token), label=n, scrollback=0)
        for n in names
    ]
    try:
        yield server, links
    finally:
        await server.stop()
