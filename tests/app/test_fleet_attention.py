"""An agent's own notification on its tile and status bar, told once, on the desktop if asked."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from observer.app.app import ObserverApp
from observer.app.desktop import notification_sequence
from observer.app.links import ScriptedLink
from observer.app.screens.dashboard import DashboardScreen
from observer.app.screens.reply import ReplyScreen
from observer.app.widgets.fleet_grid import FleetGrid
from observer.app.widgets.status_bar import StatusBar
from observer.app.widgets.tile import Tile
from observer.client.watched import WatchedSession
from observer.credentials.store import Secret
from observer.protocol.events import OutputReceived
from observer.recording.castfiles import open_cast
from observer.transport.settings import ConnectionSettings
from tests.app.conftest import greeting, played, scripted, tile_lines, tile_offset
from tests.client_support import live_link
from tests.hostile.live import HostileAgent, hostile_agent, status

PERMISSION = b"\x1b]9;Claude needs your permission to use Bash\x07"
ITERM = {"TERM_PROGRAM": "iTerm.app", "TERM": "xterm-256color"}


async def until(condition: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


def title(tile: Tile) -> str:
    return tile.title.plain  # the whole line, before the cut


async def test_a_notification_gives_its_tile_a_badge_and_a_warning_border() -> None:
    links = [scripted([b"working"], identifier=f"a{n}") for n in range(3)]
    app = ObserverApp(links)
    async with app.run_test(size=(120, 36)) as pilot:
        for link in links:  # what is pushed comes after the hello
            await played(link)
        assert isinstance(app.screen, DashboardScreen)
        tile = app.screen.tiles[1]
        links[1].push(OutputReceived(PERMISSION, 7))
        await until(lambda: tile.attention, "the tile's attention border")
        await until(lambda: "┏" in tile_lines(app.screen, 1, border=True)[0], "the heavy border")
        assert "needs permission" in title(tile)
        assert "Claude needs your permission to use Bash" in title(tile)
        assert not app.screen.tiles[0].attention
        assert "╭" in tile_lines(app.screen, 0, border=True)[0]
        assert not app._notifications  # the tile says it: no toast over the dashboard
        # Looking at another agent full size, a toast says it.
        await pilot.click(FleetGrid, offset=tile_offset(app.screen, 0))
        await pilot.press("enter")
        await until(lambda: not isinstance(app.screen, DashboardScreen), "the full view")
        links[2].push(OutputReceived(PERMISSION, 7))
        await until(lambda: bool(app._notifications), "the toast")
        assert any("needs permission" in n.message for n in app._notifications)


async def test_the_watch_views_status_bar_says_what_the_agent_needs() -> None:
    link = scripted([b"working"])
    app = ObserverApp([link])
    async with app.run_test(size=(120, 36)):
        await played(link)  # what is pushed comes after the hello
        link.push(OutputReceived(PERMISSION, 7))
        bar = app.screen.query_one(StatusBar)
        await until(lambda: "needs permission" in bar.render().plain, "the status bar")


@pytest.mark.parametrize("desktop", [False, True])
async def test_a_new_attention_is_told_once_and_reaches_the_desktop_only_when_asked(
    desktop: bool,
) -> None:
    link = scripted([b"working"])
    app = ObserverApp([link], desktop_notifications=desktop, environ=ITERM)
    written: list[str] = []
    app.alerts.host_write = written.append
    async with app.run_test(size=(120, 36)):
        await played(link)  # what is pushed comes after the hello
        link.push(OutputReceived(PERMISSION, 7))
        await until(lambda: bool(app._notifications), "the toast")
        app.check_agents()
        app.check_agents()
        toasts = [n for n in app._notifications if "needs permission" in n.message]
        assert len(toasts) == 1
        expected = [
            "\x1b]9;observer: the agent: needs permission: Claude needs your "
            "permission to use Bash\x07"
        ]
        assert written == (expected if desktop else [])


@pytest.fixture
async def agent(tmp_path: Path) -> AsyncIterator[HostileAgent]:
    """A real program in a real ``observer serve`` PTY that sends Claude Code's OSC 9."""
    async for running in hostile_agent(tmp_path, b"Do you want to proceed?\r\n" + PERMISSION):
        yield running


async def test_a_live_agents_notification_is_on_the_status_bar_and_in_the_recording(
    agent: HostileAgent, tmp_path: Path
) -> None:
    cast = tmp_path / "agent.cast"
    url = f"ws://127.0.0.1:{agent.server.port}/"
    settings = ConnectionSettings(url=url, identifier="agent", protocol="observer")
    app = ObserverApp([live_link(settings, Secret(agent.token), label=url, record=cast)])
    async with app.run_test(size=(100, 30)):
        await until(lambda: "connected" in status(app), "the connection")
        agent.start_payload()
        await until(lambda: "needs permission" in status(app), "the status bar")
    with open_cast(cast) as reader:
        markers = [event.data for event in reader if event.code == "m"]
    assert "notification: Claude needs your permission to use Bash" in markers


@pytest.mark.parametrize(
    ("environ", "starts"),
    [
        ({"TERM": "xterm-kitty"}, "\x1b]99;i=observer:"),
        ({"TERM_PROGRAM": "iTerm.app"}, "\x1b]9;observer"),
        ({"TERM_PROGRAM": "WezTerm"}, "\x1b]777;notify;observer"),
        ({"VTE_VERSION": "7600", "TERM": "xterm-256color"}, "\x1b]777;notify;observer"),
        ({"TERM_PROGRAM": "iTerm.app", "TMUX": "/tmp/tmux-1/default,1,0"}, "\a"),
        ({"TERM": "xterm-256color"}, "\a"),
    ],
)
def test_the_desktop_notification_uses_the_host_terminals_own_sequence(
    environ: dict[str, str], starts: str
) -> None:
    assert notification_sequence("observer: a1", "needs permission", environ).startswith(starts)


def fleet(count: int) -> tuple[ObserverApp, list[ScriptedLink], list[float]]:
    """A dashboard of scripted sessions on one hand-moved clock (``now[0]``)."""
    now = [100.0]
    links = [
        ScriptedLink(
            WatchedSession(identifier=f"a{n}"),
            greeting(f"a{n}"),
            label=f"a{n} · ws://127.0.0.1:9",
            clock=lambda: now[0],
        )
        for n in range(count)
    ]
    return ObserverApp(links, clock=lambda: now[0]), links, now


async def test_n_goes_to_the_agents_that_need_you_the_longest_waiting_first() -> None:
    app, links, now = fleet(4)
    async with app.run_test(size=(120, 36)) as pilot:
        for link in links:  # what is pushed comes after the hello
            await played(link)
        assert isinstance(app.screen, DashboardScreen)
        screen = app.screen
        links[2].push(OutputReceived(PERMISSION, 0))
        await until(lambda: screen.tiles[2].attention, "a2's attention, parsed at 100")
        now[0] = 105.0
        links[0].push(OutputReceived(PERMISSION, 0))
        await until(lambda: screen.tiles[0].attention, "a0's attention, parsed at 105")
        await pilot.press("right")  # tile 2 (a1), which needs nothing
        for expected in (2, 0, 2):
            await pilot.press("n")
            assert screen.focused_tile is screen.tiles[expected]


async def test_a_quick_reply_takes_the_keyboard_types_the_line_and_hands_it_back() -> None:
    app, links, _ = fleet(2)
    async with app.run_test(size=(120, 36)) as pilot:
        for link in links:  # what is pushed comes after the hello
            await played(link)
        links[1].push(OutputReceived(PERMISSION, 0))
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        await until(lambda: screen.tiles[1].attention, "a1's attention")  # else n stays put
        await pilot.press("n", "r")
        await until(lambda: isinstance(app.screen, ReplyScreen), "the reply box")
        await pilot.press("y", "e", "s", "enter")  # the reply: its enter is the one confirmation
        await until(lambda: links[1].requests[-1:] == ["release"], "the keyboard handed back")
        assert links[1].sent == [b"yes\r"] and links[1].requests == ["take", "release"]
        assert not links[1].session.in_control and links[0].sent == []


async def test_a_quick_key_is_sent_without_enter_and_escape_sends_nothing() -> None:
    app, links, _ = fleet(2)
    async with app.run_test(size=(120, 36)) as pilot:
        for link in links:  # what is pushed comes after the hello
            await played(link)
        await pilot.press("r", "1", "escape")
        await pilot.pause(0.1)
        assert links[0].requests == []
        await pilot.press("r", "1", "ctrl+s")
        await until(lambda: links[0].sent == [b"1"], "the key at the agent")
