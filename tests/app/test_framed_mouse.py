"""In the framed view (watching a remote smaller than the window) the mouse finds the cell under it.

The frame takes a row and a column before the first cell: a click or a drag at a cell on the
screen acts on that cell, not on the one below and to the right of it.
"""

from __future__ import annotations

from observer.app.app import ObserverApp
from observer.app.screens.confirm import ConfirmScreen
from observer.app.widgets.terminal_view import TerminalView
from tests.app.conftest import scripted
from tests.app.test_copy_and_links import drag, view_text
from tests.waiting import until

URL = "https://example.com/docs"


def app_framed() -> ObserverApp:
    rows = [b"first line", b"see " + URL.encode() + b" here", b"x" * 60]
    return ObserverApp([scripted([b"\r\n".join(rows)], cols=60, rows=12)])


async def shown_in(app: ObserverApp, text: str) -> None:
    """Wait until the watch screen's view shows ``text``."""
    await until(lambda: text in view_text(app), f"{text!r} on screen")


def offset_of(view: TerminalView, text: str) -> tuple[int, int]:
    """Where ``text`` is on the screen, as an offset in the view (its frame included)."""
    for y in range(view.size.height):
        line = view.render_line(y).text
        if text in line:
            return line.index(text) + view.gutter.left, y + view.gutter.top
    raise AssertionError(f"{text!r} is not shown")


async def test_a_click_in_the_framed_view_opens_the_link_under_the_mouse() -> None:
    app = app_framed()
    async with app.run_test(size=(80, 20)) as pilot:
        await shown_in(app, URL)
        view = app.screen.query_one(TerminalView)
        assert app.screen.has_class("-framed")
        x, y = offset_of(view, URL)
        await pilot.click(TerminalView, offset=(x, y))  # its first character
        await until(lambda: isinstance(app.screen, ConfirmScreen), "the link's dialog")
        assert isinstance(app.screen, ConfirmScreen) and app.screen.detail == URL


async def test_a_drag_in_the_framed_view_copies_the_cells_under_the_mouse() -> None:
    app = app_framed()
    async with app.run_test(size=(80, 20)) as pilot:
        await shown_in(app, "first line")
        view = app.screen.query_one(TerminalView)
        x, y = offset_of(view, "first line")
        await drag(pilot, (x, y), (x + 4, y))
        assert app.clipboard == "first"
