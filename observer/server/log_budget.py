"""Log lines per source: a burst of the same kind from one source is one summary line.

A client churning connections or retrying a refused token would otherwise write a line per
attempt (thousands in seconds), burying what matters and filling the sandbox's disk. Each
source (a token's name, or a peer's address) may log :data:`LINES` lines of one kind per
:data:`WINDOW` seconds; what it would have logged beyond is counted, and said in one line
when the window ends: ``N more refusals 429 from token ops in 10 s``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Final

LINES: Final = 5
"""Lines of one kind a source may log per window."""
WINDOW: Final = 10.0
"""Seconds of a window."""


class LogBudget:
    """Lets a source's lines of a kind through up to :data:`LINES` per :data:`WINDOW`.

    Args:
        log: where lines and summaries go.
        clock: monotonic seconds.
    """

    def __init__(self, log: logging.Logger, clock: Callable[[], float]) -> None:
        self._log = log
        self._clock = clock
        self._windows: dict[tuple[str, str], tuple[float, int, int]] = {}
        """(kind, source) -> (window start, lines logged, lines held back)."""
        self._timer: asyncio.TimerHandle | None = None

    def allow(self, kind: str, source: str) -> bool:
        """Whether one more line of ``kind`` from ``source`` may be logged now (else it is
        counted for the window's summary)."""
        now = self._clock()
        start, logged, held = self._windows.get((kind, source), (now, 0, 0))
        if now - start >= WINDOW:
            self._summarize(kind, source, held)
            start, logged, held = now, 0, 0
        if logged < LINES:
            self._windows[kind, source] = (start, logged + 1, held)
            return True
        self._windows[kind, source] = (start, logged, held + 1)
        self._summarize_later()
        return False

    def flush(self, everything: bool = False) -> None:
        """Say what every ended window (or ``everything``: every window) held back, and
        forget those windows."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        now = self._clock()
        for (kind, source), (start, _, held) in list(self._windows.items()):
            if everything or now - start >= WINDOW:
                self._summarize(kind, source, held)
                del self._windows[kind, source]
        if self._windows:
            self._summarize_later()

    def _summarize(self, kind: str, source: str, held: int) -> None:
        if held:
            self._log.info("%d more %s from %s in %.0f s", held, kind, source, WINDOW)

    def _summarize_later(self) -> None:
        if self._timer is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return
            self._timer = loop.call_later(WINDOW, self.flush)
