"""Limits that keep one token from hurting the others: connections, and messages per second.

Connections are counted per token (a :class:`~observer.auth.tokens.Credential`'s key) from the
moment a request is admitted until its connection closes, so a burst of handshakes cannot slip
past the count. A token may hold at most ``per_token`` of them, and watch tokens together at
most ``total - reserved``: the last ``reserved`` places are kept for control tokens, so a
controller can always get in to take over, however many watchers hoard the server.

A connection's messages are paced by a token bucket (:class:`MessageBudget`): a client that
sends faster than ``rate`` messages a second (after a burst) is read more slowly, so its flood
waits in its own socket instead of the server's CPU. Control frames (pings, pongs) spend it too.
A token's connections together share a second bucket (:class:`TokenBudgets`): fifty
connections of one token at their own limit are read at the token's rate, not fifty times it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Final

from observer.auth.token_file import Role

MAX_CONNECTIONS: Final = 256
MESSAGE_RATE: Final = 500.0
"""Messages a second a client may send in the long run (typing is tens; a paste is a few
64 KiB frames)."""
MESSAGE_BURST: Final = 2000.0
TOKEN_MESSAGE_RATE: Final = MESSAGE_RATE
"""Messages (and control frames) a second all connections of one token may send together: as
many as one connection, so that fifty connections cost the server what one does."""
TOKEN_MESSAGE_BURST: Final = 100.0
"""Messages all connections of one token may send at once, together, beyond the rate. More
than a person sends at once (a paste is a few frames, a dashboard's tiles ask for their view
one message each), and small: fifty connections spending a large burst together cost the
agent a burst of the server's time, for nothing a person needs."""
CONNECTION_RATE: Final = 16.0
"""New connections a second one token may open in the long run (a dashboard opening a hundred
tiles on one server takes a few seconds; a churning client is refused with 429)."""
CONNECTION_BURST: Final = 64.0


class ConnectionLimits:
    """How many connections each token holds, and whether one more may open.

    Args:
        total: connections over all tokens (and sessions).
        per_token: connections one token may hold; default half of ``total`` (128 of 256: a
            dashboard of a hundred agents on one server fits).
        reserved: of ``total``, places only control tokens may take; default a sixteenth
            (at least one).
    """

    def __init__(
        self,
        total: int = MAX_CONNECTIONS,
        per_token: int | None = None,
        reserved: int | None = None,
    ) -> None:
        self.total = total
        self.per_token = max(1, total // 2) if per_token is None else per_token
        reserved = max(1, total // 16) if reserved is None else reserved
        self.reserved = min(reserved, max(0, total - 1))
        self.open = 0
        self._by_key: Counter[str] = Counter()

    def held(self, key: str) -> int:
        """Connections ``key`` holds now."""
        return self._by_key[key]

    def refusal(self, key: str | None, role: Role) -> str | None:
        """Why one more connection for ``key`` (``None``: no authentication) with ``role``
        may not open, or ``None`` if it may."""
        if self.open >= self.total:
            return "Too many connections"
        if key is None:
            return None
        if role != "control" and self.open >= self.total - self.reserved:
            return "Too many connections; the rest are kept for control tokens"
        if self._by_key[key] >= self.per_token:
            return "Too many connections for this token — close some, or use another token"
        return None

    def add(self, key: str | None) -> None:
        """Count a connection that was admitted."""
        self.open += 1
        if key is not None:
            self._by_key[key] += 1

    def remove(self, key: str | None) -> None:
        """Forget a connection that closed (or whose handshake failed)."""
        self.open -= 1
        if key is not None:
            self._by_key[key] -= 1
            if self._by_key[key] <= 0:
                del self._by_key[key]


class MessageBudget:
    """A token bucket of messages: ``rate`` a second, at most ``burst`` at once.

    Args:
        clock: monotonic seconds.
    """

    def __init__(
        self,
        clock: Callable[[], float],
        rate: float = MESSAGE_RATE,
        burst: float = MESSAGE_BURST,
    ) -> None:
        self._clock = clock
        self.rate = rate
        self.burst = burst
        self._tokens = burst
        self._last = clock()

    def spend(self) -> float:
        """Count one message; return how long to wait before reading the next (0.0: at once)."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate) - 1.0
        self._last = now
        return 0.0 if self._tokens >= 0 else -self._tokens / self.rate


class ReadBudget:
    """What paces one connection's reading: its own bucket and its token's, both spent.

    Args:
        buckets: the connection's :class:`MessageBudget` and any shared one (its token's).
    """

    def __init__(self, *buckets: MessageBudget) -> None:
        self.buckets = buckets

    def spend(self) -> float:
        """Count one message or control frame; the seconds to wait before reading more."""
        return max(bucket.spend() for bucket in self.buckets)


class TokenBudgets:
    """One shared :class:`MessageBudget` per token, while it has connections.

    Args:
        clock: monotonic seconds.
    """

    def __init__(
        self,
        clock: Callable[[], float],
        rate: float = TOKEN_MESSAGE_RATE,
        burst: float = TOKEN_MESSAGE_BURST,
    ) -> None:
        self._clock = clock
        self.rate = rate
        self.burst = burst
        self._budgets: dict[str, MessageBudget] = {}

    def for_connection(self, key: str | None) -> ReadBudget:
        """The budget a new connection of token ``key`` reads with (its own, and its token's)."""
        own = MessageBudget(self._clock)
        if key is None:
            return ReadBudget(own)
        shared = self._budgets.get(key)
        if shared is None:
            shared = self._budgets[key] = MessageBudget(self._clock, self.rate, self.burst)
        return ReadBudget(own, shared)

    def forget(self, key: str | None) -> None:
        """Token ``key`` has no connection left: drop its bucket."""
        if key is not None:
            self._budgets.pop(key, None)


class NewConnections:
    """How fast each token may open connections: a token bucket of arrivals per token.

    Args:
        clock: monotonic seconds.
    """

    def __init__(
        self,
        clock: Callable[[], float],
        rate: float = CONNECTION_RATE,
        burst: float = CONNECTION_BURST,
    ) -> None:
        self._clock = clock
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}
        """Per token: the places left, and when they were counted."""

    def allow(self, key: str | None) -> bool:
        """Count an arrival of token ``key``; False if it comes too soon after the others (a
        refused arrival takes no place: a client that retries gets in at the rate)."""
        if key is None:
            return True
        now = self._clock()
        if key not in self._buckets and len(self._buckets) >= 4096:
            self._buckets.clear()  # many tokens (JWT subjects): start afresh
        left, then = self._buckets.get(key, (self.burst, now))
        left = min(self.burst, left + (now - then) * self.rate)
        allowed = left >= 1.0
        self._buckets[key] = (left - 1.0 if allowed else left, now)
        return allowed
