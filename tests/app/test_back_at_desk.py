"""Back at the desk: coming back to the app, or opening a tile, says what happened meanwhile."""

from __future__ import annotations

from textual import events

from observer.app.app import ObserverApp
from observer.app.screens.dashboard import DashboardScreen
from observer.app.screens.watch import WatchScreen
from observer.protocol.events import ControlChanged, OutputReceived
from tests.app.conftest import scripted, settled
from tests.app.test_fleet_attention import PERMISSION, until


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def said(app: ObserverApp) -> list[str]:
    return [str(notice.message) for notice in app._notifications]


async def test_coming_back_to_the_app_says_what_happened_and_that_left_shows_it() -> None:
    clock = Clock()
    link = scripted([b"working"], identifier="a")
    app = ObserverApp([link], clock=clock)
    async with app.run_test(size=(100, 30)):
        await settled(app)  # the notification comes after the hello
        app.post_message(events.AppBlur())
        await until(lambda: app.back_at_desk._blurred == 1000.0, "the blur, noted at 1000")
        clock.now += 125.0
        link.push(OutputReceived(PERMISSION, 7))
        await until(lambda: app.links[0].session.status(clock.now).attention is not None, "it")
        link.push(ControlChanged("other"))
        await until(lambda: app.links[0].session.status(clock.now).holder == "other", "held")
        app.check_agents()
        app.post_message(events.AppFocus())
        await until(lambda: any("While you were away" in text for text in said(app)), "the line")
        line = next(text for text in said(app) if "While you were away" in text)
        assert "Away 2m05s: 1 notification (last: needs permission: Claude needs your" in line
        assert "another client took the keyboard" in line and line.endswith("← shows it.")


async def test_a_glance_away_says_nothing() -> None:
    clock = Clock()
    app = ObserverApp([scripted([b"working"], identifier="a")], clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause(0.2)
        app.post_message(events.AppBlur())
        clock.now += 5.0
        app.post_message(events.AppFocus())
        await pilot.pause(0.2)  # time for a line that must not come
        assert not any("While you were away" in text for text in said(app))


async def test_opening_a_tile_says_what_happened_since_it_was_last_looked_at() -> None:
    clock = Clock()
    links = [scripted([b"working"], identifier=f"a{n}") for n in range(2)]
    app = ObserverApp(links, clock=clock)
    async with app.run_test(size=(120, 36)) as pilot:
        await settled(app)  # the notification comes after the hello
        assert isinstance(app.screen, DashboardScreen)
        clock.now += 600.0
        links[0].push(OutputReceived(PERMISSION, 7))
        await until(lambda: app.links[0].session.status(clock.now).attention is not None, "it")
        app.check_agents()
        await pilot.press("enter")
        await until(lambda: isinstance(app.screen, WatchScreen), "the opened tile")
        await until(lambda: any("Away 10m00s" in text for text in said(app)), "the line")
