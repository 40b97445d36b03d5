"""observer: watch, take over, record and replay an AI coding agent's terminal."""

from __future__ import annotations

__version__ = "0.1.0"
