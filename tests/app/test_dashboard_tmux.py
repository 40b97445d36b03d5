"""The dashboard, end to end in tmux at 80x24: its footer says how to quit, ``q`` quits, and a
tile shows the start of its agent's lines however far right the cursor is.

A real ``observer serve`` runs two agents; ``observer watch fleet`` (a group of their two
profiles) runs in a detached 80x24 tmux session.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app.test_view_tmux import free_port, issue
from tests.app.tmux_driver import app_in_tmux, tmux, wait_for

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux installed"),
    pytest.mark.timeout(120),
]
# A line that starts where the tile's text starts, then the cursor 70 columns in (a prompt box).
AGENT = "printf 'LEFT EDGE of the line\\n\\033[70Gprompt> '; exec sleep 600"


@pytest.fixture
def dashboard(tmp_path: Path) -> Iterator[str]:
    """The tmux session showing the dashboard of two agents (once both tiles show their line)."""
    tokens, port = tmp_path / "tokens", free_port()
    token = issue("control", tokens)
    serve = ["serve", "--tokens", str(tokens), "--listen", f"127.0.0.1:{port}", "--size", "100x20"]
    names = ("alpha", "beta")
    server = subprocess.Popen(
        [sys.executable, "-m", "observer", *serve]
        + [arg for name in names for arg in ("--identifier", name)]
        + ["--", "sh", "-c", AGENT],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    profiles = "".join(
        f'[profiles.{n}]\nurl = "ws://127.0.0.1:{port}/"\nidentifier = "{n}"\n\n' for n in names
    )
    (tmp_path / "config.toml").write_text(profiles + '[groups]\nfleet = ["alpha", "beta"]\n')
    command = (
        f"cd {ROOT} && OBSERVER_CONFIG_DIR={tmp_path} OBSERVER_TOKEN={token}"
        f" {sys.executable} -m observer watch fleet; echo observer ended; sleep 30"
    )
    both = lambda s: s.count("LEFT EDGE of the line") == 2  # noqa: E731 (both tiles' lines)
    with app_in_tmux(server, port, "observer-dashboard", command, both) as name:
        yield name


def test_tiles_show_where_lines_start_and_the_footer_says_q_quits_and_q_does(
    dashboard: str,
) -> None:
    screen = tmux("capture-pane", "-t", dashboard, "-p")
    assert screen.count("LEFT EDGE of the line") == 2, screen  # not the line's middle
    footer = screen.rstrip("\n").splitlines()[-1]
    assert "q Quit" in footer, footer
    tmux("send-keys", "-t", dashboard, "q")
    wait_for(dashboard, lambda s: "observer ended" in s, "the app quit by q")
