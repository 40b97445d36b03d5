"""Where notifications appear: on one line at the bottom right, never over a tile.

The dashboard's grid of tiles takes every row but its key line, so a notification lies on that
line; on the watch screen it lies just above the status line, inside the frame when there is one,
and in the replay view inside the frame, above the timeline.
Only the newest shows; nothing but the toast itself covers any cell (the rack that holds it
paints nothing). The agents' own notifications (OSC 9, as Claude Code sends them) reach the
app's toasts through the real model and session core.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._toast import Toast

from observer.app.app import ObserverApp
from observer.app.replay_app import replay_app
from observer.app.screens.confirm import ConfirmScreen
from observer.app.screens.replay import ReplayScreen
from observer.app.widgets.status_bar import StatusBar
from observer.app.widgets.terminal_view import TerminalView
from observer.app.widgets.timeline import TimelineBar
from tests.app.conftest import laid_out, played, scripted, settled
from tests.app.test_replay import FrozenClock, counting, write_cast
from tests.waiting import until

ASKS = b"\x1b]9;Claude needs your permission to use Bash\x07"


def shown_toasts(app: ObserverApp) -> list[tuple[Region, str]]:
    """The toasts on the screen and their text (the older ones wait, undrawn, behind the newest)."""
    toasts = app.screen.query(Toast)
    return [(toast.region, str(toast.render())) for toast in toasts if toast.region.area]


async def toast_shown(app: ObserverApp, text: str) -> Region:
    """Wait until the one toast drawn is the one saying ``text``; its region."""
    await until(lambda: [t for _, t in shown_toasts(app)] == [text], f"the toast {text!r}")
    return shown_toasts(app)[0][0]


def painted_row(app: ObserverApp, y: int) -> list[Widget]:
    """The widget drawn at each cell of row ``y``."""
    return [app.screen.get_widget_at(x, y)[0] for x in range(app.screen.size.width)]


@pytest.mark.parametrize("size", [(200, 60), (80, 24)])
async def test_dashboard_notifications_lie_on_the_key_line_and_cover_no_tile(
    size: tuple[int, int],
) -> None:
    app = ObserverApp([scripted([b"$ ", ASKS], identifier=f"agent-{n}") for n in range(4)])
    async with app.run_test(size=size, notifications=True):
        await settled(app)  # each agent's notification parsed
        app.check_agents()  # each agent's notification becomes a toast
        app.notify("a long second line\nthat must not open a row", title="Theme not loaded")
        await toast_shown(app, "Theme not loaded: a long second line that must not open a row")
        await until(lambda: laid_out(app), "the toast laid out and drawn")
        ((region, text),) = shown_toasts(app)  # the newest in front, the four older behind it
        assert text == "Theme not loaded: a long second line that must not open a row"
        footer = app.screen.query_one(Footer)
        assert region.height == 1 and region.y == footer.region.y and region.right == size[0]
        grid = app.screen.grid
        for index in range(4):
            tile = grid.tile_region(index)
            assert not region.overlaps(tile), (region, tile)
        row = painted_row(app, region.y)
        assert all(isinstance(w, Toast) for w in row[region.x :])
        assert all(w is footer or footer in w.ancestors for w in row[: region.x])
        assert region.x >= len(" ⏎ Open  n Next needing you  r Reply ")


async def test_watch_notifications_take_one_row_above_the_status_line_inside_the_frame() -> None:
    app = ObserverApp([scripted([b"$ "], cols=60, rows=12)])
    async with app.run_test(size=(80, 20), notifications=True) as pilot:
        await until(lambda: app.screen.has_class("-framed"), "the frame")
        app.notify("one", title="First")
        app.notify("two\nlines", title="Second")
        view = app.screen.query_one(TerminalView)
        # The newest in front, the older one behind it.
        region = await toast_shown(app, "Second: two lines")
        assert region.height == 1
        assert view.content_region.contains_region(region)
        assert region.bottom == view.content_region.bottom
        row = painted_row(app, region.y)
        assert row[0] is row[-1] is view.parent  # the frame's edges on the toast's row
        assert all(w is view for w in row[1 : region.x])
        await pilot.press("f")  # full window: the row above the status line
        await until(lambda: not app.screen.has_class("-framed"), "the full window")
        await pilot.pause()
        ((region, _),) = shown_toasts(app)
        status = app.screen.query_one(StatusBar).region
        assert region.bottom == status.y and region.right == 80


async def test_under_a_dialog_notifications_take_one_row_at_the_bottom_and_only_once() -> None:
    app = ObserverApp([scripted([b"$ "], cols=60, rows=12)])
    async with app.run_test(size=(80, 20), notifications=True) as pilot:
        await played(app.links[0])  # type: ignore[arg-type]
        app.notify("before the dialog")
        await toast_shown(app, "before the dialog")
        await pilot.press("ctrl+t")  # "Take control of this agent?"
        await until(lambda: isinstance(app.screen, ConfirmScreen), "the dialog")
        app.notify("while you decide", title="Heads up")
        region = await toast_shown(app, "Heads up: while you decide")
        assert (region.height, region.bottom, region.right) == (1, 20, 80)
        beneath = app.screen_stack[-2].query(Toast)  # dimmed under the dialog: not shown twice
        assert [toast.styles.visibility for toast in beneath] == ["hidden"]


async def test_replay_notifications_take_one_row_inside_the_frame_above_the_timeline(
    tmp_path: Path,
) -> None:
    path = write_cast(tmp_path / "count.cast", counting(30))
    app = replay_app(path, autoplay=False, clock=FrozenClock())
    async with app.run_test(size=(60, 14), notifications=True) as pilot:
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        await until(lambda: replay.index.done, "the keyframe index")
        await pilot.press("]", "]", "]", "]")  # past the last marker: "No more markers that way."
        region = await toast_shown(app, "No more markers that way.")
        view = replay.query_one(TerminalView)
        assert view.content_region.contains_region(region)
        assert region.bottom == view.content_region.bottom
        assert painted_row(app, region.y)[-1] is view  # the frame's right edge
        timeline = replay.query_one(TimelineBar).region
        assert not region.overlaps(timeline)
