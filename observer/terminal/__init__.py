"""The VT model over pyte: fast, faithful, safe. Pure: bytes in, screen state out."""

from __future__ import annotations

from observer.terminal.cells import Cell, is_wrapped
from observer.terminal.links import Link, link_at
from observer.terminal.model import TerminalModel
from observer.terminal.notifications import BellRung, NotificationSent, ProgressReported
from observer.terminal.sgr import COLOUR_NAMES
from observer.terminal.snapshot import TerminalSnapshot

__all__ = [
    "COLOUR_NAMES",
    "BellRung",
    "Cell",
    "Link",
    "NotificationSent",
    "ProgressReported",
    "TerminalModel",
    "TerminalSnapshot",
    "is_wrapped",
    "link_at",
]
