"""The PTY follows the controller's window and never a watcher's, end to end in tmux.

A real ``observer serve -- bash`` on loopback with a control and a watch token; two
``observer watch`` apps in two detached tmux sessions of different sizes. In control, ``stty
size`` inside the agent says the controller's window less the status line, and follows it when the
tmux window is resized; a watcher sees the screen cropped (and says so), and resizing its window
changes nothing in the agent.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.app.tmux_driver import listening, status_line, tmux, wait_for

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux installed"),
    pytest.mark.timeout(180),
]
SIZE_COMMAND = "echo SIZE=$(stty size)"

Watch = Callable[[str, int, int], str]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def issue(role: str, tokens: Path) -> str:
    issued = subprocess.run(
        [sys.executable, "-m", "observer", "token", "issue", role, "--tokens", str(tokens)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return issued.stdout.strip()


@pytest.fixture
def watch(tmp_path: Path) -> Iterator[Watch]:
    """Serve bash; the fixture's function opens ``observer watch`` in a new tmux session."""
    tokens, port = tmp_path / "tokens", free_port()
    control, watcher = issue("control", tokens), issue("watch", tokens)
    serve = ["serve", "--tokens", str(tokens), "--listen", f"127.0.0.1:{port}", "--size", "120x40"]
    agent = ["env", "PS1=$ ", "bash", "--norc", "--noprofile"]
    server = subprocess.Popen(
        [sys.executable, "-m", "observer", *serve, "--", *agent],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "serve.log").open("wb"),
    )
    sessions: list[str] = []

    def open_watch(role: str, cols: int, rows: int) -> str:
        name = f"observer-view-{uuid.uuid4().hex[:8]}"
        token = control if role == "control" else watcher
        command = (
            f"cd {ROOT} && OBSERVER_CONFIG_DIR={tmp_path} OBSERVER_TOKEN={token}"
            f" {sys.executable} -m observer watch ws://127.0.0.1:{port}/ --identifier default;"
            " sleep 30"
        )
        env = {**os.environ, "TERM": "xterm-256color"}
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", name, "-x", str(cols), "-y", str(rows), command],
            check=True,
            env=env,
            timeout=10,
        )
        sessions.append(name)
        wait_for(name, lambda s: status_line(s).lstrip().startswith("WATCH"), "WATCH")
        return name

    try:
        listening(port, server)
        yield open_watch
    finally:
        for name in sessions:
            subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True, timeout=10)
        server.terminate()
        server.wait(timeout=10)


def resize(name: str, cols: int, rows: int) -> None:
    """Resize the tmux window; wait until the app has redrawn its status line to the new width.

    Keys typed before the app handled the window's resize would reach the agent before the
    resize does (the app learns of it a moment after tmux).
    """
    tmux("resize-window", "-t", name, "-x", str(cols), "-y", str(rows))
    redrawn = lambda s: len(status_line(s)) == cols and status_line(s).endswith("…")  # noqa: E731
    wait_for(name, redrawn, "the redraw")


def pty_size(name: str, cols: int, rows: int) -> str:
    """Ask the agent's shell for its size; wait until it answers ``rows cols``."""
    tmux("send-keys", "-t", name, "clear; " + SIZE_COMMAND, "Enter")
    return wait_for(name, lambda s: f"SIZE={rows} {cols}" in s, f"stty size {rows} {cols}")


def test_in_control_stty_size_follows_the_controllers_window_and_never_a_watchers(
    watch: Watch,
) -> None:
    controller = watch("control", 100, 30)
    # Watching: the remote's size, once connected (WATCH shows while it still connects).
    wait_for(controller, lambda s: "cropped 120x40 → 100x29" in status_line(s), "the crop")
    tmux("send-keys", "-t", controller, "C-t")
    wait_for(controller, lambda s: "Take control of this agent?" in s, "the confirmation")
    tmux("send-keys", "-t", controller, "y")
    wait_for(controller, lambda s: status_line(s).lstrip().startswith("CONTROL"), "CONTROL")
    pty_size(controller, 100, 29)
    assert "cropped" not in status_line(tmux("capture-pane", "-t", controller, "-p"))

    resize(controller, 90, 25)
    pty_size(controller, 90, 24)

    watcher = watch("watch", 70, 20)
    wait_for(watcher, lambda s: "cropped 90x24 → 70x19" in status_line(s), "the watcher's crop")
    resize(watcher, 60, 15)
    wait_for(watcher, lambda s: "cropped 90x24 → 60x14" in status_line(s), "the watcher resized")
    screen = pty_size(controller, 90, 24)
    assert "SIZE=14 60" not in screen
