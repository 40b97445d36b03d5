"""The client connection: the short asyncio loop between one WebSocket and one watched session.

A :class:`Connection` opens the WebSocket the :class:`~observer.client.watched.WatchedSession` asks
for (:meth:`~observer.client.watched.WatchedSession.join_request`), hands it every received
message, writes whatever it has to send, and asks it what to do when an attempt fails or the
connection ends (resume, rejoin, wait, or stop). It decides nothing itself but how to do I/O::

    session = WatchedSession(identifier="agent")
    connection = Connection(settings, session, token)
    await connection.run()                 # until the session ends; the view feeds session.model
    session.type(b"ls\\r", now)            # from the app: sent only in control, by this loop

Security: a token is sent only over ``wss://`` with verified TLS, or to a loopback address; a JWT
that has expired or names another audience is refused before connecting; the token is a
:class:`~observer.credentials.store.Secret` and never appears in a message, a repr or a log line.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from observer.client.lifecycle import JoinRequest
from observer.client.reconnect import Decision, Stop
from observer.client.watched import WatchedSession
from observer.credentials.store import Secret
from observer.errors import ConnectionFailed
from observer.protocol.adapters import (
    ProtocolName,
    create_adapter,
    detect_protocol,
    guess_protocol,
    offered_subprotocols,
)
from observer.protocol.endpoints import parse_endpoint
from observer.transport.failures import close_failure, describe_failure
from observer.transport.request import auth_headers, request_url, ttyd_auth_token
from observer.transport.safety import RedactingLogger, check_token
from observer.transport.settings import ConnectionSettings

log = logging.getLogger("observer.transport")

KEEPALIVE_TIMEOUT = "no answer to keepalive pings"
RECEIVE_SLICE = 0.002
"""Seconds the receive loop may decode buffered messages before it lets other tasks run."""
READ_AHEAD = 8 * 2**20
"""Bytes of output waiting to be parsed past which the loop stops reading: the socket's own
backpressure then applies, and the server sends this slow client snapshots instead."""


class Connection:
    """One watched session's connection, across reconnects.

    Args:
        settings: where and how to connect.
        session: the client session core this connection drives.
        token: the bearer token (``None``: connect without ``Authorization``).
        token_error: why no token could be read (the keyring's error); it becomes the failure
            when the endpoint answers 401/403, instead of advice to log in.
        label: what people call this session (a profile's name; default: the endpoint).
        clock: monotonic seconds; ``sleep``: async sleep; ``now``: the wall clock (JWT expiry).
    """

    def __init__(
        self,
        settings: ConnectionSettings,
        session: WatchedSession,
        token: Secret | None = None,
        *,
        token_error: Exception | None = None,
        label: str = "",
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Any] = asyncio.sleep,
        now: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC),
    ) -> None:
        self.settings = settings
        self.session = session
        self.endpoint = parse_endpoint(settings.url)
        self.label = label or self.endpoint.origin
        self._token = token
        self._token_error = token_error
        self._clock, self._sleep, self._now = clock, sleep, now
        self._protocol: ProtocolName | None = settings.protocol or guess_protocol(
            self.endpoint.path
        )
        self._websocket: ClientConnection | None = None
        self._outgoing = asyncio.Event()
        self.received = asyncio.Event()
        """Set after each batch of received messages and whenever the session queued something
        (the view's feeder waits on it)."""
        session.wake_with(self.wake)

    def wake(self) -> None:
        """The session queued something: the writer sends (when there is something to send or
        the session is over), the view's feeder drains events."""
        session = self.session
        if session.queued or session.close_after_sending:
            self._outgoing.set()
        self.received.set()

    def __repr__(self) -> str:
        return f"Connection({self.endpoint.origin!r}, protocol={self._protocol!r})"

    @property
    def protocol(self) -> ProtocolName | None:
        """The peer protocol (detected at the first connection when not given)."""
        return self._protocol

    async def run(self) -> None:
        """Connect and move messages until the session ends or :meth:`close`.

        Raises:
            ConnectionFailed: a refusal no retry can fix (403, 400, 404, TLS, token checks), or a
                first connection that failed (unless the settings retry it).
        """
        check_token(self.endpoint, self._token, self.settings, self._now())
        try:
            await self._connect_until_done()
        finally:
            self.received.set()  # the feeder sees the end

    async def _connect_until_done(self) -> None:
        while True:
            request = self.session.join_request()
            decision = await self._attempt(request)
            if isinstance(decision, Stop):
                return
            if decision.delay:
                await self._sleep(decision.delay)

    async def close(self) -> None:
        """End the session (the close that follows is not a drop), then its recording."""
        self.session.request_quit()
        websocket = self._websocket
        try:
            if websocket is not None:
                await websocket.close()
        finally:
            self.session.end_recording()

    # -- one connection -------------------------------------------------------------------------

    async def _attempt(self, request: JoinRequest) -> Decision:
        try:
            websocket = await self._connect(request)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            failure = self._classify(error)
            decision = self.session.connection_failed(
                str(failure), retryable=failure.retryable, now=self._clock()
            )
            if isinstance(decision, Stop) and decision.fatal:
                raise failure from None
            return decision
        return await self._serve(websocket, request)

    async def _connect(self, request: JoinRequest) -> ClientConnection:
        url = request_url(
            self.endpoint,
            self.settings,
            self._protocol,
            control=request.control,
            since=request.since,
        )
        kwargs: dict[str, Any] = {}
        if self.settings.ssl_context is not None and self.endpoint.secure:
            kwargs["ssl"] = self.settings.ssl_context
        return await connect(
            url,
            additional_headers=auth_headers(self._protocol, self._token),
            subprotocols=offered_subprotocols(self._protocol) or None,  # type: ignore[arg-type]
            open_timeout=self.settings.open_timeout,
            ping_interval=self.settings.ping_interval,
            ping_timeout=self.settings.ping_timeout,
            close_timeout=self.settings.close_timeout,
            max_size=self.settings.max_size,
            proxy=True if self.endpoint.secure else None,  # never a token in clear to a proxy
            logger=self._logger(),
            **kwargs,
        )

    async def _serve(self, websocket: ClientConnection, request: JoinRequest) -> Decision:
        protocol = self._protocol or detect_protocol(websocket.subprotocol, self.endpoint.path)
        self._protocol = protocol
        auth = ttyd_auth_token(self._token) if protocol == "ttyd" and self._token else ""
        adapter = create_adapter(
            protocol,
            cols=request.cols,
            rows=request.rows,
            identifier=self.settings.identifier,
            auth_token=auth,
            since=request.since,
        )
        session = self.session
        self._websocket = websocket
        session.connection_opened(adapter, self._clock())
        writer = asyncio.create_task(self._write(websocket))
        try:
            await self._read(websocket)
        finally:
            writer.cancel()
            await asyncio.gather(writer, return_exceptions=True)
            self._websocket = None
        failure = close_failure(websocket, self.endpoint)
        received = websocket.protocol.close_rcvd
        reason = _close_reason(websocket) if failure is None else str(failure)
        decision = session.connection_closed(
            reason,
            code=received.code if received is not None else None,
            now=self._clock(),
            timed_out=reason == KEEPALIVE_TIMEOUT,
            refused=failure is not None and not self.session.quit_requested,
        )
        self.received.set()
        if failure is not None and isinstance(decision, Stop) and decision.fatal:
            raise failure
        return decision

    async def _read(self, websocket: ClientConnection) -> None:
        session, received = self.session, self.received
        slice_started = time.perf_counter()
        try:
            async for message in websocket:
                session.received(message, self._clock())
                received.set()
                while session.backlog > READ_AHEAD:  # the feeder (or a resync) makes room
                    await asyncio.sleep(RECEIVE_SLICE)
                # recv() returns buffered messages without yielding: under a flood this loop
                # would keep the event loop (and the UI) to itself.
                if time.perf_counter() - slice_started >= RECEIVE_SLICE:
                    session.measured(websocket.latency or None)
                    await asyncio.sleep(0)
                    slice_started = time.perf_counter()
        except ConnectionClosed:
            pass

    async def _write(self, websocket: ClientConnection) -> None:
        outgoing, session = self._outgoing, self.session
        try:
            while True:
                await outgoing.wait()
                outgoing.clear()
                for message in session.data_to_send():
                    await websocket.send(message)
                if session.close_after_sending:
                    await websocket.close()
                    return
        except ConnectionClosed:
            pass

    # -- failures -------------------------------------------------------------------------------

    def _classify(self, error: Exception) -> ConnectionFailed:
        settings = self.settings
        failure = describe_failure(
            error, self.endpoint, settings.identifier, self._token is not None, settings.profile
        )
        if failure.status in (401, 403) and self._token is None and self._token_error is not None:
            # The endpoint needs a token and the keyring could not give one: "log in" would fail
            # the same way, so say what is wrong with the keyring and how to fix it.
            return ConnectionFailed(str(self._token_error), retryable=False, status=failure.status)
        if failure.status in (401, 403):
            try:  # a token that expired during a long session: say so rather than "rejected"
                check_token(self.endpoint, self._token, self.settings, self._now())
            except ConnectionFailed as better:
                return better
        return failure

    def _logger(self) -> RedactingLogger:
        secrets: list[str] = []
        if self._token is not None:
            secrets = [self._token.reveal(), ttyd_auth_token(self._token)]
        return RedactingLogger(log, secrets)


def _close_reason(websocket: ClientConnection) -> str:
    sent = websocket.protocol.close_sent
    if sent is not None and sent.reason == "keepalive ping timeout":
        return KEEPALIVE_TIMEOUT
    code, reason = websocket.close_code, websocket.close_reason
    if code is None or code == 1006:
        return "the connection dropped"
    if code == 1001:
        return "the endpoint is going away"
    return f"closed by the endpoint (code {code}{': ' + reason if reason else ''})"
