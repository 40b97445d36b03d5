"""Clicking a hyperlink, end to end in tmux: shown first, then opened by the system's opener.

A real ``observer serve`` runs a program that prints gcc's captured diagnostic (an OSC 8 link to
gcc's manual) and a link whose text is another address than its target; ``observer watch``
runs in a detached tmux session, framed. The mouse is a real terminal's: SGR mouse reports
typed into the pane. The opener is Python's ``webbrowser`` with ``BROWSER`` naming a script
that writes down the address it is given.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app.test_hyperlinks import GCC, GCC_TARGET
from tests.app.test_view_tmux import ROOT, free_port, issue
from tests.app.tmux_driver import app_in_tmux, status_line, tmux, wait_for
from tests.waiting import until_blocking

pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux installed"),
    pytest.mark.timeout(120),
]
EVIL = b"\x1b]8;;https://evil.example/login\x1b\\https://good.example/login\x1b]8;;\x1b\\\r\n"


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The tmux session watching the program, and the file the browser writes to."""
    (tmp_path / "links.bin").write_bytes(GCC + EVIL)
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$1\" >> {opened}\n")
    browser.chmod(0o700)
    agent = ["sh", "-c", f"cat {tmp_path / 'links.bin'}; exec sleep 600"]
    with watching(tmp_path, agent, "observer-links", f"BROWSER='{browser} %s'") as name:
        wait_for(name, lambda s: "https://good.example/login" in s, "the program's output")
        yield name, opened


@contextlib.contextmanager
def watching(tmp_path: Path, agent: list[str], prefix: str, env: str = "") -> Iterator[str]:
    """``agent`` under a real ``observer serve`` (78x20), watched by ``observer watch`` in a
    detached 80x24 tmux session (with ``env`` before the command); the session's name once it
    watches."""
    tokens, port = tmp_path / "tokens", free_port()
    token = issue("control", tokens)
    serve = ["serve", "--tokens", str(tokens), "--listen", f"127.0.0.1:{port}", "--size", "78x20"]
    server = subprocess.Popen(
        [sys.executable, "-m", "observer", *serve, "--", *agent],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    command = (
        f"cd {ROOT} && OBSERVER_CONFIG_DIR={tmp_path} OBSERVER_TOKEN={token} {env}"
        f" {sys.executable} -m observer watch"
        f" ws://127.0.0.1:{port}/ --identifier default; sleep 30"
    )
    ready = lambda s: status_line(s).lstrip().startswith("WATCH")  # noqa: E731
    with app_in_tmux(server, port, prefix, command, ready) as name:
        yield name


def click(name: str, text: str) -> str:
    """Click the first cell of ``text`` on the pane; the pane once a dialog shows."""
    rows = tmux("capture-pane", "-t", name, "-p").splitlines()
    y = next(n for n, row in enumerate(rows) if text in row)
    x = rows[y].index(text)
    for final in "Mm":  # button 1 down, then up: SGR reports are 1-based
        tmux("send-keys", "-t", name, "-l", f"\x1b[<0;{x + 1};{y + 1}{final}")
    return wait_for(name, lambda s: "Open this link?" in s, "the link dialog")


def test_a_link_is_shown_for_where_it_leads_then_opened_by_the_browser(
    watched: tuple[str, Path],
) -> None:
    name, opened = watched
    dialog = click(name, "https://good.example/login")
    assert "https://evil.example/login" in dialog and "host: evil.example" in dialog
    assert "differs from where it leads:" in dialog and "“https://good.example/login”" in dialog
    tmux("send-keys", "-t", name, "n")
    wait_for(name, lambda s: "Open this link?" not in s, "the dialog to close")
    dialog = click(name, "-Wunused-variable")
    assert "host: gcc.gnu.org" in dialog
    tmux("send-keys", "-t", name, "y")
    until_blocking(opened.exists, "the opener", 20, poll=0.1)
    assert opened.read_text().splitlines() == [GCC_TARGET]
