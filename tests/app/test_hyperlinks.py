"""OSC 8 hyperlinks and wrapped addresses in the watch screen, through the real terminal model.

A click on a hyperlink's text shows its target (the text can say anything), then the injected
opener opens that target once confirmed; in the scrollback too. Rows are joined only where the
model says autowrap broke them, so a wrapped address opens whole and an address that merely
fills its row is not joined to the next one. The gcc output is real: ``gcc 12.2
-fdiagnostics-urls=always -fdiagnostics-color=always -Wall -c calc.c`` in a PTY, its bytes as
read (``tests/fixtures/hyperlinks``).
"""

from __future__ import annotations

from pathlib import Path

from observer.app.app import ObserverApp
from observer.app.screens.confirm import ConfirmScreen
from observer.app.screens.watch import WatchScreen
from observer.app.widgets.terminal_view import TerminalView
from tests.app.conftest import scripted
from tests.app.test_copy_and_links import showing
from tests.waiting import until

GCC = (Path(__file__).parents[1] / "fixtures/hyperlinks/gcc-unused-variable.bin").read_bytes()
GCC_TARGET = "https://gcc.gnu.org/onlinedocs/gcc/Warning-Options.html#index-Wunused-variable"


def shown_at(app: ObserverApp, text: str, nth: int = 0) -> tuple[int, int]:
    """Where ``text`` is drawn in the view (its first cell), the ``nth`` time it is."""
    view = app.screen.query_one(TerminalView)
    found = [
        (line.index(text), y)
        for y in range(view.size.height)
        if text in (line := view.render_line(y).text)
    ]
    return found[nth]


def watching(output: bytes, cols: int = 80, rows: int = 12) -> ObserverApp:
    """An app watching a ``cols`` x ``rows`` remote that wrote ``output``."""
    return ObserverApp([scripted([output], cols=cols, rows=rows)])


def inject_opener(app: ObserverApp) -> list[str]:
    """Replace the watch screen's link opener; the list it returns fills with what it opens."""
    screen = app.screen
    assert isinstance(screen, WatchScreen)
    opened: list[str] = []

    def opener(target: str) -> bool:
        opened.append(target)
        return True

    screen.opener = opener
    return opened


async def click_and_read_dialog(app: ObserverApp, pilot: object, at: tuple[int, int]) -> str:
    await pilot.click(TerminalView, offset=at)  # type: ignore[attr-defined]
    await until(lambda: not isinstance(app.screen, WatchScreen), "a dialog")
    dialog = app.screen
    assert isinstance(dialog, ConfirmScreen), "the click opened no dialog"
    assert dialog.question == "Open this link?"
    return dialog.detail


async def test_a_gcc_diagnostic_link_shows_its_target_then_opens_it_when_confirmed() -> None:
    app = watching(GCC)
    async with app.run_test(size=(80, 13)) as pilot:
        await showing(app, "-Wunused-variable")
        opened = inject_opener(app)
        x, y = shown_at(app, "-Wunused-variable")
        detail = await click_and_read_dialog(app, pilot, (x + 4, y))
        assert detail.splitlines()[0] == GCC_TARGET
        assert "host: gcc.gnu.org" in detail
        assert "differs from where it leads: “-Wunused-variable”" in detail
        await pilot.press("y")
        await until(lambda: opened, "the opener")
        assert opened == [GCC_TARGET]


async def test_a_hyperlink_cut_by_the_wrap_is_one_link_from_either_row() -> None:
    app = watching(GCC, cols=60)  # the warning line wraps inside "-Wunused-variable"
    async with app.run_test(size=(60, 13)) as pilot:
        await showing(app, "[-W")
        opened = inject_opener(app)
        x, y = shown_at(app, "[-W")
        for at in ((x + 2, y), (0, y + 1)):
            detail = await click_and_read_dialog(app, pilot, at)
            assert detail.splitlines()[0] == GCC_TARGET
            assert "“-Wunused-variable”" in detail
            await pilot.press("n")
            await until(lambda: isinstance(app.screen, WatchScreen), "the dialog gone")
        await pilot.pause(0.1)  # time for an opening that must not happen
        assert opened == []


async def test_a_hyperlink_in_the_scrollback_opens_its_target() -> None:
    lines = b"".join(b"line %d\r\n" % n for n in range(30))
    app = watching(GCC + lines)
    async with app.run_test(size=(80, 13)) as pilot:
        await showing(app, "line 29")
        opened = inject_opener(app)
        await pilot.press("pageup", "pageup", "pageup")
        await showing(app, "-Wunused-variable")
        x, y = shown_at(app, "-Wunused-variable")
        detail = await click_and_read_dialog(app, pilot, (x, y))
        assert detail.splitlines()[0] == GCC_TARGET
        await pilot.press("y")
        await until(lambda: opened, "the opener")
        assert opened == [GCC_TARGET]


async def test_a_hyperlink_to_a_file_is_shown_and_never_opened() -> None:
    output = b"\x1b]8;;file:///etc/passwd\x07calc.c\x1b]8;;\x07 listed"  # as ls --hyperlink writes
    app = watching(output)
    async with app.run_test(size=(80, 13), notifications=True) as pilot:
        await showing(app, "calc.c listed")
        opened = inject_opener(app)
        await pilot.click(TerminalView, offset=(2, 0))
        notices = await until(
            lambda: [n.message for n in app._notifications if "Not opened" in n.message], "a notice"
        )
        assert isinstance(app.screen, WatchScreen)
        (notice,) = notices
        assert "file:///etc/passwd" in notice
        assert opened == []


async def test_an_address_that_only_fills_its_row_is_not_joined_to_the_next() -> None:
    url = "https://example.com/" + "a" * 40  # exactly the row's 60 columns, then a line break
    app = watching(f"{url}\r\nmore text".encode(), cols=60)
    async with app.run_test(size=(60, 13)) as pilot:
        await showing(app, "more text")
        detail = await click_and_read_dialog(app, pilot, (5, 0))
        assert detail == url
