"""Blocking calls awaited from the event loop, each in a thread of its own."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def in_thread(function: Callable[[], T]) -> asyncio.Future[T]:
    """Run a blocking call in a thread of its own and await its result.

    Not ``asyncio.to_thread``: its pool has a handful of workers, and one ``wait()`` per session
    would fill it, leaving no worker for the calls that end those very processes.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        try:
            result, error = function(), None
        except BaseException as caught:  # handed to the awaiting coroutine
            result, error = None, caught
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=run, daemon=True).start()
    return future
