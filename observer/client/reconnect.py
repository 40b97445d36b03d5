"""The reconnect policy: after a failure or a drop, try again (and when) or stop, per peer.

- A refusal that another attempt cannot fix (403, 400, 404, a TLS certificate that does not
  verify) stops at once; so does a first attempt that fails, unless the caller asked to retry it.
- A native endpoint's dropped connection is resumed with ``since=`` after a backoff.
- A peer whose socket's close *is* the program's end (ttyd, a raw bridge) is never reconnected by
  itself: for ttyd a new connection would be a new program, which only the user may ask for.
- A Jupyter terminal outlives its sockets: a drop is rejoined, and the output meanwhile is lost.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Retry:
    """Connect again in ``delay`` seconds."""

    delay: float


@dataclass(frozen=True, slots=True)
class Stop:
    """Do not connect again; ``reason`` says why, in words for people."""

    reason: str
    fatal: bool = False
    """The session never worked or cannot work: the caller shows ``reason`` as an error."""


Decision = Retry | Stop


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


@dataclass
class ReconnectPolicy:
    """Decides what follows a failed attempt or a dropped connection.

    Args:
        reconnect: reconnect at all (False for one-shot tools).
        retry_first: also retry when the very first attempt fails (default: fail fast, clearly).
        stable_after: a connection that lasted this long resets the backoff.
    """

    backoff: Backoff
    reconnect: bool = True
    retry_first: bool = False
    stable_after: float = 5.0
    connected_once: bool = False

    def failed(self, reason: str, *, retryable: bool) -> Decision:
        """An attempt failed before the upgrade."""
        if not retryable or not self.reconnect:
            return Stop(reason, fatal=True)
        if not self.connected_once and not self.retry_first:
            return Stop(reason, fatal=True)
        return Retry(self.backoff.next_delay())

    def opened(self) -> None:
        """An attempt succeeded."""
        self.connected_once = True

    def dropped(self, lasted: float) -> Decision:
        """A connection that was up ended without the program ending: resume or rejoin."""
        if not self.reconnect:
            return Stop("the connection ended")
        if lasted >= self.stable_after:
            self.backoff.reset()
        if self.backoff.attempt == 0:
            self.backoff.attempt = 1  # at once the first time; a second quick drop waits
            return Retry(0.0)
        return Retry(self.backoff.next_delay())
