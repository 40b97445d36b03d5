"""When a watched session should skip its backlog for a snapshot instead of parsing it.

Client work must be bounded by what a person can see, not by the agent's output rate: when the
output waiting to be parsed would take more than :data:`BEHIND_AFTER` seconds at the measured rate, the
session asks the peer for a snapshot (``resync``) and drops that output. A snapshot is the peer's
screen at its own model's offset, followed by the output after it, so a resync gains only what lies
before that offset: the output that arrives within :data:`TAIL_WINDOW` of a snapshot is counted as
its tail, and a resync is asked again only when the backlog exceeds that by the limit.

The server sends at most one snapshot per :data:`~observer.protocol.frames.RESYNC_INTERVAL`
and nothing at all while it holds one back, so a resync asked sooner than that after the last
snapshot would leave the session blind for the rest of the interval (a key's echo a second
late): until the interval is up the session keeps parsing instead, and asks when it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from observer.protocol.frames import RESYNC_INTERVAL

BEHIND_AFTER = 0.1
TAIL_WINDOW = 0.1
BEHIND_VIEW = 0.02
"""Waiting output that takes longer than this to parse makes views draw fewer frames."""


@dataclass
class ParseRate:
    """How fast this client parses output (bytes per second), smoothed over recent pieces."""

    bytes_per_second: float = 2e6
    weight: float = 0.2

    def note(self, size: int, seconds: float) -> None:
        """Account for ``size`` bytes parsed in ``seconds``."""
        if size >= 1024 and seconds > 0:
            sample = size / seconds
            self.bytes_per_second += self.weight * (sample - self.bytes_per_second)

    def seconds_for(self, size: int) -> float:
        """How long parsing ``size`` bytes would take."""
        return size / self.bytes_per_second


@dataclass
class CatchUp:
    """Decides when a snapshot pays; ``resyncing`` while the asked-for snapshot is on its way."""

    behind_after: float = BEHIND_AFTER
    resyncing: bool = False
    tail: int = 0
    snapshot_at: float = float("-inf")
    rate: ParseRate = field(default_factory=ParseRate)
    interval: float = RESYNC_INTERVAL
    """The peer answers at most one resync per interval (see the module docstring)."""

    def pays(self, waiting: int, now: float) -> bool:
        """Whether skipping ``waiting`` bytes for a snapshot saves more than the limit, and the
        peer would answer now."""
        if self.resyncing:
            return False
        if now - self.snapshot_at < TAIL_WINDOW:
            self.tail = max(self.tail, waiting)
            return False
        if now - self.snapshot_at < self.interval:
            return False  # it would be held back: parse meanwhile
        return self.rate.seconds_for(waiting - self.tail) > self.behind_after

    def snapshot_applied(self, waiting: int, now: float) -> None:
        """A snapshot arrived: start measuring its tail (``waiting`` bytes came with it so far)."""
        self.resyncing = False
        self.snapshot_at, self.tail = now, waiting

    def behind(self, waiting: int) -> bool:
        """Whether views should draw fewer frames while ``waiting`` bytes are parsed."""
        return self.rate.seconds_for(waiting) > BEHIND_VIEW
