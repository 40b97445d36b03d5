"""Waiting on conditions, never on clocks.

A test that sleeps a fixed time guesses how long something takes; on a loaded machine the guess
is wrong and the test flakes, and on an idle one it wastes the time. These helpers poll a
condition instead and fail, naming what was awaited, only when a generous deadline passes.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

POLL = 0.01
"""Seconds between two looks at the condition: short, so a wait ends soon after it holds."""


Described = str | Callable[[], str]
"""What is awaited, or a function that says it when the wait fails (to show the last screen)."""


def _timed_out(what: Described, timeout: float) -> AssertionError:
    said = what if isinstance(what, str) else what()
    return AssertionError(f"timed out after {timeout} s waiting for {said}")


async def until(
    condition: Callable[[], T], what: Described, timeout: float = 30.0, poll: float = POLL
) -> T:
    """Poll ``condition`` until it returns a true value, and return that value.

    Between looks the event loop runs, so a server, client or app on the same loop goes on.

    Args:
        condition: what to look at; any true value ends the wait.
        what: what is awaited, for the failure message (or a function that says it).
        timeout: seconds before the test fails.
        poll: seconds between looks.

    Raises:
        AssertionError: ``condition`` was still false after ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise _timed_out(what, timeout)
        await asyncio.sleep(poll)
    return value


def until_blocking(
    condition: Callable[[], T], what: Described, timeout: float = 30.0, poll: float = POLL
) -> T:
    """Like :func:`until`, for code without an event loop (threads, subprocesses, tmux)."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise _timed_out(what, timeout)
        time.sleep(poll)
    return value


def accepting(port: int, host: str = "127.0.0.1") -> bool:
    """Whether something accepts TCP connections on ``host``:``port`` now (a server is up)."""
    with contextlib.suppress(OSError), socket.create_connection((host, port), 1):
        return True
    return False
