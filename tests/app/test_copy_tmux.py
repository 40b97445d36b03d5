"""Copying, end to end in tmux: a drag with a real terminal's mouse, or tmux-style keys, puts the
text on the host terminal's clipboard (OSC 52, which tmux keeps as its paste buffer).

A real ``observer serve`` runs a program that prints a few lines; ``observer watch`` runs in a
detached tmux session, framed, with tmux's ``set-clipboard on`` (so it takes OSC 52).
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app.test_links_tmux import watching
from tests.app.tmux_driver import status_line, tmux, wait_for

pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux installed"),
    pytest.mark.timeout(120),
]
LINES = "build 7 of 9: compiling parser.c\nbuild 8 of 9: linking observer\n"


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[str]:
    """The tmux session watching the program (tmux taking OSC 52, its buffers cleared)."""
    (tmp_path / "lines.txt").write_text(LINES)
    agent = ["sh", "-c", f"cat {tmp_path / 'lines.txt'}; exec sleep 600"]
    with watching(tmp_path, agent, "observer-copy") as name:
        tmux("set-option", "-s", "set-clipboard", "on")
        subprocess.run(["tmux", "delete-buffer"], capture_output=True, timeout=10)
        wait_for(name, lambda s: "linking observer" in s, "the program's output")
        yield name


def where(name: str, text: str) -> tuple[int, int]:
    """The pane's column and row (from 0) of the first cell of ``text``."""
    rows = tmux("capture-pane", "-t", name, "-p").splitlines()
    y = next(n for n, row in enumerate(rows) if text in row)
    return rows[y].index(text), y


def clipboard(expected: str) -> str:
    """tmux's newest paste buffer once it holds ``expected`` (what OSC 52 set)."""
    found = ""
    for _ in range(100):
        done = subprocess.run(["tmux", "show-buffer"], capture_output=True, text=True, timeout=10)
        found = done.stdout
        if found == expected:
            break
        subprocess.run(["sleep", "0.1"], check=True)
    return found


def test_a_drag_copies_the_cells_under_it_to_the_host_clipboard(watched: str) -> None:
    x, y = where(watched, "linking observer")
    end = x + len("linking observer") - 1
    # SGR mouse reports (1-based): button 1 down, moved with it held, let go.
    for report in (f"<0;{x + 1};{y + 1}M", f"<32;{end + 1};{y + 1}M", f"<0;{end + 1};{y + 1}m"):
        tmux("send-keys", "-t", watched, "-l", f"\x1b[{report}")
    assert clipboard("linking observer") == "linking observer"


def test_tmux_style_keys_select_and_copy_while_watching(watched: str) -> None:
    # v: copy mode, at the agent's cursor (the row under the last line, column 0); up to the
    # last line, space anchors, right to the end of "build 8", y copies.
    tmux("send-keys", "-t", watched, "v")
    wait_for(watched, lambda s: "COPY" in status_line(s), "copy mode")  # its cursor is placed
    for key in ("Up", "Space", *["Right"] * (len("build 8") - 1), "y"):
        tmux("send-keys", "-t", watched, key)
    assert clipboard("build 8") == "build 8"


def test_copy_mode_says_on_the_status_line_that_it_is_on_until_escape(watched: str) -> None:
    tmux("send-keys", "-t", watched, "v")
    line = status_line(wait_for(watched, lambda s: "COPY" in status_line(s), "the COPY badge"))
    assert line.lstrip().startswith("WATCH  COPY") and "esc leaves" in line, line
    tmux("send-keys", "-t", watched, "Escape")
    wait_for(watched, lambda s: "COPY" not in status_line(s), "the badge gone after escape")
