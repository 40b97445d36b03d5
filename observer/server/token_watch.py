"""Revocation that takes effect live: reread the token file, close what it no longer admits.

Every :data:`CHECK_INTERVAL` the server's token file is looked at (its size, time and inode):
when it changed it is read again, and every connection is asked whether its credential still
admits it (revoked, role changed, expired: expiries are checked each time too). Those that no
longer are closed with 1008 (policy violation, RFC 6455 §7.4.1) and a reason that says why; the
sessions and their programs go on. ``observer serve`` also rereads on SIGHUP. A damaged file is
reported in one line and the tokens read before stay in force.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable, Iterable

from websockets.asyncio.server import ServerConnection as WebSocket

from observer.auth.tokens import Authenticator, Credential
from observer.errors import UsageError

log = logging.getLogger("observer.server")

CHECK_INTERVAL = 1.0
REVOKED = 1008
"""Close code for a connection whose token no longer admits it (policy violation)."""


class TokenWatch:
    """Keeps the server's connections to what its tokens admit.

    Args:
        auth: the server's authenticator (its digests are replaced when the file changes).
        connections: called for the live connections and their credentials.
    """

    def __init__(
        self,
        auth: Authenticator,
        connections: Callable[[], Iterable[tuple[WebSocket, Credential, str]]],
    ) -> None:
        self.auth = auth
        self._connections = connections
        self._task: asyncio.Task[None] | None = None
        self._closing: weakref.WeakSet[WebSocket] = weakref.WeakSet()
        self.closed = 0
        """Connections closed because their token no longer admitted them."""

    def start(self) -> None:
        """Check every :data:`CHECK_INTERVAL` seconds until :meth:`stop`."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        """Stop checking."""
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(CHECK_INTERVAL)
            self.check()

    def check(self, force: bool = False) -> None:
        """Reread the token file if it changed (or ``force``), then close every connection
        whose credential no longer admits it."""
        try:
            digests = self.auth.reload(force)
        except UsageError as error:
            log.warning("token file not reloaded: %s — the tokens read before stay", error)
        else:
            if digests is not None:
                log.info("token file reloaded: %d token(s)", len(digests))
        for websocket, credential, who in list(self._connections()):
            reason = self.auth.revocation(credential)
            if reason is not None and websocket not in self._closing:
                self._closing.add(websocket)
                self.closed += 1
                log.info("closing %s (token %s): %s", who, credential.name, reason)
                # The connection's own loop reads the client's close frame.
                asyncio.get_running_loop().create_task(websocket.close(REVOKED, reason))
