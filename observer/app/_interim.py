"""An interim stand-in for ``observer.terminal.TerminalModel`` while the terminal core is built.

Used only when ``observer.terminal`` does not provide ``TerminalModel`` yet (see
:mod:`observer.app.terminal`); to be deleted once they land. It implements the shared API
contract for the subset the app uses, over stock pyte, without its speed or its safety work.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import pyte
from pyte.screens import Char


class _Screen(pyte.HistoryScreen):
    def __init__(self, cols: int, rows: int, history: int) -> None:
        super().__init__(cols, rows, history=history, ratio=0.5)
        self.bells = 0
        self.private_modes: set[int] = set()

    def bell(self, *args: Any) -> None:
        self.bells += 1

    def set_mode(self, *modes: int, **kwargs: Any) -> None:
        super().set_mode(*modes, **kwargs)
        if kwargs.get("private"):
            self.private_modes.update(modes)

    def reset_mode(self, *modes: int, **kwargs: Any) -> None:
        super().reset_mode(*modes, **kwargs)
        if kwargs.get("private"):
            self.private_modes.difference_update(modes)


class TerminalModel:
    """The contract's ``TerminalModel`` over stock pyte (interim; see the module docstring)."""

    def __init__(self, cols: int = 80, rows: int = 24, scrollback: int = 10_000) -> None:
        self._screen = _Screen(max(1, cols), max(1, rows), scrollback)
        self._stream = pyte.ByteStream(self._screen)

    @property
    def cols(self) -> int:
        return int(self._screen.columns)

    @property
    def rows(self) -> int:
        return int(self._screen.lines)

    def feed(self, data: bytes) -> set[int]:
        self._screen.dirty.clear()
        # Stock pyte raises on malformed input; the real model never does.
        with contextlib.suppress(Exception):
            self._stream.feed(data)
        return {y for y in self._screen.dirty if 0 <= y < self.rows}

    def resize(self, cols: int, rows: int) -> None:
        self._screen.resize(max(1, rows), max(1, cols))

    @property
    def title(self) -> str:
        return str(self._screen.title)

    @property
    def cursor_x(self) -> int:
        return min(int(self._screen.cursor.x), self.cols - 1)

    @property
    def cursor_y(self) -> int:
        return int(self._screen.cursor.y)

    @property
    def cursor_visible(self) -> bool:
        return not self._screen.cursor.hidden

    def line(self, y: int) -> Sequence[Char]:
        row = self._screen.buffer[y]
        return [row[x] for x in range(self.cols)]

    @property
    def history(self) -> Sequence[Sequence[Char]]:
        return [[row[x] for x in range(self.cols)] for row in self._screen.history.top]

    @property
    def alternate(self) -> bool:
        return bool({47, 1047, 1049} & self._screen.private_modes)

    @property
    def synchronized(self) -> bool:
        return 2026 in self._screen.private_modes

    @property
    def application_cursor(self) -> bool:
        return 1 in self._screen.private_modes

    @property
    def bracketed_paste(self) -> bool:
        return 2004 in self._screen.private_modes

    @property
    def bells(self) -> int:
        return int(self._screen.bells)

    def text(self) -> list[str]:
        return [line.rstrip() for line in self._screen.display]

    def take_replies(self) -> bytes:
        return b""
