"""The newcomer's path, end to end, as a user walks it in a terminal.

``observer serve`` on 127.0.0.1 with three agents, ``observer auth login`` with the token piped
in, then in a shell in tmux: ``observer watch`` one session, a dashboard of three profiles added
with ``observer config add``, ``observer record`` one session, ``observer replay`` the recording
and ``observer export`` its transcript. Each step is the real CLI in a process of its own, with a
home, config dir and keyring of its own (``tests/shells/recipe.py``); each asserts what the user
sees: the agent's words on the screen or in the output, and the command's exit status.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.shells.recipe import PROMPT, Terminal, observer, served, terminal

pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux installed"),
    pytest.mark.timeout(120),
]
SAID = "agent: reading the failing test"
AGENT = f"echo '{SAID}'; exec sleep 600"
AGENTS = ("alpha", "beta", "gamma")
ENDED = "it ended with status "
STATUS = re.compile(rf"^{ENDED}(\d+)$", re.M)


def run(shell: Terminal, command: str) -> None:
    """Type ``command`` at the prompt; once it ends, the shell says its status."""
    shell.type(f'{command}; echo "{ENDED}$?"')


def ended(shell: Terminal, what: str) -> None:
    """Wait for the command typed by :func:`run` to end, and for the prompt; it exited with 0."""
    screen = shell.wait(
        lambda s: bool(STATUS.search(s)) and s.rstrip().endswith(PROMPT.strip()),
        f"{what} to end and the prompt to come back",
    )
    status = STATUS.search(screen)
    assert status is not None and status.group(1) == "0", screen


def test_serve_login_watch_dashboard_record_replay_export(tmp_path: Path) -> None:
    with served(tmp_path, *AGENTS, agent=AGENT) as (url, token), terminal(tmp_path) as shell:
        login = observer(tmp_path, "auth", "login", url, "--token-stdin", stdin=token + "\n")
        assert login.returncode == 0, login.stderr

        run(shell, f"observer watch {url} -i alpha")
        shell.wait(lambda s: SAID in s, "the agent's words in the watch view")
        shell.press("C-q")
        ended(shell, "observer watch")

        for name in AGENTS:
            added = observer(tmp_path, "config", "add", name, url, "-i", name)
            assert added.returncode == 0, added.stderr
        shell.type("clear")
        run(shell, "observer watch " + " ".join(AGENTS))
        tiles = shell.wait(lambda s: s.count(SAID) == 3, "three tiles showing their agent")
        assert all(name in tiles for name in AGENTS), tiles
        shell.press("q")
        ended(shell, "the dashboard")

        cast = tmp_path / "alpha.cast"
        recorded = observer(
            tmp_path, "record", url, "-i", "alpha", "-o", str(cast), "--duration", "2"
        )
        assert recorded.returncode == 0, recorded.stderr
        assert token not in cast.read_text(encoding="utf-8")

        shell.type("clear")
        run(shell, f"observer replay {cast}")
        shell.wait(lambda s: SAID in s, "the agent's words in the replay")
        shell.press("q")
        ended(shell, "observer replay")

        exported = observer(tmp_path, "export", str(cast))
        assert exported.returncode == 0, exported.stderr
        assert SAID in exported.stdout, exported.stdout
