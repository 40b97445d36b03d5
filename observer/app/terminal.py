"""The terminal core pieces the app uses, imported in one place."""

from __future__ import annotations

from observer.terminal import Cell, TerminalModel
from observer.terminal.keys import encode_key, encode_paste

__all__ = ["Cell", "TerminalModel", "encode_key", "encode_paste"]
