"""Driving a TUI in a detached tmux session, as a person would: send keys, read the pane."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import time
import uuid
from collections.abc import Callable


def tmux(*args: str) -> str:
    return subprocess.run(
        ["tmux", *args], check=True, capture_output=True, text=True, timeout=10
    ).stdout


def start(prefix: str, cols: int, rows: int, command: str) -> str:
    """Run ``command`` in a new detached tmux session of ``cols`` x ``rows``; its name."""
    name = f"{prefix}-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "TERM": "xterm-256color"}
    size = ("-x", str(cols), "-y", str(rows))
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", name, *size, command], check=True, env=env, timeout=10
    )
    return name


def wait_for(name: str, check: Callable[[str], bool], what: str, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-t", name, "-p")
        if check(screen):
            return screen
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}; the screen was:\n{screen}")


def status_line(screen: str) -> str:
    lines = screen.rstrip("\n").splitlines()
    return lines[-1] if lines else ""


def listening(port: int, server: subprocess.Popen[bytes], timeout: float = 60) -> None:
    """Wait until ``server`` accepts connections on ``port``: a watcher started before is
    refused and exits, as it should (on a busy machine the server takes seconds to start)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and server.poll() is None:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        time.sleep(0.05)
    raise AssertionError(f"observer serve is not listening on port {port}")
