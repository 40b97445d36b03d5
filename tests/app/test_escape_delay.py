"""A lone ESC (the dashboard's "back", leaving a dialog) is the Escape key after 25 ms, not
Textual's 100 ms; ``ESCDELAY`` (milliseconds, as for curses programs) still decides where set.
Textual's own input parser is fed as the host terminal's bytes reach it, and the thread that
reads the terminal waits no longer than the parser's deadline (Textual's waited 100 ms whatever
the delay): checked in a real terminal, where the thread's own wait is made 5 s."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import textual.constants
from textual import events
from textual._xterm_parser import XTermParser

from observer.app import textual_patches
from observer.app.textual_patches import ESCAPE_DELAY, input_wait

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def textuals_delay() -> Iterator[None]:
    try:
        yield
    finally:
        textual_patches.uninstall()


def shorten_escape_delay(environ: dict[str, str]) -> None:
    """The patches the command that starts the app installs, in ``environ``."""
    textual_patches.install(environ)


def escape_after(seconds: float) -> tuple[bool, float]:
    """Whether a lone ESC is the Escape key ``seconds`` after it came (and the seconds that
    really passed: a busy machine may sleep longer)."""
    parser = XTermParser()
    started = time.monotonic()
    keys = list(parser.feed("\x1b"))
    time.sleep(seconds)
    keys += list(parser.tick())
    escaped = any(isinstance(key, events.Key) and key.key == "escape" for key in keys)
    return escaped, time.monotonic() - started


def test_a_lone_escape_is_the_escape_key_after_the_shorter_delay() -> None:
    textual.constants.ESCAPE_DELAY = 0.1  # type: ignore[misc]  # Textual's default
    escaped, waited = escape_after(2 * ESCAPE_DELAY)
    assert not escaped or waited >= 0.1  # the premise: Textual alone still waits
    shorten_escape_delay({})
    assert escape_after(2 * ESCAPE_DELAY)[0]


def test_escdelay_set_by_the_user_is_kept() -> None:
    textual.constants.ESCAPE_DELAY = 0.1  # type: ignore[misc]  # what Textual read from it
    shorten_escape_delay({"ESCDELAY": "100"})
    assert textual.constants.ESCAPE_DELAY == 0.1


def test_a_sequence_in_one_read_is_still_one_key() -> None:
    shorten_escape_delay({})
    keys = list(XTermParser().feed("\x1b[A"))
    assert [key.key for key in keys if isinstance(key, events.Key)] == ["up"]


def test_the_input_thread_waits_no_longer_than_a_pending_escape() -> None:
    shorten_escape_delay({})
    parser = XTermParser()
    assert input_wait(parser, idle=5.0) == 5.0  # nothing pending: as long as it likes
    list(parser.feed("\x1b"))
    assert 0 < input_wait(parser, idle=5.0) <= ESCAPE_DELAY
    time.sleep(ESCAPE_DELAY)
    assert input_wait(parser, idle=5.0) == 0.0  # due: the next tick makes it the Escape key
    assert [key.key for key in parser.tick() if isinstance(key, events.Key)] == ["escape"]
    assert input_wait(parser, idle=5.0) == 5.0


APP_IN_A_TERMINAL = r"""
import sys, time
from textual import events
from observer.app import textual_patches
from observer.app.app import ObserverApp
from tests.app.conftest import scripted

textual_patches.install()  # as the command that starts the app does
driver = textual_patches.input_driver()
driver.idle = 5.0  # Textual's thread would see a lone ESC only this late
told = open(sys.argv[1], "w", buffering=1)
delivered = driver.process_message

def process_message(self, message):
    if isinstance(message, events.Key):
        told.write(f"{message.key} {time.monotonic()}\n")
    delivered(self, message)

driver.process_message = process_message
app = ObserverApp([scripted([b"$ "])])
app.call_later(lambda: told.write("ready\n"))
app.run()
"""


def test_in_a_real_terminal_a_lone_escape_reaches_the_app_when_its_delay_ends(
    tmp_path: Path,
) -> None:
    told = tmp_path / "keys"
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    app = subprocess.Popen(
        [sys.executable, "-c", APP_IN_A_TERMINAL, str(told)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=dict(os.environ, TERM="xterm-256color", PYTHONPATH=str(ROOT)),
        start_new_session=True,
    )
    os.close(slave)
    drain = threading.Thread(target=read_all, args=(master,), daemon=True)
    drain.start()
    try:
        wait_for_line(told, "ready", within=30)
        sent = time.monotonic()
        os.write(master, b"\x1b")
        line = wait_for_line(told, "escape", within=2.0)  # the thread's own wait is 5 s
        assert float(line.split()[1]) - sent < 2.0
    finally:  # (quitting would wait for the thread's 5 s)
        app.kill()
        app.wait()
        os.close(master)


def read_all(fd: int) -> None:
    """Read what the app draws until its terminal closes (a full PTY would stop it)."""
    with contextlib.suppress(OSError):
        while os.read(fd, 65536):
            pass


def wait_for_line(path: Path, start: str, within: float) -> str:
    """The first line of ``path`` starting with ``start``, written within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        lines = path.read_text().splitlines() if path.exists() else []
        found = [line for line in lines if line.startswith(start)]
        if found:
            return found[0]
        time.sleep(0.01)
    raise AssertionError(f"no {start!r} line within {within} s: {lines}")
