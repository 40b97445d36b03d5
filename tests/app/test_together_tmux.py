"""Two people on one agent, end to end in tmux: bob asks alice for the keyboard and gets it.

A real ``observer serve -- bash`` on loopback with two control tokens labelled ``alice`` and
``bob``; two ``observer watch`` apps in two detached tmux sessions. Alice takes the keyboard at
connect; bob's status line names her; bob's ctrl+t (confirmed) asks her; alice's screen names
bob's request; her ``y`` puts bob in CONTROL and her in WATCH; what bob types reaches the agent;
bob's ``--record`` file names both of them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app.test_view_tmux import free_port
from tests.app.tmux_driver import listening, status_line, tmux, wait_for
from tests.waiting import until_blocking

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux installed"),
    pytest.mark.timeout(180),
]


def issue(tokens: Path, label: str) -> str:
    issued = subprocess.run(
        [sys.executable, "-m", "observer", "token", "issue", "control", "--tokens", str(tokens),
         "--label", label],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return issued.stdout.strip()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    """``observer serve -- bash`` with alice's and bob's tokens; the port and the tokens."""
    tokens, port = tmp_path / "tokens", free_port()
    issued = {name: issue(tokens, name) for name in ("alice", "bob")}
    serve = ["serve", "--tokens", str(tokens), "--listen", f"127.0.0.1:{port}", "--size", "100x30"]
    agent = ["env", "PS1=$ ", "bash", "--norc", "--noprofile"]
    server = subprocess.Popen(
        [sys.executable, "-m", "observer", *serve, "--", *agent],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "serve.log").open("wb"),
    )
    try:
        listening(port, server)
        yield port, issued
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture
def sessions() -> Iterator[list[str]]:
    names: list[str] = []
    yield names
    for name in names:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True, timeout=10)


def open_watch(sessions: list[str], tmp_path: Path, port: int, token: str, *options: str) -> str:
    name = f"observer-together-{uuid.uuid4().hex[:8]}"
    command = (
        f"cd {ROOT} && OBSERVER_CONFIG_DIR={tmp_path} OBSERVER_TOKEN={token}"
        f" {sys.executable} -m observer watch ws://127.0.0.1:{port}/ --identifier default"
        f" {' '.join(options)}; sleep 30"
    )
    env = {**os.environ, "TERM": "xterm-256color"}
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", name, "-x", "110", "-y", "32", command],
        check=True, env=env, timeout=10,
    )  # fmt: skip
    sessions.append(name)
    return name


def markers(cast: Path) -> list[str]:
    lines = cast.read_text(encoding="utf-8").splitlines()[1:]
    return [event[2] for event in map(json.loads, lines) if event[1] == "m"]


def test_bob_asks_alice_for_the_keyboard_and_types_once_she_hands_it_over(
    served: tuple[int, dict[str, str]], sessions: list[str], tmp_path: Path
) -> None:
    port, tokens = served
    alice = open_watch(sessions, tmp_path, port, tokens["alice"], "--control")
    wait_for(alice, lambda s: status_line(s).lstrip().startswith("CONTROL"), "alice in CONTROL")
    cast = tmp_path / "bob.cast"
    bob = open_watch(sessions, tmp_path, port, tokens["bob"], "--record", str(cast))
    wait_for(bob, lambda s: "alice has the keyboard" in status_line(s), "bob's status names alice")

    tmux("send-keys", "-t", bob, "C-t")
    wait_for(bob, lambda s: "Ask alice for the keyboard?" in s, "bob's confirmation")
    tmux("send-keys", "-t", bob, "y")
    wait_for(bob, lambda s: "asking alice for the keyboard" in status_line(s), "bob asking")

    wait_for(alice, lambda s: "bob asks for the keyboard" in s, "alice's screen names bob")
    tmux("send-keys", "-t", alice, "y")
    wait_for(bob, lambda s: status_line(s).lstrip().startswith("CONTROL"), "bob in CONTROL")
    wait_for(alice, lambda s: status_line(s).lstrip().startswith("WATCH"), "alice in WATCH")
    wait_for(alice, lambda s: "bob has the keyboard" in status_line(s), "alice's status names bob")

    tmux("send-keys", "-t", bob, "echo typed-by-$((6*7))", "Enter")
    wait_for(alice, lambda s: "typed-by-42" in s, "bob's typing reached the agent")

    tmux("send-keys", "-t", bob, "C-]")
    wait_for(bob, lambda s: status_line(s).lstrip().startswith("WATCH"), "bob watching again")
    tmux("send-keys", "-t", bob, "C-q")  # quit: the recording is finished
    recorded = wait_for_markers(cast, "takeover end: bob")
    assert "takeover start: alice; watching: bob" in recorded
    assert "handover: alice → bob; watching: alice" in recorded


def wait_for_markers(cast: Path, last: str) -> list[str]:
    def written() -> list[str]:
        return markers(cast) if cast.exists() and last in markers(cast) else []

    return until_blocking(written, f"{last!r} in the recording", 30, poll=0.2)
