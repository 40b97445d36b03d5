"""The README's end-to-end recipe, command for command, as a newcomer would type it.

``observer token issue``, ``observer serve`` on 127.0.0.1, ``observer auth login``, then the
client commands: each is the real CLI in a process of its own. The keyring is keyrings.alt's file
backend, chosen explicitly (this machine has no OS keyring; an explicit choice is what observer
accepts). The watch view itself is a terminal UI, proven by the app's tests: here ``observer
record`` connects the same way, with the token the login stored, and records the shell's prompt.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from observer.asciicast import CastReader

pytestmark = pytest.mark.timeout(60)
ROOT = Path(__file__).resolve().parents[2]


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OBSERVER_", "XDG_"))}
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_DATA_HOME=str(home / "data"),
        PYTHON_KEYRING_BACKEND="keyrings.alt.file.PlaintextKeyring",
        PYTHONPATH=str(ROOT),
        PS1="recipe$ ",
    )
    return env


def observer(home: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "observer", *args]
    return subprocess.run(
        command, input=stdin, capture_output=True, text=True, env=_env(home), cwd=home, timeout=40
    )


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[str, str]]:
    """``observer serve --tokens tokens --listen 127.0.0.1:PORT -- bash``: its URL and token."""
    issued = observer(tmp_path, "token", "issue", "control", "--tokens", "tokens")
    assert issued.returncode == 0, issued.stderr
    token = issued.stdout.strip().splitlines()[0]
    command = ["serve", "--tokens", "tokens", "--listen", "127.0.0.1:0", "--", "bash", "--norc"]
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "observer", *command,
        stderr=asyncio.subprocess.PIPE, env=_env(tmp_path), cwd=tmp_path, start_new_session=True,
    )  # fmt: skip
    assert server.stderr is not None
    url = None
    while url is None:  # the server says where it listens once it does
        line = (await asyncio.wait_for(server.stderr.readline(), 30)).decode()
        assert line, "observer serve ended before it listened"
        found = re.search(r"listening on (127\.0\.0\.1:\d+)", line)
        url = f"ws://{found.group(1)}" if found else None
    try:
        yield url, token
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        await asyncio.wait_for(server.wait(), 20)


async def test_the_readme_recipe_logs_in_lists_and_connects(
    tmp_path: Path, served: tuple[str, str]
) -> None:
    url, token = served
    login = await asyncio.to_thread(
        observer, tmp_path, "auth", "login", url, "--token-stdin", stdin=token + "\n"
    )
    assert login.returncode == 0, login.stderr
    listed = await asyncio.to_thread(observer, tmp_path, "sessions", url)
    assert listed.returncode == 0, listed.stderr
    assert re.search(r"^default\s", listed.stdout, re.M), listed.stdout
    cast = tmp_path / "session.cast"
    record = ["record", url, "--identifier", "default", "-o", str(cast), "--duration", "2"]
    recorded = await asyncio.to_thread(observer, tmp_path, *record)
    assert recorded.returncode == 0, recorded.stderr
    with cast.open(encoding="utf-8") as lines:
        shown = "".join(event.data for event in CastReader(lines) if event.code == "o")
    assert "recipe$" in shown
    assert token not in cast.read_text(encoding="utf-8")
