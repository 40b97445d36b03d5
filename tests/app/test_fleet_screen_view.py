"""The dashboard over a real server on 127.0.0.1: tiles watch the screen's state; opening one
switches its session to the stream with its screen intact, going back switches it back.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from observer.app.app import ObserverApp
from observer.app.screens.dashboard import DashboardScreen
from observer.app.screens.watch import WatchScreen
from observer.app.widgets.terminal_view import TerminalView
from observer.server import Server
from observer.transport.connection import Connection
from tests.app.conftest import tile_text, timer_delays
from tests.client_support import serving

pytestmark = pytest.mark.timeout(60)
TICKER = (
    "import sys, time\nfor n in range(10**6):\n    print(f'tick {n}', flush=True); time.sleep(0.05)"
)


@pytest.fixture
async def fleet() -> AsyncIterator[tuple[Server, list[Connection]]]:
    async with serving(TICKER, ("a", "b")) as running:
        yield running


async def until(condition: object, what: str, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():  # type: ignore[operator]
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


def viewers(server: Server, identifier: str) -> int:
    return sum(c.screen is not None for c in server.sessions[identifier].clients)


def shown(app: ObserverApp) -> str:
    """The first tile's terminal on the dashboard, or the opened session's view."""
    if isinstance(app.screen, DashboardScreen):
        return tile_text(app.screen, 0)
    view = app.screen.query(TerminalView).first()
    return "\n".join(view.render_line(y).text for y in range(view.size.height))


async def test_opening_a_tile_streams_it_and_going_back_watches_the_screen_again(
    fleet: tuple[Server, list[Connection]],
) -> None:
    server, links = fleet
    app = ObserverApp(links)
    async with app.run_test(size=(120, 30)) as pilot:
        await until(
            lambda: all(viewers(server, name) == 1 for name in ("a", "b")), "both tiles' views"
        )
        assert [link.session.view for link in links] == ["screen", "screen"]
        # The tile draws its frames as they come; its model takes the first (a whole screen)
        # when the feeder gets to it.
        session = links[0].session
        await until(lambda: "tick" in shown(app) and not session.pending, "the tile's screen")
        await pilot.press("enter")
        assert isinstance(app.screen, WatchScreen)
        assert links[0].session.view == "stream"
        assert "tick" in shown(app)  # the tile's screen, until the snapshot replaces it
        await until(lambda: viewers(server, "a") == 0, "the opened session's stream")
        await until(lambda: links[0].session.snapshots >= 2, "the snapshot after the frames")
        assert links[0].session.status(app.clock()).gaps == 0
        assert links[1].session.view == "screen"
        await pilot.press("escape")
        assert isinstance(app.screen, DashboardScreen)
        await until(lambda: viewers(server, "a") == 1, "the tile's screen view again")
        assert links[0].session.view == "screen"


async def test_a_tile_in_the_screen_view_draws_each_frame_as_it_comes(
    fleet: tuple[Server, list[Connection]],
) -> None:
    """The server paces the frames: a tile that held them to its own frame interval too drew a
    frame that came a little early most of a frame late (50 ms at the median with 40 tiles).
    The grid draws each within one of its own frames, a fraction of a tile's interval."""
    from observer.app.widgets.fleet_grid import FRAME
    from observer.client.tile_view import TILE_FPS

    _server, links = fleet
    app = ObserverApp(links)
    async with app.run_test(size=(120, 30)) as pilot:
        await until(lambda: all(link.session.view == "screen" for link in links), "screen views")
        await until(lambda: "tick" in shown(app), "the tile's screen")
        # (each tile's first frame comes in its own time: one tile may show it before another
        # has one)
        await until(lambda: all(link.session.paced for link in links), "every tile's frames")
        grid = app.screen.grid
        delays = timer_delays(grid)
        frames = grid.frames
        await until(lambda: grid.frames >= frames + 5, "five frames")
        assert all(delay <= FRAME + 1e-9 for delay in delays) and FRAME < 1 / TILE_FPS
        await pilot.press("enter")  # the full view streams; its own pacing is the view's
        await pilot.press("escape")
        await until(lambda: links[0].session.view == "screen", "the screen view again")
        assert links[0].session.paced


TOP_ROW = (
    "import sys, time\n"
    "sys.stdout.write(''.join(f'line {n}\\r\\n' for n in range(23)) + 'bottom')\n"
    "for n in range(20):\n"
    "    sys.stdout.write(f'\\x1b7\\x1b[1;1H\\x1b[Ktop {n}\\x1b8'); sys.stdout.flush()\n"
    "    time.sleep(0.05)\n"
    "time.sleep(3600)"
)


async def test_a_tile_draws_the_rows_it_shows_from_the_frames_and_the_rest_when_it_grows() -> None:
    async with serving(TOP_ROW, ("a", "b"), size=(60, 24)) as (server, links):
        app = ObserverApp(links)
        session = links[0].session
        async with app.run_test(size=(60, 12)) as pilot:
            await until(lambda: "bottom" in shown(app), "the tile's crop at the cursor")
            agent = server.sessions["a"].model
            await until(lambda: agent.text()[0] == "top 19", "the top row's last rewrite")
            await pilot.pause(0.5)  # every frame came: the agent is quiet now
            # The top row changed 20 times; the tile's crop never showed it, and its model
            # was never fed it: the tile draws what it shows from the frames.
            assert session.model.text()[0] != "top 19"  # as the first frame had it
            assert "top" not in shown(app)
            await pilot.resize_terminal(60, 40)  # the tile now shows every row: no frame comes
            await until(lambda: "top 19" in shown(app), "the top row in the grown tile")
            assert app.screen.tiles[0].height >= 24  # type: ignore[attr-defined]
            await pilot.press("enter")  # opened: the full view reads the model, whole
            await until(lambda: session.model.text()[0] == "top 19", "the top row in the model")
