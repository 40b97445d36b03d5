"""Helpers for the app's Pilot tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

import pytest
from textual.timer import Timer
from textual.widget import Widget

from observer.app import textual_patches
from observer.app.links import ConnectionChanged, ScriptedLink, Step
from observer.client.watched import WatchedSession
from observer.protocol.events import OutputReceived, SessionStarted
from tests.waiting import until

if TYPE_CHECKING:
    from observer.app.app import ObserverApp
    from observer.app.widgets.fleet_grid import FleetGrid


def greeting(
    identifier: str = "agent-1", cols: int = 60, rows: int = 12
) -> list[tuple[float, Step]]:
    return [
        (0.0, ConnectionChanged("connected")),
        (0.0, SessionStarted(identifier, "watch", cols, rows, 0, "none", 1, "")),
    ]


def scripted(
    output: Sequence[bytes] = (),
    identifier: str = "agent-1",
    cols: int = 60,
    rows: int = 12,
    **session: object,
) -> ScriptedLink:
    steps = greeting(identifier, cols, rows)
    offset = 0
    for chunk in output:
        steps.append((0.0, OutputReceived(chunk, offset)))
        offset += len(chunk)
    return ScriptedLink(
        WatchedSession(identifier=identifier, **session),  # type: ignore[arg-type]
        steps,
        label=f"ws://127.0.0.1:9/ · {identifier}",
    )


async def played(link: ScriptedLink) -> None:
    """Wait until ``link`` has played every step: connected, the hello, the output."""
    await until(link.drained.is_set, "the scripted session's steps")


def parsed(link: ScriptedLink) -> bool:
    """Whether ``link`` has played every step and its session parsed them all (the feeder hands
    on a session's events before it finds nothing pending)."""
    return link.drained.is_set() and not link.session.pending


def all_drawn(grid: FleetGrid) -> bool:
    """Whether every change the dashboard's grid was told of is drawn: no tile waits for a
    frame."""
    return grid._timer is None and not grid._changed


def laid_out(app: ObserverApp) -> bool:
    """Whether Textual has no layout or repaint pending on any screen: what was refreshed is
    drawn (Textual draws on a timer of its own, after the widgets' refreshes)."""
    if app.screen._layout_required:  # (a screen beneath keeps its flag until it is in front)
        return False
    return not any(
        screen._dirty_widgets or screen._compositor._dirty_regions for screen in app.screen_stack
    )


async def settled(app: ObserverApp) -> None:
    """Wait until every scripted session of ``app`` is played and parsed and, on a dashboard,
    drawn: no tile waits for a frame."""
    from observer.app.screens.dashboard import DashboardScreen

    def done() -> bool:
        links = [link for link in app.links if isinstance(link, ScriptedLink)]
        if not all(parsed(link) for link in links):
            return False
        screen = app.screen
        return not isinstance(screen, DashboardScreen) or all_drawn(screen.grid)

    await until(done, "the sessions parsed and drawn")


@pytest.fixture(autouse=True)
def textual_as_it_is() -> Iterator[None]:
    """Textual unpatched for each test (a test that runs a command in-process, as
    ``main(["watch", ...])``, installs the patches as the command does)."""
    if textual_patches.installed():
        textual_patches.uninstall()
    yield
    if textual_patches.installed():
        textual_patches.uninstall()


@pytest.fixture
def textual_patched() -> Iterator[None]:
    """Textual patched as the command that starts the app patches it, then as it was."""
    textual_patches.install({})
    try:
        yield
    finally:
        textual_patches.uninstall()


def tile_lines(screen: object, index: int, *, border: bool = False) -> list[str]:
    """What the dashboard shows of tile ``index``, line by line, inside its border: its title
    line, then its terminal's rows (``screen`` is a ``DashboardScreen``); with ``border``, the
    border's lines and columns too."""
    from observer.app.screens.dashboard import DashboardScreen

    assert isinstance(screen, DashboardScreen)
    grid = screen.grid
    x, y, width, height = grid.tile_region(index).translate(-grid.content_region.offset)
    edge = 0 if border else 1
    return [
        grid.render_line(row).text[x + edge : x + width - edge]
        for row in range(y + edge, y + height - edge)
    ]


def tile_offset(screen: object, index: int) -> tuple[int, int]:
    """A cell of tile ``index`` in the dashboard's grid (where a click lands on it)."""
    from observer.app.screens.dashboard import DashboardScreen

    assert isinstance(screen, DashboardScreen)
    region = screen.grid.tile_region(index).translate(-screen.grid.content_region.offset)
    return region.x + 2, region.y + 3


def tile_title(screen: object, index: int) -> str:
    """The title line tile ``index`` shows (cut to its width)."""
    return tile_lines(screen, index)[0]


def tile_text(screen: object, index: int) -> str:
    """The rows of its agent's screen tile ``index`` shows."""
    return "\n".join(tile_lines(screen, index)[1:])


def timer_delays(widget: Widget) -> list[float]:
    """The delay of every timer ``widget`` sets from now on (a list that grows)."""
    delays: list[float] = []
    set_timer = widget.set_timer

    def timed(delay: float, callback: Callable[[], None]) -> Timer:
        delays.append(delay)
        return set_timer(delay, callback)

    widget.set_timer = timed  # type: ignore[method-assign, assignment]
    return delays
