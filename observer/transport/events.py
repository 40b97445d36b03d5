"""Transport events: what happened to the connection itself (the protocol events are separate)."""

from __future__ import annotations

from dataclasses import dataclass

from observer.protocol.adapters import ProtocolName
from observer.protocol.events import Event


@dataclass(frozen=True, slots=True)
class Connected:
    """The upgrade succeeded. ``resumed_from`` is the ``since=`` offset asked for, if any."""

    origin: str
    protocol: ProtocolName
    attempt: int
    resumed_from: int | None


@dataclass(frozen=True, slots=True)
class Reconnecting:
    """The connection is down; the next attempt (``attempt``, from 1) starts in ``delay`` seconds."""

    delay: float
    attempt: int
    reason: str


@dataclass(frozen=True, slots=True)
class GapDetected:
    """Output was lost while disconnected and the peer cannot replay it (no ``since=``)."""

    reason: str


@dataclass(frozen=True, slots=True)
class Disconnected:
    """The connection ended for good: ``reason`` says why. The event stream ends after it."""

    reason: str


TransportEvent = Connected | Reconnecting | GapDetected | Disconnected
ConnectionEvent = Event | TransportEvent
