"""SIGTERM (``kill``) and SIGHUP (a closed terminal window) end the app as ctrl+q does: the
terminal restored, the live-rewind history deleted, the exit status a shell reports for the
signal. And histories left by an app that could not clean up (``kill -9``) are deleted by the
next app that starts."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from observer.app.rewind import OWNER, PREFIX, sweep_orphans
from tests.app.tmux_driver import demo_session, tmux, wait_for
from tests.waiting import until_blocking

ENDED = "APP ENDED WITH"


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """``observer demo`` in tmux, its temporary directory ``tmp_path / "tmp"``; the shell prints
    :data:`ENDED` and the status once it ends."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    settings = f"TMPDIR={temporary} OBSERVER_CONFIG_DIR={tmp_path}"
    with demo_session("observer-signals", 100, 30, settings, f"echo {ENDED} $?") as name:
        yield name, temporary


def _app_pid(name: str) -> int:
    """The app's process: the child of the pane's shell."""
    shell = int(tmux("display-message", "-p", "-t", name, "#{pane_pid}").strip())
    children = Path(f"/proc/{shell}/task/{shell}/children").read_text().split()
    assert len(children) == 1, children
    return int(children[0])


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux installed")
@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_ends_the_app_cleanly(demo: tuple[str, Path], number: int) -> None:
    name, temporary = demo
    wait_for(name, lambda s: "demo agent" in s, "the watch view")
    (history,) = until_blocking(
        lambda: list(temporary.glob(PREFIX + "*")), "the history folder", 20, poll=0.1
    )
    os.kill(_app_pid(name), number)
    screen = wait_for(name, lambda s: ENDED in s, "the app to end")
    assert f"{ENDED} {128 + number}" in screen
    if number == signal.SIGTERM:  # after SIGHUP (a hang-up) the terminal is taken to be gone
        assert "demo agent" not in screen  # the alternate screen left: the shell's is back
    assert not history.exists()


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux installed")
def test_a_closed_terminal_ends_the_app(demo: tuple[str, Path]) -> None:
    """The terminal window closed: SIGHUP, and nothing reads what the app writes any more."""
    name, temporary = demo
    wait_for(name, lambda s: "demo agent" in s, "the watch view")
    (history,) = until_blocking(
        lambda: list(temporary.glob(PREFIX + "*")), "the history folder", 20, poll=0.1
    )
    app = _app_pid(name)
    subprocess.run(["tmux", "kill-session", "-t", name], check=True, timeout=10)
    until_blocking(lambda: not _running(app), "the app to end", 30, poll=0.1)
    assert not history.exists()


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_histories_of_apps_gone_are_swept_and_the_others_kept(tmp_path: Path) -> None:
    ended = subprocess.Popen(["true"])
    ended.wait()  # a process number that no longer runs
    orphan, alive, unknown = (tmp_path / f"{PREFIX}{n}" for n in ("orphan", "alive", "unknown"))
    for folder, owner in ((orphan, ended.pid), (alive, os.getpid()), (unknown, None)):
        (folder / "0").mkdir(parents=True)
        if owner is not None:
            (folder / OWNER).write_text(str(owner))
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / OWNER).write_text(str(ended.pid))

    assert sweep_orphans(tmp_path) == 1
    assert not orphan.exists()
    assert alive.exists() and unknown.exists() and (tmp_path / "elsewhere").exists()
