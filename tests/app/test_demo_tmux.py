"""``observer demo`` end to end, driven in tmux as a person would: a real server, PTY and terminal.

Starts the demo in a detached tmux session, waits for the agent's question with ``capture-pane``,
checks that typing while watching reaches nothing, takes control with ctrl+t and y, answers the
question, sees the agent continue, hands control back with ctrl+] and quits with ctrl+q.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app.tmux_driver import demo_session, status_line, tmux, wait_for
from tests.waiting import until_blocking

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux installed")


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    status = tmp_path / "status"
    settings = f"OBSERVER_CONFIG_DIR={tmp_path}"
    with demo_session("observer-demo", 120, 40, settings, f"echo $? > {status}") as name:
        yield name, status


def test_the_demo_can_be_watched_taken_over_answered_and_quit(demo: tuple[str, Path]) -> None:
    name, status = demo
    screen = wait_for(name, lambda s: "Should I commit these changes?" in s, "the question")
    assert status_line(screen).lstrip().startswith("WATCH")
    assert "demo agent" in screen
    # The app tells of the question once it has waited (one notification shows at a time: the
    # newest, so the hint below must come after that one to be seen).
    wait_for(name, lambda s: "needs an answer" in status_line(s), "the question noticed")
    # The question's notification is up before the hint's, which replaces it.
    wait_for(name, lambda s: "the agent: needs an answer" in s, "the question's notification")

    tmux("send-keys", "-t", name, "n")  # watching: must not reach the agent
    time.sleep(1.0)  # time for an echo of the key that must not come
    screen = wait_for(name, lambda s: "press ctrl+t to take control" in s, "the watching hint")
    assert "[y/N] n" not in screen

    tmux("send-keys", "-t", name, "C-t")
    wait_for(name, lambda s: "Take control of this agent?" in s, "the confirmation")
    tmux("send-keys", "-t", name, "y")
    wait_for(name, lambda s: status_line(s).lstrip().startswith("CONTROL"), "CONTROL")

    tmux("send-keys", "-t", name, "y", "Enter")
    screen = wait_for(name, lambda s: "Committed." in s, "the agent to carry on")
    assert "[y/N] y" in screen

    tmux("send-keys", "-t", name, "C-]")
    wait_for(name, lambda s: status_line(s).lstrip().startswith("WATCH"), "WATCH again")
    tmux("send-keys", "-t", name, "C-q")
    until_blocking(status.exists, "the app's exit status", 20, poll=0.2)
    assert status.read_text().strip() == "0"
