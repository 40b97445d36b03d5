"""Where the app gets its terminal model and key encoder from.

The terminal core (``observer.terminal``) provides both; until it has landed, the interim versions
in :mod:`observer.app._interim` stand in, so the app is usable and tested meanwhile.
"""

from __future__ import annotations

try:
    from observer.terminal import TerminalModel  # type: ignore[attr-defined,unused-ignore]
except ImportError:  # pragma: no cover - only before the terminal core lands
    from observer.app._interim import TerminalModel  # type: ignore[assignment,unused-ignore]

try:
    from observer.terminal.keys import (  # type: ignore[import-not-found,unused-ignore]
        encode_key,
        encode_paste,
    )
except ImportError:  # pragma: no cover - only before the key encoder lands
    from observer.app._interim import encode_key, encode_paste  # type: ignore[assignment,unused-ignore]

__all__ = ["TerminalModel", "encode_key", "encode_paste"]
