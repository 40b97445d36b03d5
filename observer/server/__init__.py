"""The reference sandbox endpoint (``observer serve``): PTY sessions broadcast over ``observer.v1``.

A shell around the pure :mod:`observer.protocol`; it never imports Textual or keyring.
"""

from __future__ import annotations

from observer.server.server import Server

__all__ = ["Server"]
