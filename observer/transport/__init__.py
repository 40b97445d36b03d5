"""The client connection (see :mod:`observer.transport.connection`): one import for its users."""

from __future__ import annotations

from observer.transport.connection import Connection
from observer.transport.events import (
    Connected,
    ConnectionEvent,
    Disconnected,
    GapDetected,
    Reconnecting,
    TransportEvent,
)
from observer.transport.safety import RedactingLogger, check_token
from observer.transport.settings import API_VERSION, Backoff, ConnectionSettings

__all__ = [
    "API_VERSION",
    "Backoff",
    "Connected",
    "Connection",
    "ConnectionEvent",
    "ConnectionSettings",
    "Disconnected",
    "GapDetected",
    "Reconnecting",
    "RedactingLogger",
    "TransportEvent",
    "check_token",
]
