"""Where the app gets its terminal model and key encoder from.

The terminal core (``observer.terminal``) provides both; until its model has landed, the interim
model in :mod:`observer.app._interim` stands in, so the app is usable and tested meanwhile.
"""

from __future__ import annotations

from observer.terminal.keys import encode_key, encode_paste

try:
    from observer.terminal import TerminalModel  # type: ignore[attr-defined,unused-ignore]
except ImportError:  # pragma: no cover - only before the terminal core lands
    from observer.app._interim import TerminalModel  # type: ignore[assignment,unused-ignore]

__all__ = ["TerminalModel", "encode_key", "encode_paste"]
