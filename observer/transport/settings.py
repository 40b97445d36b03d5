"""Connection settings (no secrets) and the reconnect backoff."""

from __future__ import annotations

import random
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field

from observer.protocol.adapters import ProtocolName
from observer.protocol.events import Mode

API_VERSION = "2024-02-02-preview"


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
    ssl_context: ssl.SSLContext | None = field(default=None, compare=False)


class Backoff:
    """Jittered exponential delays (equal jitter): ``d/2 + random() * d/2``, ``d`` doubling to ``cap``.

    Randomness is injected so tests are deterministic; ``reset`` after a stable connection.
    """

    def __init__(
        self, initial: float, cap: float, rand: Callable[[], float] = random.random
    ) -> None:
        self.initial, self.cap, self._rand = initial, cap, rand
        self.attempt = 0

    def next_delay(self) -> float:
        """The delay before the next attempt; counts the attempt."""
        ceiling = min(self.cap, self.initial * 2.0**self.attempt)
        self.attempt += 1
        return ceiling / 2 + self._rand() * ceiling / 2

    def reset(self) -> None:
        """Start again from the initial delay."""
        self.attempt = 0
