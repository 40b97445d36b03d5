"""The watch view's rewind keys, in the app: markers, search, and control only from live."""

from __future__ import annotations

from observer.app.app import ObserverApp
from observer.app.screens.confirm import ConfirmScreen
from observer.app.screens.watch import WatchScreen
from observer.app.widgets.status_bar import StatusBar
from observer.app.widgets.terminal_view import TerminalView
from observer.protocol.events import OutputReceived
from tests.app.conftest import scripted, settled
from tests.app.test_back_at_desk import Clock
from tests.app.test_fleet_attention import PERMISSION, until


def frame(n: int) -> bytes:
    return b"\x1b[H\x1b[2JCOUNTER %03d" % n


def shown(app: ObserverApp) -> str:
    """The first row of what the view draws (live, or the rewound moment)."""
    return app.screen.query_one(TerminalView).session.model.text()[0]


def status(app: ObserverApp) -> str:
    return app.screen.query_one(StatusBar).render().plain


async def counted(app: ObserverApp, clock: Clock, frames: range, offset: int = 0) -> int:
    """The agent draws ``frames`` one a second of the app's clock; the next stream offset."""
    link = app.links[0]
    for n in frames:
        clock.now += 1.0
        data = frame(n) if n != 12 else frame(n) + PERMISSION
        link.push(OutputReceived(data, offset))  # type: ignore[attr-defined]
        offset += len(data)
        await until(lambda n=n: f"COUNTER {n:03d}" in shown(app), f"counter {n}")
        app.check_agents()  # what happened becomes a marker, as the app's timer does
    return offset


async def test_markers_search_and_take_control_from_live_only() -> None:
    clock = Clock()
    app = ObserverApp([scripted(identifier="a")], clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(app)  # the agent's frames come after the hello
        assert isinstance(app.screen, WatchScreen)
        await counted(app, clock, range(30))
        await pilot.press("left_square_bracket")  # the notification at 12
        await until(lambda: "COUNTER 012" in shown(app), "the notification's moment")
        assert "REWIND" in status(app)
        await pilot.press("slash")
        await pilot.press(*"COUNTER", "space", *"005", "enter")
        await until(lambda: "COUNTER 005" in shown(app), "the search's moment")
        await pilot.press("right")
        await until(lambda: "COUNTER 010" in shown(app), "5 s later")
        await pilot.press("ctrl+t")  # control is never taken while rewound: live first
        await until(lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
        await pilot.press("escape")
        await until(lambda: "COUNTER 029" in shown(app), "live")
        assert "REWIND" not in status(app)
        await pilot.press("left")
        await until(lambda: "COUNTER 024" in shown(app), "5 s back")
        await pilot.press("end")
        await until(lambda: "COUNTER 029" in shown(app), "live again")
        await pilot.press("left")
        await until(lambda: "REWIND" in status(app), "rewound")
        await pilot.press("ctrl+x")  # an interrupt too is asked from live
        await until(lambda: isinstance(app.screen, ConfirmScreen), "the interrupt's confirmation")
        await pilot.press("escape")
        await until(lambda: "REWIND" not in status(app), "live before the interrupt")
