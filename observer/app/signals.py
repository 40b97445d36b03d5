"""How the app ends on SIGTERM (``kill``) and SIGHUP (its terminal closed): as ``ctrl+q`` ends it.

Python's default for both ends the process on the spot, leaving the alternate screen up and the
live-rewind folder in the temporary directory. The app exits instead (links closed, recordings
finished, histories deleted, the terminal restored), with status 128 + the signal's number, as
a shell reports it. After SIGHUP nobody reads the terminal: what the app writes on its way out
goes to ``/dev/null``, since a write to a terminal that is gone can hold the shutdown for ever.
Whatever else holds it, :data:`EXIT_GRACE` seconds later the process deletes the histories (the
``last_resort``) and ends: recordings lose at most their last 50 ms, as after ``kill -9``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
from collections.abc import Callable

EXIT_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
EXIT_GRACE = 5.0
"""Seconds a shutdown asked for by a signal may take before the process ends regardless."""


def end_on_signals(
    loop: asyncio.AbstractEventLoop,
    exit: Callable[[int], object],
    last_resort: Callable[[], object],
) -> Callable[[], None]:
    """Call ``exit(status)`` on SIGTERM or SIGHUP; returns what removes the handlers."""

    def ended(number: int) -> None:
        status = 128 + number
        if number == signal.SIGHUP:
            _discard_output()
        exit(status)
        timer = threading.Timer(EXIT_GRACE, _leave, (last_resort, status))
        timer.daemon = True
        timer.start()

    installed = []
    for number in EXIT_SIGNALS:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(number, ended, number)
            installed.append(number)

    def remove() -> None:
        for number in installed:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(number)

    return remove


def _discard_output() -> None:
    """Point standard output and error (where the terminal's screen is written) at /dev/null."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in (1, 2):
            os.dup2(null, fd)
    finally:
        os.close(null)


def _leave(last_resort: Callable[[], object], status: int) -> None:
    """The shutdown did not finish in time: what must not be left behind, then the end."""
    with contextlib.suppress(Exception):
        last_resort()
    os._exit(status)
