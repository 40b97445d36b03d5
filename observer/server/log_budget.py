"""Log lines per source: a burst of the same kind from one source is one summary line.

A client churning connections or retrying a refused token would otherwise write a line per
attempt (thousands in seconds), burying what matters and filling the sandbox's disk. Each
source (a token's name, or a peer's address) may log :data:`LINES` lines of one kind per
:data:`WINDOW` seconds; what it would have logged beyond is counted, and said in one line
when the window ends: ``N more refusals 429 from token ops in 10 s``.
"""

from __future__ import annotations

import asyncio
import errno
import logging
from collections.abc import Callable
from typing import Any, Final

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


_OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


class AcceptErrors:
    """Says in one line that the listening socket cannot accept (out of file descriptors).

    asyncio reports such an error through the loop's exception handler, with a traceback,
    and tries again a second later (``selector_events``); the server goes on meanwhile. This
    handler says it in one line (within the log budget) and passes anything else on.

    Args:
        budget: the server's log budget.
    """

    def __init__(self, budget: LogBudget) -> None:
        self._budget = budget
        self._loop: asyncio.AbstractEventLoop | None = None
        self._previous: Callable[[asyncio.AbstractEventLoop, dict[str, Any]], object] | None = None

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        """Handle ``loop``'s accept errors until :meth:`uninstall`."""
        self._loop, self._previous = loop, loop.get_exception_handler()
        loop.set_exception_handler(self._handle)

    def uninstall(self) -> None:
        """Give the loop its handler back."""
        if self._loop is not None and self._loop.get_exception_handler() == self._handle:
            self._loop.set_exception_handler(self._previous)
        self._loop = None

    def _handle(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        accepting = "accept" in str(context.get("message", ""))
        if accepting and isinstance(error, OSError) and error.errno in _OUT_OF_RESOURCES:
            if self._budget.allow("accept errors", "the listening socket"):
                logging.getLogger("observer.server").warning(
                    "cannot accept a connection: %s — the server goes on; "
                    "raise its open-files limit (ulimit -n) or lower --max-connections",
                    error.strerror,
                )
            return
        if self._previous is not None:
            self._previous(loop, context)
        else:
            loop.default_exception_handler(context)
