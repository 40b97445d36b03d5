"""Live rewind, end to end in tmux: ``←`` shows the agent's screen as it was while it runs on.

A real ``observer serve`` runs an agent that redraws a full-screen counter twice a second on the
alternate screen (and writes it to a file, so the test knows the live value); ``observer watch``
runs in a detached tmux session. After 20 s, two presses of ``←`` show a counter about 10 s
older, which stays while the agent keeps counting; the status line says ``REWIND``; ``end``
shows live again.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app.test_view_tmux import free_port, issue
from tests.app.tmux_driver import listening, status_line, tmux, wait_for

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux installed"),
    pytest.mark.timeout(240),
]
COUNTER = """
import os, sys, time
out, start = sys.argv[1], time.monotonic()
sys.stdout.write("\\x1b[?1049h\\x1b[?25l")
n = 0
while True:
    sys.stdout.write(f"\\x1b[H\\x1b[2JCOUNTER {n:05d}\\r\\n" + "".join(f"row {r} of {n}\\r\\n" for r in range(8)))
    sys.stdout.flush()
    with open(out + ".new", "w") as f:
        f.write(str(n))
    os.replace(out + ".new", out)
    n += 1
    time.sleep(max(0.0, start + n * 0.5 - time.monotonic()))
"""
SHOWN = re.compile(r"COUNTER (\d{5})")


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """``observer watch`` of the counter in tmux; its session name and the live counter file."""
    tokens, port, live = tmp_path / "tokens", free_port(), tmp_path / "live"
    token = issue("watch", tokens)
    serve = ["serve", "--tokens", str(tokens), "--listen", f"127.0.0.1:{port}", "--size", "60x16"]
    server = subprocess.Popen(
        [sys.executable, "-m", "observer", *serve, "--", sys.executable, "-c", COUNTER, str(live)],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "serve.log").open("wb"),
    )
    name = f"observer-rewind-{uuid.uuid4().hex[:8]}"
    try:
        listening(port, server)
        command = (
            f"cd {ROOT} && OBSERVER_CONFIG_DIR={tmp_path} OBSERVER_TOKEN={token}"
            f" {sys.executable} -m observer watch ws://127.0.0.1:{port}/ --identifier default;"
            " sleep 30"
        )
        env = {**os.environ, "TERM": "xterm-256color"}
        size = ["-x", "100", "-y", "24"]
        subprocess.run(["tmux", "new-session", "-d", "-s", name, *size, command], env=env, check=True, timeout=10)  # fmt: skip
        yield name, live
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True, timeout=10)
        server.terminate()
        server.wait(timeout=10)


def shown(screen: str) -> int | None:
    found = SHOWN.search(screen)
    return int(found[1]) if found else None


def live_count(live: Path) -> int:
    return int(live.read_text() or 0)


def test_two_presses_of_left_show_the_counter_ten_seconds_ago_while_it_counts_on(
    watched: tuple[str, Path],
) -> None:
    name, live = watched
    wait_for(name, lambda s: (shown(s) or 0) >= 40, "20 s of counting", timeout=120)
    before = live_count(live)  # the counter when the keys are pressed is between these
    tmux("send-keys", "-t", name, "Left")
    tmux("send-keys", "-t", name, "Left")
    wait_for(name, lambda s: "REWIND" in status_line(s), "the status line's REWIND")
    now = live_count(live)
    past = wait_for(name, lambda s: (shown(s) or now) <= now - 16, "a counter about 10 s older")
    older = shown(past)
    # 10 s at two a second, give or take a count either side (the events' 0.1 s, the frame).
    assert older is not None and before - 22 <= older <= now - 18, (before, older, now)
    assert "REWIND \u22120:1" in status_line(past)  # −0:10 or thereabouts
    # The agent counts on; the rewound view stays where it was.
    wait_for(name, lambda s: live_count(live) >= now + 4, "the agent counting on", timeout=30)
    assert shown(tmux("capture-pane", "-t", name, "-p")) == older
    tmux("send-keys", "-t", name, "End")
    back = wait_for(name, lambda s: "REWIND" not in status_line(s), "live again")
    wait_for(name, lambda s: (shown(s) or 0) >= live_count(live) - 2, "the live counter")
    assert status_line(back).lstrip().startswith("WATCH")
