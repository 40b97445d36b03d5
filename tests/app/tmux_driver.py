"""Driving a TUI in a detached tmux session, as a person would: send keys, read the pane."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

from tests.waiting import accepting, until_blocking


def tmux(*args: str, socket: str | None = None) -> str:
    """Run tmux with ``args`` (on the server of ``socket``, ``-L``, if given); its output."""
    server = ["-L", socket] if socket else []
    return subprocess.run(
        ["tmux", *server, *args], check=True, capture_output=True, text=True, timeout=10
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


@contextlib.contextmanager
def demo_session(prefix: str, cols: int, rows: int, settings: str, after: str) -> Iterator[str]:
    """``observer demo --speed 4`` in a new tmux session (its name), with the shell variables
    ``settings`` and the shell command ``after`` once it ends; the session is killed after."""
    root = Path(__file__).resolve().parents[2]
    command = (
        f"cd {root} && {settings} {sys.executable} -m observer demo --speed 4; {after}; sleep 30"
    )
    name = start(prefix, cols, rows, command)
    try:
        yield name
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True, timeout=10)


def wait_for(
    name: str,
    check: Callable[[str], bool],
    what: str,
    timeout: float = 60,
    socket: str | None = None,
) -> str:
    """The pane of ``name`` once ``check`` holds for it (on the server of ``socket``, if given)."""
    screens = [""]

    def shown() -> str:
        screens.append(tmux("capture-pane", "-t", name, "-p", socket=socket))
        return screens[-1] if check(screens[-1]) else ""

    return until_blocking(
        shown, lambda: f"{what}; the screen was:\n{screens[-1]}", timeout, poll=0.2
    )


def status_line(screen: str) -> str:
    lines = screen.rstrip("\n").splitlines()
    return lines[-1] if lines else ""


def listening(port: int, server: subprocess.Popen[bytes], timeout: float = 60) -> None:
    """Wait until ``server`` accepts connections on ``port``: a watcher started before is
    refused and exits, as it should (on a busy machine the server takes seconds to start)."""

    def up() -> bool:
        assert server.poll() is None, "observer serve exited before it listened"
        return accepting(port)

    until_blocking(up, f"observer serve listening on port {port}", timeout, poll=0.05)


@contextlib.contextmanager
def app_in_tmux(
    server: subprocess.Popen[bytes],
    port: int,
    prefix: str,
    command: str,
    ready: Callable[[str], bool],
) -> Iterator[str]:
    """``command`` (an app watching ``server``) in a detached 80x24 tmux session, started once
    the server listens on ``port``; the session's name once its screen is ``ready``. The session
    and the server are stopped after."""
    name = ""
    try:
        listening(port, server)
        name = start(prefix, 80, 24, command)
        wait_for(name, ready, "the app ready")
        yield name
    finally:
        if name:
            subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True, timeout=10)
        server.terminate()
        server.wait(timeout=10)
