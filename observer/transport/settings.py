"""Connection settings (no secrets)."""

from __future__ import annotations

import random
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field

from observer.client.reconnect import Backoff, ReconnectPolicy
from observer.protocol import frames
from observer.protocol.adapters import ProtocolName
from observer.protocol.events import Mode

API_VERSION = frames.API_VERSION


@dataclass(frozen=True, slots=True)
class ConnectionSettings:
    """Where and how to connect. No secret in here: the token is passed separately.

    Attributes:
        url: endpoint URL (``ws``, ``wss``, ``http`` or ``https``).
        identifier: session identifier (query ``identifier=``; Jupyter: the terminal name).
        protocol: adapter name, or ``None`` to detect it from the negotiated subprotocol.
        mode: ``watch`` or ``control`` to start in.
        audience: expected JWT audience; a JWT naming another is refused before connecting.
        reconnect: reconnect after a drop (a recorder or the app); False for one-shot tools.
        retry_first: also retry when the very first attempt fails (default: fail fast, clearly).
        profile: the config profile this came from (None: the command line): errors then say
            to fix the profile, which takes no ``--identifier``.
    """

    url: str
    identifier: str = ""
    protocol: ProtocolName | None = None
    mode: Mode = "watch"
    api_version: str = API_VERSION
    audience: str | None = None
    cols: int = 80
    rows: int = 24
    ping_interval: float | None = 20.0
    ping_timeout: float | None = 20.0
    open_timeout: float = 10.0
    close_timeout: float = 2.0
    reconnect: bool = True
    retry_first: bool = False
    initial_delay: float = 0.5
    max_delay: float = 10.0
    stable_after: float = 5.0
    max_size: int = 16 * 2**20
    profile: str | None = None
    ssl_context: ssl.SSLContext | None = field(default=None, compare=False)

    def reconnect_policy(self, rand: Callable[[], float] = random.random) -> ReconnectPolicy:
        """The reconnect policy these settings describe (randomness injected for tests)."""
        return ReconnectPolicy(
            Backoff(self.initial_delay, self.max_delay, rand),
            reconnect=self.reconnect,
            retry_first=self.retry_first,
            stable_after=self.stable_after,
        )
