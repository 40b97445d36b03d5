"""The watch screen's view: full window or framed, the PTY following the controller, the crop
indicator and its edge marks, panning, the status line's ellipsis, where notifications go.

A :class:`~observer.app.links.ScriptedLink` stands in for the server (it records the resizes
it is sent); the same resize-follow flow against a real server and PTY, in tmux, is in
``tests/app/test_view_tmux.py``.
"""

from __future__ import annotations

from textual import events
from textual.widgets._toast import Toast

from observer.app.app import ObserverApp
from observer.app.links import ScriptedLink
from observer.app.screens.watch import WatchScreen
from observer.app.widgets.status_bar import StatusBar
from observer.app.widgets.terminal_view import TerminalView
from observer.protocol.events import OutputReceived, Resized
from tests.app.conftest import played, scripted
from tests.waiting import until

NUMBERED = b"".join(b"\x1b[%d;1Hrow %02d" % (n + 1, n) for n in range(12)) + b"\x1b[12;60H|"


def view_of(app: ObserverApp) -> TerminalView:
    return app.screen.query_one(TerminalView)


def shown(app: ObserverApp) -> list[str]:
    view = view_of(app)
    return [view.render_line(y).text for y in range(view.size.height)]


def bar_text(app: ObserverApp) -> str:
    return app.screen.query_one(StatusBar).render().plain


def wheel(view: TerminalView, kind: type[events.MouseEvent], *, shift: bool = False) -> None:
    view.post_message(kind(view, 1, 1, 0, 0, 0, shift, False, False))


async def take_control(pilot: object, app: ObserverApp) -> None:
    await app.screen.run_action("take_control")
    await pilot.press("y")  # type: ignore[attr-defined]
    await until(lambda: isinstance(app.screen, WatchScreen) and app.screen.control, "control")
    await pilot.pause()  # type: ignore[attr-defined]


async def test_a_window_one_row_taller_than_the_remote_shows_all_of_it_with_no_frame() -> None:
    app = ObserverApp([scripted([NUMBERED], cols=60, rows=12)])
    async with app.run_test(size=(60, 13)):
        await until(lambda: shown(app)[11].endswith("|"), "the last row")
        screen = app.screen
        assert isinstance(screen, WatchScreen) and not screen.framed
        assert view_of(app).size == (60, 12)
        rows = shown(app)
        assert rows[0].startswith("row 00") and rows[11].startswith("row 11")
        assert rows[11].endswith("|")  # the last column too
        assert "cropped" not in bar_text(app)


async def test_while_watching_the_frame_is_drawn_when_the_remote_fits_inside_and_f_removes_it() -> (
    None
):
    app = ObserverApp([scripted([NUMBERED], cols=60, rows=12)])
    async with app.run_test(size=(80, 20), notifications=True) as pilot:
        await until(lambda: app.screen.has_class("-framed"), "app.screen.has_class('-framed')")
        assert view_of(app).content_region.size == (78, 17)
        await pilot.press("f")
        await until(
            lambda: not app.screen.has_class("-framed"), "not app.screen.has_class('-framed')"
        )
        assert view_of(app).content_region.size == (80, 19)
        await pilot.press("f")
        await until(lambda: app.screen.has_class("-framed"), "app.screen.has_class('-framed')")
        assert not app._notifications  # a key of the screen's is not "typed while watching"


async def test_taking_control_goes_full_window_and_resizes_the_pty_to_it_once() -> None:
    link = scripted([NUMBERED], cols=60, rows=12)
    app = ObserverApp([link])
    async with app.run_test(size=(80, 20)) as pilot:
        await played(link)
        await pilot.pause(0.2)  # time for a resize that must not be sent: watching, never
        assert link.resizes == []
        await take_control(pilot, app)
        assert not app.screen.has_class("-framed")
        assert view_of(app).size == (80, 19)
        assert link.resizes == [(80, 19)]  # one resize, to the view the controller has


async def test_the_pty_follows_the_controllers_window_and_never_a_watchers() -> None:
    link = scripted([NUMBERED], cols=60, rows=12)
    app = ObserverApp([link])
    async with app.run_test(size=(80, 20)) as pilot:
        await played(link)
        await pilot.resize_terminal(90, 25)
        await pilot.pause(0.2)  # time for a resize that must not be sent
        assert link.resizes == []
        await take_control(pilot, app)
        await pilot.resize_terminal(100, 30)
        await until(
            lambda: link.resizes == [(90, 24), (100, 29)], "link.resizes == [(90, 24), (100, 29)]"
        )
        assert view_of(app).size == (100, 29)
        await pilot.press("ctrl+right_square_bracket")
        await until(lambda: not app.screen.control, "watching again")  # type: ignore[attr-defined]
        await pilot.resize_terminal(70, 20)
        await pilot.pause(0.2)  # time for a resize that must not be sent
        assert link.resizes == [(90, 24), (100, 29)]


async def test_a_larger_remote_is_cropped_visibly_with_its_sizes_and_edge_marks() -> None:
    wide = b"\x1b[1;1Hshort\x1b[3;1H" + b"x" * 100 + b"\x1b[1;1H"
    app = ObserverApp([scripted([wide], cols=120, rows=30)])
    async with app.run_test(size=(80, 20)):
        await until(
            lambda: "cropped 120x30 → 80x19 ▶▼" in bar_text(app),
            "'cropped 120x30 → 80x19 ▶▼' in bar_text(app)",
        )
        rows = shown(app)
        assert rows[2] == "x" * 79 + "›"  # the line goes on past the right edge
        assert rows[0] == "short".ljust(80)  # nothing hidden there: no mark
        link = app.links[0]
        assert isinstance(link, ScriptedLink)
        link.push(Resized(80, 19))
        await until(lambda: "cropped" not in bar_text(app), "'cropped' not in bar_text(app)")
        assert "›" not in "".join(shown(app))


async def test_shift_arrows_and_the_wheel_pan_a_wide_screen_and_end_follows_the_cursor_again() -> (
    None
):
    line = "".join(f"{n:<10d}" for n in range(0, 120, 10))

    def from_column(left: int) -> str:
        """The row as a view 80 wide shows it from ``left``, with its edge marks."""
        part = line[left : left + 80]
        return ("‹" if left else part[0]) + part[1:79] + ("›" if left < 40 else part[79])

    app = ObserverApp([scripted([f"\x1b[1;1H{line}\x1b[1;1H".encode()], cols=120, rows=19)])
    async with app.run_test(size=(80, 20)) as pilot:
        await until(lambda: shown(app)[0] == from_column(0), "shown(app)[0] == from_column(0)")
        await pilot.press("shift+right")
        await until(lambda: shown(app)[0] == from_column(8), "shown(app)[0] == from_column(8)")
        assert "◀▶" in bar_text(app)
        wheel(view_of(app), events.MouseScrollDown, shift=True)
        await until(lambda: shown(app)[0] == from_column(16), "shown(app)[0] == from_column(16)")
        for _ in range(4):
            wheel(view_of(app), events.MouseScrollRight)
        # As far as it goes.
        await until(lambda: shown(app)[0] == from_column(40), "shown(app)[0] == from_column(40)")
        await pilot.press("shift+left")
        await until(lambda: shown(app)[0] == from_column(32), "shown(app)[0] == from_column(32)")
        await pilot.press("end")
        await until(lambda: shown(app)[0] == from_column(0), "shown(app)[0] == from_column(0)")


async def test_in_control_shift_arrows_reach_the_agent_the_wheel_pans_and_typing_follows() -> None:
    link = scripted([b"\x1b[1;1H" + b"y" * 120 + b"\x1b[1;1H"], cols=120, rows=19)
    app = ObserverApp([link], clock=lambda: 1000.0)
    async with app.run_test(size=(80, 20)) as pilot:
        await played(link)
        app.links[0].session.follow_view_size(False)  # keep the remote's size: it stays cropped
        await take_control(pilot, app)
        await pilot.press("shift+right")
        await until(lambda: link.sent == [b"\x1b[1;2C"], "link.sent == [b'\\x1b[1;2C']")
        assert shown(app)[0].startswith("y")
        wheel(view_of(app), events.MouseScrollRight)
        await until(lambda: shown(app)[0].startswith("‹"), "shown(app)[0].startswith('‹')")
        await pilot.press("a")
        # Back where the cursor is.
        await until(lambda: shown(app)[0].startswith("y"), "shown(app)[0].startswith('y')")


async def test_a_narrow_window_ends_the_status_line_in_an_ellipsis() -> None:
    app = ObserverApp([scripted([b"$ "])])
    async with app.run_test(size=(40, 10)):
        await until(lambda: bar_text(app).endswith("…"), "the ellipsis")
        text = bar_text(app)
        assert len(text) <= 40 and text.endswith("…")
        assert text.startswith(" WATCH ")


async def test_notifications_cover_neither_the_frame_nor_the_status_line() -> None:
    app = ObserverApp([scripted([NUMBERED], cols=60, rows=12)])
    async with app.run_test(size=(80, 20), notifications=True) as pilot:
        await until(lambda: app.screen.has_class("-framed"), "the frame")
        app.notify("a notification long enough to reach the edge of its rack " * 2)
        (toast,) = await until(lambda: list(app.screen.query(Toast)), "the notification")
        await pilot.pause()
        inside = view_of(app).content_region
        assert inside.contains_region(toast.region)
        await pilot.press("f")
        await until(lambda: not app.screen.has_class("-framed"), "the frame gone")
        await pilot.pause()
        status = app.screen.query_one(StatusBar).region
        assert not toast.region.overlaps(status)
        assert toast.region.right <= app.screen.size.width


async def test_new_output_after_a_remote_resize_is_drawn_in_the_new_geometry() -> None:
    link = scripted([NUMBERED], cols=60, rows=12)
    app = ObserverApp([link])
    async with app.run_test(size=(60, 13)):
        await played(link)
        link.push(Resized(100, 12))
        link.push(OutputReceived(b"\x1b[1;90Hfar", 0))
        await until(
            lambda: "cropped 100x12 → 60x12 ◀" in bar_text(app),
            "'cropped 100x12 → 60x12 ◀' in bar_text(app)",
        )
        assert "far" in shown(app)[0]
