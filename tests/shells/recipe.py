"""A newcomer's machine, for the tests that follow the README: a home, config dir and keyring of
its own, the real CLI in processes of their own, a real ``observer serve`` on 127.0.0.1, and a
terminal (a tmux server on a socket of its own) with a shell in it.

The keyring is keyrings.alt's file backend, chosen explicitly (this machine has no OS keyring; an
explicit choice is what observer accepts).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

from tests.app.tmux_driver import tmux, wait_for
from tests.waiting import until_blocking

ROOT = Path(__file__).resolve().parents[2]
PROMPT = "newcomer$ "


def environment(home: Path) -> dict[str, str]:
    """The environment of every command: nothing of the developer's, everything under ``home``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OBSERVER_", "XDG_"))}
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_DATA_HOME=str(home / "data"),
        PYTHON_KEYRING_BACKEND="keyrings.alt.file.PlaintextKeyring",
        PYTHONPATH=str(ROOT),
        PS1=PROMPT,
    )
    return env


def observer(home: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``observer ARGS`` run in ``home``, ``stdin`` piped in; it has ended."""
    command = [sys.executable, "-m", "observer", *args]
    return subprocess.run(
        command, input=stdin, capture_output=True, text=True, env=environment(home), cwd=home,
        timeout=40,
    )  # fmt: skip


@contextlib.contextmanager
def served(home: Path, *identifiers: str, agent: str = "") -> Iterator[tuple[str, str]]:
    """``observer serve --tokens tokens --listen 127.0.0.1:0 [-i ID ...] -- AGENT``, where AGENT is
    ``sh -c agent`` (bash by default): its URL and a control token, once it listens. It is stopped
    after, with the agents."""
    issued = observer(home, "token", "issue", "control", "--tokens", "tokens")
    assert issued.returncode == 0, issued.stderr
    token = issued.stdout.strip().splitlines()[0]
    program = ["sh", "-c", agent] if agent else ["bash", "--norc"]
    command = ["serve", "--tokens", "tokens", "--listen", "127.0.0.1:0"]
    command += [arg for identifier in identifiers for arg in ("-i", identifier)]
    log = home / "serve.log"
    with log.open("wb") as stderr:
        server = subprocess.Popen(
            [sys.executable, "-m", "observer", *command, "--", *program],
            stderr=stderr, env=environment(home), cwd=home, start_new_session=True,
        )  # fmt: skip

    def listening() -> str:  # the server says where it listens once it does
        assert server.poll() is None, f"observer serve ended: {log.read_text()}"
        found = re.search(r"listening on (127\.0\.0\.1:\d+)", log.read_text())
        return f"ws://{found.group(1)}" if found else ""

    try:
        yield until_blocking(listening, "observer serve listening", 30, poll=0.05), token
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(20)


class Terminal:
    """A shell at ``PROMPT`` in a tmux window of ``cols`` x ``rows``, on a tmux server of its own,
    with ``observer`` on its PATH and the environment of :func:`environment`."""

    def __init__(self, home: Path, cols: int = 100, rows: int = 30) -> None:
        self.socket = f"observer-newcomer-{uuid.uuid4().hex[:8]}"
        self.name = "newcomer"
        bin_dir = home / "bin"
        bin_dir.mkdir(exist_ok=True)
        (bin_dir / "observer").write_text(f'#!/bin/sh\nexec {sys.executable} -m observer "$@"\n')
        (bin_dir / "observer").chmod(0o755)
        env = environment(home)
        env.update(TERM="xterm-256color", PATH=f"{bin_dir}{os.pathsep}{env['PATH']}")
        size = ("-x", str(cols), "-y", str(rows))
        rc = home / "bashrc"  # bash sets its own PS1 in tmux, whatever the environment says
        rc.write_text(f"PS1='{PROMPT}'\n")
        shell = f"bash --noprofile --rcfile {rc}"
        new = ["tmux", "-L", self.socket, "-f", "/dev/null", "new-session", "-d", "-s", self.name]
        subprocess.run([*new, *size, shell], check=True, env=env, cwd=home, timeout=10)

    def type(self, line: str) -> None:
        """Type ``line`` and press enter."""
        tmux("send-keys", "-t", self.name, "-l", line, socket=self.socket)
        tmux("send-keys", "-t", self.name, "Enter", socket=self.socket)

    def press(self, key: str) -> None:
        """Press ``key`` (tmux's name of it: ``q``, ``C-q``)."""
        tmux("send-keys", "-t", self.name, key, socket=self.socket)

    def wait(self, check: Callable[[str], bool], what: str, timeout: float = 60) -> str:
        """The screen once ``check`` holds for it."""
        return wait_for(self.name, check, what, timeout, socket=self.socket)

    def close(self) -> None:
        """Stop the tmux server and everything in it."""
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)


@contextlib.contextmanager
def terminal(home: Path) -> Iterator[Terminal]:
    """A :class:`Terminal` for the block, once its shell shows the prompt; closed after."""
    opened = Terminal(home)
    try:
        opened.wait(lambda screen: PROMPT.strip() in screen, "the shell's prompt")
        yield opened
    finally:
        opened.close()
