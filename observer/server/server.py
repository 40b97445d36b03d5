"""The sandbox endpoint: a websockets server in front of one PTY session per identifier.

Use it from Python (``observer demo`` runs it in-process with a token held only in memory)::

    auth = Authenticator(TokenDigests.from_tokens([("control", token)]))
    server = Server(["bash"], auth=auth)        # 127.0.0.1, a free port
    await server.start(); print(server.port)
    ...
    await server.stop()                          # clients closed with 1001, children ended
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from http import HTTPStatus

from websockets.asyncio.server import Server as WebSocketServer
from websockets.asyncio.server import ServerConnection as WebSocket
from websockets.asyncio.server import serve
from websockets.http11 import Request, Response
from websockets.typing import Subprotocol

from observer.auth.tokens import Authenticator, Credential
from observer.protocol.arbiter import ServerConnection
from observer.protocol.people_frames import PEOPLE_FEATURE
from observer.server.admission import (
    SINGLE_HEADERS,
    Admission,
    Listing,
    Refusal,
    admit,
    choose_subprotocol,
)
from observer.server.clients import Client
from observer.server.connection_loop import run_connection
from observer.server.environment import agent_environment
from observer.server.limits import (
    MAX_CONNECTIONS,
    ConnectionLimits,
    NewConnections,
    TokenBudgets,
)
from observer.server.listing import listing_json
from observer.server.log_budget import AcceptErrors, LogBudget
from observer.server.model_feed import ScreenModel
from observer.server.opening import Opening, token_key
from observer.server.people import HandoverClock
from observer.server.stream_socket import client_socket
from observer.server.terminal_session import TerminalSession
from observer.server.token_watch import TokenWatch
from observer.server.websocket_adapter import (
    guarded_connection,
    log_refusal,
    peer,
    plain_response,
    set_budget,
)

log = logging.getLogger("observer.server")

MiB = 1024 * 1024
MAX_MESSAGE = 64 * 1024
"""Largest message a client may send (input, control): bigger ones are closed with 1009."""
SLOW_DOWN = 1.0
"""Seconds before a 429 (a token opening connections too fast) is answered."""
SLOWED_AT_ONCE = 64
"""Requests waiting for their 429 at most (beyond, they are answered at once)."""


def _default_model(cols: int, rows: int) -> ScreenModel:
    from observer.terminal import TerminalModel

    # No scrollback: snapshots repaint the screen only, and the sandbox's memory is the agent's.
    model: ScreenModel = TerminalModel(cols=cols, rows=rows, scrollback=0)
    return model


class Server:
    """Serve ``command`` on a PTY per identifier over ``observer.v1``.

    Args:
        command: the program and its arguments, started once per identifier.
        host: address to listen on (default loopback).
        port: TCP port; 0 picks a free one (read :attr:`port` after :meth:`start`).
        auth: what accepts bearer tokens; ``None`` admits everybody (only with ``insecure``).
        insecure: allow ``auth=None``; meant for loopback experiments only.
        identifiers: sessions started at :meth:`start`.
        create_on_connect: start a session for an unknown (valid) identifier on first connect.
        size: PTY columns and rows.
        allowed_origins: browser ``Origin`` values allowed to connect.
        ring_size: bytes of output kept for ``since=`` resumes.
        client_queue: bytes queued for one client before its backlog is dropped.
        max_connections: simultaneous clients over all sessions; more get 503.
        max_per_token: connections one token may hold (503 beyond; default half of
            ``max_connections``; not counted without authentication).
        reserved_for_control: of ``max_connections``, places only control tokens may take
            (default a sixteenth).
        max_sessions: sessions ``create_on_connect`` may start (only for control tokens).
        env: environment for the command (default: the server's), always without the variables
            observer reads secrets from (:mod:`observer.server.environment`)...
        pass_env: ...except these, passed on purpose.
        compression: negotiate permessage-deflate (costs CPU per watcher on the sandbox).
        model_factory: builds the server's terminal model (default: :class:`TerminalModel`).
        grant_idle: grant a request for the keyboard once its holder has not typed for this many
            seconds (None: only the holder's answer moves it).
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        auth: Authenticator | None,
        insecure: bool = False,
        identifiers: Sequence[str] = ("default",),
        create_on_connect: bool = False,
        size: tuple[int, int] = (120, 40),
        allowed_origins: Sequence[str] = (),
        ring_size: int = 8 * MiB,
        client_queue: int = 1 * MiB,
        max_connections: int = MAX_CONNECTIONS,
        max_per_token: int | None = None,
        reserved_for_control: int | None = None,
        max_sessions: int = 64,
        env: Mapping[str, str] | None = None,
        pass_env: Collection[str] = (),
        compression: bool = False,
        model_factory: Callable[[int, int], ScreenModel] = _default_model,
        grant_idle: float | None = None,
    ) -> None:
        if auth is None and not insecure:
            raise ValueError("a server without authentication must be asked for explicitly")
        if not command:
            raise ValueError("no command to run")
        self.command = list(command)
        self.host = host
        self.port = port
        self.auth = auth
        self.identifiers = list(identifiers)
        self.size = size
        self.allowed_origins = frozenset(allowed_origins)
        self.ring_size = ring_size
        self.client_queue = client_queue
        self.limits = ConnectionLimits(max_connections, max_per_token, reserved_for_control)
        self.budgets = TokenBudgets(time.monotonic)
        self.opening = Opening(
            self.limits, NewConnections(time.monotonic), create_on_connect, max_sessions
        )
        """Whether an admitted request may open (scope, session, limits)."""
        self.log_budget = LogBudget(log, time.monotonic)
        """Keeps a burst of lines from one source (a churning token) to a few and a summary."""
        self._refused_token: dict[WebSocket, str] = {}
        self._accept_errors = AcceptErrors(self.log_budget)
        self._slowed = 0
        self.env = agent_environment(os.environ if env is None else env, pass_env)
        self.compression = compression
        self.model_factory = model_factory
        self.grant_idle = grant_idle
        self.handover_clock = HandoverClock(self.sessions_now)
        """Expires requests for the keyboard (or grants them to an idle holder)."""
        self.sessions: dict[str, TerminalSession] = {}
        self._admissions: dict[WebSocket, Admission] = {}
        self._live: dict[WebSocket, tuple[Admission, int]] = {}
        self._internal_errors: dict[WebSocket, str] = {}
        self._ids = itertools.count(1)
        self._server: WebSocketServer | None = None
        self.token_watch = TokenWatch(auth, self._credentials) if auth is not None else None
        """Rereads the token file and closes the connections of revoked tokens."""

    async def start(self) -> None:
        """Bind, start the sessions, then listen; :attr:`port` is then the bound port.

        Binding comes first: a port already taken fails here (``OSError``) before any program
        was started. Connections are taken only once the sessions exist.
        """
        self._server = await serve(
            self._handle,
            self.host,
            self.port,
            process_request=self._process_request,
            process_response=self._process_response,
            create_connection=guarded_connection(log_refusal),
            select_subprotocol=_select_subprotocol,
            compression="deflate" if self.compression else None,
            max_size=MAX_MESSAGE,
            max_queue=16,
            server_header=None,
            close_timeout=2,
            start_serving=False,
        )
        self.port = self._server.sockets[0].getsockname()[1]
        for identifier in self.identifiers:
            self._open_session(identifier)
        self._accept_errors.install(asyncio.get_running_loop())
        await self._server.start_serving()
        self.handover_clock.start()
        if self.token_watch is not None:
            self.token_watch.start()
        log.info("listening on %s:%d", self.host, self.port)

    async def stop(self) -> None:
        """Close every client with 1001 (going away) and end every child process group."""
        if self.token_watch is not None:
            self.token_watch.stop()
        await self.handover_clock.stop()
        if self._server is not None:
            self._server.close(close_connections=True)
            await self._server.wait_closed()
        await asyncio.gather(*(session.close() for session in self.sessions.values()))
        self._accept_errors.uninstall()
        self.log_budget.flush(everything=True)

    def busy(self, within: float) -> bool:
        """Whether any session's program wrote in the last ``within`` seconds."""
        now = time.monotonic()
        return any(
            (last := session.last_output) is not None and now - last < within
            for session in self.sessions.values()
        )

    def sessions_now(self) -> list[TerminalSession]:
        """The sessions the server holds now."""
        return list(self.sessions.values())

    def _open_session(self, identifier: str) -> TerminalSession:
        model = self.model_factory(*self.size)
        session = TerminalSession(
            identifier, self.command, model, ring_size=self.ring_size, env=self.env
        )
        session.arbiter.clock = time.monotonic
        session.arbiter.grant_idle = self.grant_idle
        self.sessions[identifier] = session
        log.info("session %r started (pid %d)", identifier, session.pty.pid)
        return session

    async def _process_request(self, connection: WebSocket, request: Request) -> Response | None:
        try:
            response = self._decide(connection, request)
        except Exception as error:  # a bug: one log line (in _process_response), no traceback
            self._internal_errors[connection] = f"{type(error).__name__}: {error}"
            return _refuse(connection, HTTPStatus.INTERNAL_SERVER_ERROR, "Internal error")
        if response is not None and response.status_code == HTTPStatus.TOO_MANY_REQUESTS:
            await self._slow_down()
        return response

    async def _slow_down(self) -> None:
        """Answer a client that connects too fast a moment later (a few of them at a time):
        a loop that reconnects at once then waits for its answer, instead of making the server
        refuse it as fast as it can ask."""
        if self._slowed >= SLOWED_AT_ONCE:
            return
        self._slowed += 1
        try:
            await asyncio.sleep(SLOW_DOWN)
        finally:
            self._slowed -= 1

    def _process_response(
        self, connection: WebSocket, request: Request, response: Response
    ) -> None:
        """Log one line for every refusal, whoever made it (this server or websockets)."""
        if response.status_code >= 400:
            body = self._internal_errors.pop(connection, None) or response.body.decode(
                errors="replace"
            )
            token = self._refused_token.pop(connection, None)
            source = f"token {token}" if token else peer(connection).rpartition(":")[0]
            if self.log_budget.allow(f"refusals {response.status_code}", source):
                log_refusal(connection, response.status_code, body)

    def _decide(self, connection: WebSocket, request: Request) -> Response | None:
        headers = request.headers
        decision = admit(
            request.path,
            {name: headers.get_all(name) for name in (*SINGLE_HEADERS, "sec-websocket-protocol")},
            auth=self.auth,
            allowed_origins=self.allowed_origins,
        )
        if isinstance(decision, Refusal):
            return _refuse(connection, decision.status, decision.body)
        if isinstance(decision, Listing):
            credential = decision.credential
            body = listing_json(
                self.sessions, admits=credential.admits if credential is not None else None
            )
            return plain_response(connection, HTTPStatus.OK, body, "application/json")
        refusal = self.opening.refusal(decision, self.sessions)
        if refusal is not None:
            if decision.credential is not None:
                self._refused_token[connection] = decision.credential.name
            return _refuse(connection, *refusal)
        if decision.identifier not in self.sessions:
            self._open_session(decision.identifier)
        key = token_key(decision.credential)
        self.limits.add(key)
        self._admissions[connection] = decision
        asyncio.get_running_loop().create_task(self._forget_when_closed(connection, key))
        return None

    async def _forget_when_closed(self, websocket: WebSocket, key: str | None) -> None:
        """Count the connection against its token until it closes, handshake failures too."""
        try:
            await websocket.wait_closed()
        finally:
            self.limits.remove(key)
            if key is not None and not self.limits.held(key):
                self.budgets.forget(key)
            self._admissions.pop(websocket, None)

    def _credentials(self) -> Iterator[tuple[WebSocket, Credential, str]]:
        for websocket, (admission, number) in self._live.items():
            if admission.credential is not None:
                yield websocket, admission.credential, f"client {number}"

    async def _handle(self, websocket: WebSocket) -> None:
        admission = self._admissions.pop(websocket, None)
        if admission is None:  # pragma: no cover - process_request always admits first
            await websocket.close(1011, "not admitted")
            return
        session = self.sessions[admission.identifier]
        credential = admission.credential
        connection = ServerConnection(
            next(self._ids),
            admission.role,
            session.arbiter,
            label=credential.label if credential is not None else "local",
            since=time.time(),
            people=PEOPLE_FEATURE in admission.features,
        )
        client = Client(
            client_socket(websocket, admission.stream, time.monotonic, time.time),
            connection,
            self.client_queue,
            session.resync_after_overflow,
            admission.features,
            token=token_key(admission.credential),
        )
        name = admission.credential.name if admission.credential is not None else "no auth"
        source = f"token {name}"
        if self.log_budget.allow("joins", source):
            log.info(
                "client %d joined %r as %s (token %s)",
                connection.id,
                session.identifier,
                admission.role,
                name,
            )
        self._live[websocket] = (admission, connection.id)
        budget = self.budgets.for_connection(token_key(admission.credential))
        set_budget(websocket, budget)
        try:
            await run_connection(
                websocket,
                session,
                client,
                connection,
                want_control=admission.want_control,
                since=admission.since,
                budget=budget,
            )
        finally:
            del self._live[websocket]
            if self.log_budget.allow("leaves", source):
                log.info("client %d left %r", connection.id, session.identifier)


def _select_subprotocol(
    connection: WebSocket, offered: Sequence[Subprotocol]
) -> Subprotocol | None:
    chosen = choose_subprotocol(offered)
    return None if chosen is None else Subprotocol(chosen)


def _refuse(connection: WebSocket, status: HTTPStatus, body: str) -> Response:
    return plain_response(connection, status, body)
