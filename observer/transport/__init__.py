"""The client connection (see :mod:`observer.transport.connection`): one import for its users."""

from __future__ import annotations

from observer.transport.connection import Connection
from observer.transport.safety import RedactingLogger, check_token
from observer.transport.settings import API_VERSION, ConnectionSettings

__all__ = ["API_VERSION", "Connection", "ConnectionSettings", "RedactingLogger", "check_token"]
