"""TerminalView details: synchronized output, the remote cursor, wide characters."""

from __future__ import annotations

from rich.color import Color

from observer.app.app import ObserverApp
from observer.app.widgets.frame_pace import SYNC_TIMEOUT
from observer.app.widgets.terminal_view import TerminalView
from observer.client.watched import WatchedSession
from observer.protocol.events import OutputReceived
from tests.app.conftest import played, scripted
from tests.waiting import until

SIZE = (80, 16)


class FakeClock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def view_text(view: TerminalView) -> str:
    return "\n".join(view.render_line(y).text for y in range(view.size.height))


async def test_repaints_wait_while_a_synchronized_update_is_open_up_to_a_timeout() -> None:
    source = scripted([b"before"])
    app = ObserverApp([source])
    async with app.run_test(size=SIZE):
        await played(source)
        view = app.screen.query_one(TerminalView)
        await until(lambda: "before" in view_text(view), "the output")
        clock = FakeClock()
        view.clock = clock
        session = app.links[0].session
        feed(session, b"\x1b[?2026h\r\nduring")
        frames = view.frames
        view._flush()
        assert view.frames == frames  # held: the update is still open
        clock.now += SYNC_TIMEOUT / 2
        view._flush()
        assert view.frames == frames
        clock.now += SYNC_TIMEOUT
        view._flush()
        assert view.frames == frames + 1  # a stuck update does not freeze the view for ever
        feed(session, b"\x1b[?2026l")
        view._flush()
        assert view.frames == frames + 2


async def test_the_cursor_is_drawn_only_while_the_remote_shows_it() -> None:
    source = scripted([b"$ "], cols=20, rows=3)
    app = ObserverApp([source])
    async with app.run_test(size=SIZE):
        await played(source)
        view = app.screen.query_one(TerminalView)
        await until(lambda: "$" in view_text(view), "the prompt")
        cursor = Color.parse(view.palette.cursor)

        def cursor_cells() -> int:
            return sum(
                1
                for y in range(view.size.height)
                for segment in view.render_line(y)
                if segment.style is not None and segment.style.bgcolor == cursor
            )

        assert cursor_cells() == 1
        source.push(OutputReceived(b"\x1b[?25l", 0))
        await until(lambda: cursor_cells() == 0, "the cursor hidden")


async def test_wide_characters_are_drawn_whole() -> None:
    source = scripted(["日本語 ok".encode()], cols=20, rows=3)
    app = ObserverApp([source])
    async with app.run_test(size=SIZE):
        await played(source)
        view = app.screen.query_one(TerminalView)
        await until(lambda: "日本語 ok" in view_text(view), "the wide characters")


def feed(session: WatchedSession, data: bytes) -> None:
    """Output received and parsed at once (as the feeder would, without waiting for it)."""
    session.received(data, 0.0)
    while session.pending:
        session.feed(1 << 20, 0.0)
