"""Checks of observer's own screen against a peer that never reports its size (ttyd, Jupyter).

In control, the remote PTY follows the view; observer's screen must take the size it sent, or a
full-width line wraps early and ``clear`` homes the cursor inside a smaller screen. Each check
prints a line exactly as wide as the screen and a ``clear`` after it, then reads the model.
"""

from __future__ import annotations

import shlex
import sys
import time

from tests.client_support import Client
from tests.integration.client_peers import collect_until

PYTHON = shlex.quote(sys.executable)


def fed(client: Client) -> list[str]:
    """Feed all the output received so far; the screen's rows as text."""
    session = client.session
    while session.pending:
        session.feed(1 << 20, time.monotonic())
    return session.model.text()


def screen_command(cols: int, tag: int) -> str:
    """A shell line: a line of ``cols`` characters, a pause (long enough for a loaded machine to
    read the line before ``clear`` comes), ``clear``, a word at the top.

    The markers are printed from arithmetic (``one-$((tag+1))``) so the typed command's echo
    never matches them. The line starts on a fresh line of its own: typed ahead of a shell still
    starting, the echo comes first and the prompt after it, where the line would otherwise begin.
    """
    line = f"{PYTHON} -c \"print(); print('A'*{cols - 1}+'Z')\""
    return f"sleep 0.3; {line}; echo one-$(({tag}+1)); sleep 1.5; clear; echo two-$(({tag}+2))\r"


async def check_screen(client: Client, stream: object, cols: int, rows: int, *, tag: int,
                       release: bool = False) -> None:  # fmt: skip
    """Type :func:`screen_command` and check the screen is ``cols`` x ``rows`` throughout.

    Args:
        release: hand the keyboard back (ctrl+]) right after typing, and resize the window
            once more (a watcher's resize sends nothing: the remote keeps its size).
    """
    assert await client.send_input(screen_command(cols, tag).encode()) is True
    if release:
        await client.release()
        assert await client.resize(cols - 17, rows - 5) is False
    await collect_until(stream, lambda s, out: f"one-{tag + 1}".encode() in out)
    shown = fed(client)
    assert (client.session.model.cols, client.session.model.rows) == (cols, rows)
    assert "A" * (cols - 1) + "Z" in shown, "a full-width line wrapped early"
    await collect_until(stream, lambda s, out: f"two-{tag + 2}".encode() in out)
    shown = fed(client)
    assert shown[0] == f"two-{tag + 2}", "clear left the cursor away from the top left"
    assert (client.session.model.cols, client.session.model.rows) == (cols, rows)


async def check_takeover_resize_and_hand_back(client: Client, stream: object) -> None:
    """The issue's path: take control in a 120x35 window, resize it to 100x30, hand back."""
    await client.take()
    await client.resize(120, 35)
    await check_screen(client, stream, 120, 35, tag=10)
    await client.resize(100, 30)
    await check_screen(client, stream, 100, 30, tag=20)
    await check_screen(client, stream, 100, 30, tag=30, release=True)
