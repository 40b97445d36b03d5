"""Running observer on hostile input: the real command in a subprocess, the replay app headless
with every byte it writes for the host terminal kept (:class:`tests.hostile.live.CapturingDriver`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from textual.pilot import Pilot

from observer.app.replay_app import ReplayApp, replay_app
from observer.app.screens.replay import ReplayScreen
from tests.hostile.live import CapturingDriver, until


def observer_stdout(*argv: str) -> str:
    """``observer ARGV``'s standard output, checking that it succeeded."""
    result = subprocess.run(
        [sys.executable, "-m", "observer", *argv],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def capturing_replay(path: Path) -> ReplayApp:
    """``observer replay PATH --paused`` whose host output lands in ``CapturingDriver.written``."""
    CapturingDriver.written = []
    app = replay_app(path, autoplay=False)
    app.driver_class = CapturingDriver
    return app


async def indexed(pilot: Pilot[int], timeout: float = 90.0) -> ReplayScreen:
    """The replay screen, once its keyframe index is complete."""
    replay = pilot.app.screen
    assert isinstance(replay, ReplayScreen)
    await until(lambda: replay.index.done, "the keyframe index", timeout=timeout)
    return replay
