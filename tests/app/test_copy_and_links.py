"""Copy and links in the watch screen: a drag copies to the host's clipboard (OSC 52), the palette
copies the screen or the scrollback, and a click on a web address asks before the injected opener
opens exactly that address.

The window is one row taller than the remote (60x12): the view has no frame, so a cell of the
view is the remote's cell at the same place.
"""

from __future__ import annotations

from typing import Any

from observer.app.app import ObserverApp
from observer.app.screens.confirm import ConfirmScreen
from observer.app.screens.watch import WatchScreen
from observer.app.widgets.terminal_view import TerminalView
from tests.app.conftest import scripted
from tests.app.test_palette import run_command
from tests.waiting import until

SIZE = (60, 13)


def app_with(*rows: bytes, history: int = 0) -> ObserverApp:
    """An app watching a 60x12 screen whose rows are ``rows`` (after ``history`` lines)."""
    lines = b"".join(b"old %d\r\n" % n for n in range(history)) + b"\r\n".join(rows)
    return ObserverApp([scripted([lines], cols=60, rows=12)])


def watch_screen(app: ObserverApp) -> WatchScreen:
    assert isinstance(app.screen, WatchScreen)
    return app.screen


def view_text(app: ObserverApp) -> str:
    if not isinstance(app.screen, WatchScreen):
        return ""
    view = app.screen.query_one(TerminalView)
    return "\n".join(view.render_line(y).text for y in range(view.size.height))


async def showing(app: ObserverApp, text: str) -> None:
    """Wait until the view shows ``text``."""
    await until(lambda: text in view_text(app), f"{text!r} on screen")


async def drag(pilot: Any, start: tuple[int, int], end: tuple[int, int]) -> None:
    await pilot.mouse_down(TerminalView, offset=start)
    await pilot.hover(TerminalView, offset=end)
    await pilot.mouse_up(TerminalView, offset=end)
    await pilot.pause()


async def test_a_drag_selects_from_cell_to_cell_and_copies_the_text_at_once() -> None:
    app = app_with(b"first line here", b"second line", b"third")
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await showing(app, "third")
        await drag(pilot, (6, 0), (5, 2))
        assert app.clipboard == "line here\nsecond line\nthird"
        assert any("Copied 27 characters" in n.message for n in app._notifications)
        view = app.screen.query_one(TerminalView)
        assert view.selection is not None  # still shown until the next click


async def test_ctrl_c_while_watching_copies_the_selection_again_and_a_click_clears_it() -> None:
    app = app_with(b"alpha beta")
    async with app.run_test(size=SIZE) as pilot:
        await showing(app, "alpha beta")
        await drag(pilot, (6, 0), (9, 0))
        app.copy_to_clipboard("something else")
        await pilot.press("ctrl+c")
        assert app.clipboard == "beta"
        await pilot.click(TerminalView, offset=(1, 5))
        await until(lambda: app.screen.query_one(TerminalView).selection is None, "no selection")
        app.copy_to_clipboard("kept")
        await pilot.press("ctrl+c")  # nothing selected: nothing copied
        assert app.clipboard == "kept"


async def test_in_control_a_drag_copies_and_ctrl_c_still_goes_to_the_agent() -> None:
    app = app_with(b"$ make test")
    async with app.run_test(size=SIZE) as pilot:
        await showing(app, "$ make test")
        await watch_screen(app).run_action("take_control")
        await pilot.press("y")
        await until(lambda: watch_screen(app).control, "control")
        await drag(pilot, (2, 0), (10, 0))
        assert app.clipboard == "make test"
        await pilot.press("ctrl+c")
        link = app.links[0]
        await until(lambda: getattr(link, "sent", None), "the key at the session")
        assert getattr(link, "sent", None) == [b"\x03"]


async def test_the_palette_copies_the_screen_or_the_scrollback_as_text() -> None:
    app = app_with(b"on screen", b"\x1b[31mred\x1b[0m too", history=15)
    async with app.run_test(size=SIZE) as pilot:
        await showing(app, "red too")
        await run_command(pilot, "Copy the screen")
        screen = app.clipboard
        await run_command(pilot, "Copy the scrollback")
        assert screen.endswith("on screen\nred too") and "old 2\n" not in screen
        assert app.clipboard.startswith("old 0\nold 1\n") and app.clipboard.endswith("red too")


async def test_copied_text_carries_no_escape_or_bidi_control_of_the_agent() -> None:
    app = app_with("safe\u202etxt.exe".encode())
    async with app.run_test(size=SIZE):
        await showing(app, "txt.exe")
        await watch_screen(app).run_action("copy_screen")
        assert "\u202e" not in app.clipboard and "\x1b" not in app.clipboard
        assert app.clipboard == "saf\ufffdtxt.exe"  # the cell holding it shows the placeholder


async def test_a_click_on_a_link_shows_the_exact_address_and_opens_it_only_when_confirmed() -> None:
    url = "https://example.com/login?code=42&next=%2Fhome"
    app = app_with(f"Open ({url}) to log in.".encode())
    async with app.run_test(size=SIZE) as pilot:
        await showing(app, "Open (https")
        opened: list[str] = []

        def opener(target: str) -> bool:
            opened.append(target)
            return True

        watch_screen(app).opener = opener
        await pilot.click(TerminalView, offset=(10, 0))
        dialog = await until(
            lambda: isinstance(app.screen, ConfirmScreen) and app.screen, "a dialog"
        )
        assert isinstance(dialog, ConfirmScreen)
        assert dialog.question == "Open this link?" and dialog.detail == url
        await pilot.press("n")
        await pilot.pause(0.1)  # time for an opening that must not happen
        assert opened == []
        await pilot.click(TerminalView, offset=(40, 0))
        await pilot.press("y")
        await until(lambda: opened, "the opener")
        assert opened == [url]


async def test_an_address_wrapped_over_two_rows_opens_whole() -> None:
    url = "https://example.com/" + "a" * 60 + "/end"
    app = ObserverApp([scripted([f"see {url} ok".encode()], cols=60, rows=12)])
    async with app.run_test(size=SIZE) as pilot:
        await showing(app, "/end ok")
        await pilot.click(TerminalView, offset=(5, 1))  # on the part that wrapped
        await until(lambda: isinstance(app.screen, ConfirmScreen), "a dialog")
        assert isinstance(app.screen, ConfirmScreen) and app.screen.detail == url


async def test_a_drag_over_a_link_opens_nothing_and_other_schemes_are_not_links() -> None:
    app = app_with(b"https://example.com/x", b"file:///etc/passwd javascript:alert(1)")
    async with app.run_test(size=SIZE) as pilot:
        await showing(app, "javascript:alert(1)")
        await drag(pilot, (0, 0), (12, 0))
        assert isinstance(app.screen, WatchScreen)
        for column in (3, 25):
            await pilot.click(TerminalView, offset=(column, 1))
            await pilot.pause(0.1)  # time for a dialog that must not come
            assert isinstance(app.screen, WatchScreen)


async def test_when_no_browser_opens_the_address_is_copied_instead() -> None:
    app = app_with(b"https://example.com/docs")
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await showing(app, "https://example.com/docs")
        watch_screen(app).opener = lambda target: False
        await pilot.click(TerminalView, offset=(3, 0))
        await pilot.press("y")
        await until(lambda: app.clipboard, "the copied address")
        assert app.clipboard == "https://example.com/docs"
        assert any("No browser could open it" in n.message for n in app._notifications)


async def test_the_link_dialog_fits_a_40x10_window() -> None:
    url = "https://example.com/" + "segment/" * 12
    app = ObserverApp([scripted([url.encode()], cols=38, rows=9)])
    async with app.run_test(size=(40, 10)) as pilot:
        await showing(app, "segment/")
        await pilot.click(TerminalView, offset=(3, 0))
        dialog = await until(
            lambda: isinstance(app.screen, ConfirmScreen) and app.screen, "a dialog"
        )
        await pilot.pause()
        for button in dialog.query("Button"):
            assert dialog.region.contains_region(button.region)


async def test_the_keys_select_as_tmux_copy_mode_does_and_y_copies() -> None:
    app = app_with(b"first line", b"second line", b"third line\x1b[1;1H")
    async with app.run_test(size=SIZE) as pilot:
        await showing(app, "third line")
        await pilot.press("v", "right", "right", "space", "down", "right")
        view = app.screen.query_one(TerminalView)
        assert view.selection is not None
        await pilot.press("y")
        await until(lambda: view.copy_mode is None, "the end of copy mode")
        assert app.clipboard == "rst line\nseco"  # both ends included
        assert view.copy_mode is None
        await pilot.press("v", "escape")
        assert view.selection is None and isinstance(app.screen, WatchScreen)


async def test_moving_the_copy_mode_point_above_the_view_scrolls_into_the_history() -> None:
    app = app_with(b"on screen", history=30)
    async with app.run_test(size=SIZE) as pilot:
        await showing(app, "on screen")
        view = app.screen.query_one(TerminalView)
        await pilot.press("v", *["up"] * 15, "space", *["left"] * 9, "y")
        await until(lambda: view.scroll.scrolled, "the view scrolled into the history")
        assert app.clipboard == "old 15"  # 19 lines in the history, the cursor on row 11


def cell_style(view: TerminalView, column: int, row: int) -> Any:
    """The style the view draws the cell at ``column``, ``row`` with."""
    cells = 0
    for segment in view.render_line(row):
        if cells <= column < cells + len(segment.text):
            return segment.style
        cells += len(segment.text)
    raise AssertionError(f"no cell {column} on row {row}")


async def test_copy_mode_says_so_and_its_point_looks_unlike_the_agents_cursor() -> None:
    from observer.app.widgets.status_bar import StatusBar

    app = app_with(b"first line", b"second line\x1b[1;1H")
    async with app.run_test(size=SIZE) as pilot:
        await showing(app, "second line")
        bar, view = app.screen.query_one(StatusBar), app.screen.query_one(TerminalView)
        assert "COPY" not in bar.render().plain
        cursor = cell_style(view, 0, 0)
        await pilot.press("v")
        await until(lambda: bar.render().plain.startswith(" WATCH  COPY "), "the COPY badge")
        assert "y copies · esc leaves" in bar.render().plain
        assert "ctrl+t" not in bar.render().plain
        await pilot.press("right")
        point = cell_style(view, 1, 0)
        assert cell_style(view, 0, 0) == cursor  # the agent's cursor is drawn as it was
        assert point.bgcolor != cursor.bgcolor and point.underline and not cursor.underline
        await pilot.press("escape")
        await until(lambda: "COPY" not in bar.render().plain, "the badge gone")
        assert cell_style(view, 1, 0) != point
