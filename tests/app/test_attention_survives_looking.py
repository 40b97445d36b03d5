"""Looking at an agent that waits does not answer it: opening its tile and going back keeps what
it asked, since when, and tells nobody again. A real server on 127.0.0.1 and a real PTY.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from observer.app.app import ObserverApp
from observer.app.screens.dashboard import DashboardScreen
from observer.app.screens.watch import WatchScreen
from observer.server import Server
from observer.transport.connection import Connection
from tests.app.test_fleet_screen_view import viewers
from tests.client_support import serving
from tests.waiting import until

pytestmark = pytest.mark.timeout(60)
ASKS = (
    "import os, sys, time\n"
    "print('working', flush=True)\n"
    # Once tiles watch: notifications from before one joined are not its.
    "while not os.path.exists({tiles_watch!r}): time.sleep(0.01)\n"
    "sys.stdout.write('Do you want to proceed? [n] "
    "\\x1b]9;Claude needs your permission to use Bash\\x07'); sys.stdout.flush()\n"
    "sys.stdin.readline()\n"
)


@pytest.fixture
async def asking(tmp_path: Path) -> AsyncIterator[tuple[Server, list[Connection], Path]]:
    # Two sessions: one alone would open its watch view, not a dashboard.
    tiles_watch = tmp_path / "tiles-watch"
    program = ASKS.format(tiles_watch=str(tiles_watch))
    async with serving(program, ("a", "b")) as (server, links):
        yield server, links, tiles_watch


async def test_opening_a_waiting_tile_and_going_back_keeps_its_attention_and_tells_once(
    asking: tuple[Server, list[Connection], Path],
) -> None:
    server, links, tiles_watch = asking
    toasts: list[str] = []
    app = ObserverApp(links)
    async with app.run_test(size=(120, 30)) as pilot:
        app.alerts.toast = toasts.append
        session = links[0].session
        await until(lambda: viewers(server, "a") == viewers(server, "b") == 1, "the tiles")
        tiles_watch.touch()
        await until(lambda: session.status(app.clock()).attention is not None, "the question")
        asked = session.status(app.clock()).attention
        assert asked is not None and asked.text == "Claude needs your permission to use Bash"
        await until(lambda: len(toasts) == 2, "one alert for each agent")
        await pilot.pause(2.5)  # silent at its question a while: that is the behaviour tested
        before = session.snapshots
        await pilot.press("enter")
        assert isinstance(app.screen, WatchScreen)
        await until(lambda: viewers(server, "a") == 0, "the opened session's stream")
        await until(lambda: session.snapshots > before, "the snapshot after the last frame")
        await pilot.pause(0.3)  # time for the attention to be lost, which must not happen
        assert session.status(app.clock()).attention == asked
        await pilot.press("escape")
        assert isinstance(app.screen, DashboardScreen)
        await until(lambda: viewers(server, "a") == 1, "the tile's screen view again")
        await pilot.pause(0.5)  # time for the attention to be lost, which must not happen
        assert session.status(app.clock()).attention == asked
        assert sorted(toasts)[0] == f"a: {asked}" and len(toasts) == 2
