"""The client connection: connect, authenticate, keep alive, reconnect and resume without loss.

A :class:`Connection` drives one sans-I/O session (:mod:`observer.protocol.adapters`) over a
``websockets`` client connection and hands the app and the recorder one stream of events::

    connection = Connection(settings, token)
    async for event in connection.events():   # protocol events + Connected, Reconnecting, ...
        ...
    await connection.send_input(b"ls\\r")      # from another task; nothing leaves in watch mode

Reconnecting uses websockets' own ``async for websocket in connect(...)`` (its ``process_exception``
and ``reconnect_delays`` hooks) for failed attempts. After a connection that was up drops, a new
``connect`` is made so the URL can carry ``since=<next offset>``: the native server then replays
exactly the missing bytes, or sends a snapshot that the session marks as a gap. Adapters that cannot
resume (raw, ttyd, Jupyter) report :class:`GapDetected` instead.

Security: a token is sent only over ``wss://`` with verified TLS, or to a loopback address; a JWT
that has expired or names another audience is refused before connecting; the token is a
:class:`~observer.secrets.Secret` and never appears in a message, a repr or a log line.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import random
import time
from collections.abc import AsyncIterator, Callable, Generator
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from observer.endpoints import parse_endpoint
from observer.errors import ConnectionFailed
from observer.protocol.adapter import ClientSession, Message
from observer.protocol.adapters import (
    ProtocolName,
    create_session,
    detect_protocol,
    guess_protocol,
    offered_subprotocols,
)
from observer.protocol.events import ControlChanged, Exited, Mode, OutputReceived
from observer.secrets import Secret
from observer.transport.events import (
    Connected,
    ConnectionEvent,
    Disconnected,
    GapDetected,
    Reconnecting,
)
from observer.transport.failures import close_failure, describe_failure
from observer.transport.request import auth_headers, request_url, ttyd_auth_token
from observer.transport.safety import RedactingLogger, check_token
from observer.transport.settings import Backoff, ConnectionSettings

log = logging.getLogger("observer.transport")

RECEIVE_SLICE = 0.002
"""Seconds the receive loop may decode buffered messages before it lets other tasks run."""


class Connection:
    """One logical connection to a remote terminal, across reconnects.

    Args:
        settings: where and how to connect.
        token: the bearer token (``None``: connect without ``Authorization``).
        token_error: why no token could be read (the keyring's error); it becomes the failure
            when the endpoint answers 401/403, instead of advice to log in.
        rand: randomness for backoff jitter; ``clock``: monotonic seconds; ``sleep``: async sleep.
    """

    def __init__(
        self,
        settings: ConnectionSettings,
        token: Secret | None = None,
        *,
        token_error: Exception | None = None,
        rand: Callable[[], float] = random.random,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Any] = asyncio.sleep,
        now: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC),
    ) -> None:
        self.settings = settings
        self.endpoint = parse_endpoint(settings.url)
        self._token = token
        self._token_error = token_error
        self._clock, self._sleep, self._now = clock, sleep, now
        self._backoff = Backoff(settings.initial_delay, settings.max_delay, rand)
        self._want_control = settings.mode == "control"
        self._cols, self._rows = settings.cols, settings.rows
        self._protocol: ProtocolName | None = settings.protocol or guess_protocol(
            self.endpoint.path
        )
        self._session: ClientSession | None = None
        self._websocket: ClientConnection | None = None
        self._queue: asyncio.Queue[ConnectionEvent | BaseException | None] = asyncio.Queue(256)
        self._backlog = 0
        self._closing = False
        self._attempt = 0
        self._connections = 0
        self._connected_once = False
        self._had_session = False
        self._last_failure = ""

    def __repr__(self) -> str:
        return f"Connection({self.endpoint.origin!r}, protocol={self._protocol!r})"

    # -- what the app and the recorder use -------------------------------------------------------

    @property
    def session(self) -> ClientSession | None:
        """The current connection's session (``None`` while disconnected)."""
        return self._session

    @property
    def mode(self) -> Mode:
        """``control`` only while input may be sent now."""
        return self._session.mode if self._session is not None else "watch"

    @property
    def latency(self) -> float | None:
        """Round-trip time of the last keepalive ping in seconds (``None`` while disconnected)."""
        websocket = self._websocket
        return float(websocket.latency) if websocket is not None else None

    @property
    def backlog(self) -> int:
        """Bytes of output received and decoded but not yet taken from :meth:`events`.

        A consumer that parses slower than the agent writes compares this with its own speed to
        decide it is too far behind and should :meth:`resync` rather than parse it all.
        """
        return self._backlog

    async def events(self) -> AsyncIterator[ConnectionEvent]:
        """Connect and yield events until the session ends, :meth:`close`, or a fatal error.

        Raises:
            ConnectionFailed: a refusal no retry can fix (403, 400, 404, TLS, token checks), or a
                first connection that failed (unless ``retry_first``).
        """
        check_token(self.endpoint, self._token, self.settings, self._now())
        runner = asyncio.create_task(self._run())
        try:
            while True:
                item = await self._queue.get()
                if item is None:
                    return
                if isinstance(item, BaseException):
                    raise item
                if isinstance(item, OutputReceived):
                    self._backlog -= len(item.data)
                yield item
        finally:
            self._closing = True
            runner.cancel()
            await asyncio.gather(runner, return_exceptions=True)

    async def send_input(self, data: bytes) -> bool:
        """Send keyboard input; return False when nothing was sent (watching, or disconnected)."""
        return await self._send(lambda s: s.send_input(data))

    async def resize(self, cols: int, rows: int) -> bool:
        """Ask the remote PTY to resize (only in control; remembered for the next connection)."""
        sent = await self._send(lambda s: s.send_resize(cols, rows))
        if sent:
            self._cols, self._rows = cols, rows
        return sent

    async def take(self) -> None:
        """Ask for the keyboard (kept across reconnects)."""
        self._want_control = True
        await self._send(lambda s: s.request_control())
        await self._local_control_changed()

    async def release(self) -> None:
        """Hand the keyboard back: no input leaves from now on."""
        self._want_control = False
        await self._send(lambda s: s.release_control())
        await self._local_control_changed()

    async def resync(self) -> bool:
        """Ask for a fresh snapshot (native only); return whether it was asked."""
        return await self._send(lambda s: s.request_resync())

    async def close(self) -> None:
        """Close the connection for good; :meth:`events` ends after a ``Disconnected``."""
        self._closing = True
        websocket = self._websocket
        if websocket is not None:
            await websocket.close()
        else:
            await self._queue.put(Disconnected("closed"))
            await self._queue.put(None)

    # -- internals -------------------------------------------------------------------------------

    async def _send(self, make: Callable[[ClientSession], list[Message]]) -> bool:
        session, websocket = self._session, self._websocket
        if session is None or websocket is None:
            return False
        messages = make(session)
        try:
            for message in messages:
                await websocket.send(message)
        except ConnectionClosed:
            return False
        return bool(messages)

    async def _local_control_changed(self) -> None:
        # Peers without arbitration never confirm: tell the UI what the session now allows.
        session = self._session
        if session is not None and not session.capabilities.control:
            await self._queue.put(ControlChanged("you" if session.mode == "control" else "none"))

    def _url(self, since: int | None) -> str:
        control = self._want_control
        return request_url(
            self.endpoint, self.settings, self._protocol, control=control, since=since
        )

    def _headers(self) -> dict[str, str]:
        return auth_headers(self._protocol, self._token)

    def _logger(self) -> RedactingLogger:
        secrets: list[str] = []
        if self._token is not None:
            value = self._token.reveal()
            secrets = [value, ttyd_auth_token(self._token)]
        return RedactingLogger(log, secrets)

    def _delays(self) -> Generator[float]:
        # websockets calls this after a failed attempt; the events tell the UI what happens.
        while True:
            delay = self._backoff.next_delay()
            self._attempt += 1
            with contextlib.suppress(asyncio.QueueFull):  # a consumer that stopped reading
                self._queue.put_nowait(Reconnecting(delay, self._attempt, self._last_failure))
            yield delay

    def _classify(self, error: Exception) -> Exception | None:
        failure = describe_failure(
            error, self.endpoint, self.settings.identifier, self._token is not None
        )
        if failure.status in (401, 403) and self._token is None and self._token_error is not None:
            # The endpoint needs a token and the keyring could not give one: "log in" would fail
            # the same way, so say what is wrong with the keyring and how to fix it.
            failure = ConnectionFailed(
                str(self._token_error), retryable=False, status=failure.status
            )
        elif failure.status in (401, 403):
            try:  # a token that expired during a long session: say so rather than "rejected"
                check_token(self.endpoint, self._token, self.settings, self._now())
            except ConnectionFailed as better:
                failure = better
        self._last_failure = str(failure)
        if not failure.retryable or not self.settings.reconnect:
            return failure
        if not self._connected_once and not self.settings.retry_first:
            return failure
        return None

    def _new_session(self, protocol: ProtocolName, since: int | None) -> ClientSession:
        auth = ""
        if protocol == "ttyd" and self._token is not None:
            auth = ttyd_auth_token(self._token)
        return create_session(
            protocol,
            mode="control" if self._want_control else "watch",
            cols=self._cols,
            rows=self._rows,
            identifier=self.settings.identifier,
            auth_token=auth,
            since=since,
        )

    async def _run(self) -> None:
        try:
            await self._connect_loop()
        except BaseException as error:  # handed to the consumer, who re-raises it
            if not isinstance(error, asyncio.CancelledError):
                await self._queue.put(error)
            raise
        await self._queue.put(None)

    async def _connect_loop(self) -> None:
        since: int | None = None
        resumable = False
        outcome: _Outcome | None = None
        while True:
            url = self._url(since if resumable else None)
            secure_proxy: Any = (
                True if self.endpoint.secure else None
            )  # never a token in clear to a proxy
            kwargs: dict[str, Any] = {}
            if self.settings.ssl_context is not None and self.endpoint.secure:
                kwargs["ssl"] = self.settings.ssl_context
            connector = connect(
                url,
                additional_headers=self._headers(),
                subprotocols=offered_subprotocols(self._protocol) or None,  # type: ignore[arg-type]
                process_exception=self._classify,
                reconnect_delays=self._delays,
                open_timeout=self.settings.open_timeout,
                ping_interval=self.settings.ping_interval,
                ping_timeout=self.settings.ping_timeout,
                close_timeout=self.settings.close_timeout,
                max_size=self.settings.max_size,
                proxy=secure_proxy,
                logger=self._logger(),
                **kwargs,
            )
            async for websocket in connector:
                outcome = await self._serve(websocket, since if resumable else None)
                break
            assert outcome is not None  # websockets' loop yields a connection or raises
            if outcome.final or self._closing or not self.settings.reconnect:
                await self._queue.put(Disconnected(outcome.reason))
                return
            since, resumable = outcome.next_offset, outcome.resumable
            await self._after_drop(outcome)

    async def _after_drop(self, outcome: _Outcome) -> None:
        if outcome.lasted >= self.settings.stable_after:
            self._backoff.reset()
        delay = 0.0 if self._backoff.attempt == 0 else self._backoff.next_delay()
        if self._backoff.attempt == 0:
            self._backoff.attempt = 1  # a second quick drop waits
        self._attempt += 1
        await self._queue.put(Reconnecting(delay, self._attempt, outcome.reason))
        if delay:
            await self._sleep(delay)

    async def _serve(self, websocket: ClientConnection, since: int | None) -> _Outcome:
        protocol = self._protocol or detect_protocol(websocket.subprotocol, self.endpoint.path)
        self._protocol = protocol
        session = self._new_session(protocol, since)
        self._connected_once = True
        self._attempt = 0
        self._connections += 1
        started = self._clock()
        await self._queue.put(Connected(self.endpoint.origin, protocol, self._connections, since))
        if since is None and self._had_session and not session.capabilities.resume:
            await self._queue.put(
                GapDetected("reconnected: output sent while disconnected was lost")
            )
        self._had_session = True
        self._session, self._websocket = session, websocket
        exited = False
        try:
            for message in session.opening_messages():
                await websocket.send(message)
            slice_started = time.perf_counter()
            async for message in websocket:
                for event in session.receive(message):
                    exited = exited or isinstance(event, Exited)
                    if isinstance(event, OutputReceived):
                        self._backlog += len(event.data)
                    await self._queue.put(event)
                # recv() returns buffered messages without yielding: under a flood this loop
                # would keep the event loop (and the UI) until the queue is full.
                if time.perf_counter() - slice_started >= RECEIVE_SLICE:
                    await asyncio.sleep(0)
                    slice_started = time.perf_counter()
        except ConnectionClosed:
            pass
        finally:
            self._session, self._websocket = None, None
        failure = close_failure(websocket, self.endpoint)
        if failure is not None and not self._closing:
            raise failure
        offset = getattr(session, "offset", None)
        reason = "the session ended" if exited else _close_reason(websocket)
        final = exited or self._closing or websocket.close_code == 1000
        return _Outcome(
            reason="closed" if self._closing else reason,
            final=final,
            next_offset=offset if isinstance(offset, int) else None,
            resumable=session.capabilities.resume and isinstance(offset, int),
            lasted=self._clock() - started,
        )


@dataclass(frozen=True, slots=True)
class _Outcome:
    reason: str
    final: bool
    next_offset: int | None
    resumable: bool
    lasted: float


def _close_reason(websocket: ClientConnection) -> str:
    sent = websocket.protocol.close_sent
    if sent is not None and sent.reason == "keepalive ping timeout":
        return "no answer to keepalive pings"
    code, reason = websocket.close_code, websocket.close_reason
    if code is None or code == 1006:
        return "the connection dropped"
    if code == 1001:
        return "the endpoint is going away"
    return f"closed by the endpoint (code {code}{': ' + reason if reason else ''})"
