"""The watch view pays for what a person can see: a scrolled row is not drawn again, and a
flood's frames come at a rate a person reads while a lone change is drawn at once."""

from __future__ import annotations

import pytest
from textual.strip import Strip

from observer.app.app import ObserverApp
from observer.app.widgets.frame_pace import FRAME, FRAME_FLOOD, FRAME_FULL, FRAME_PAST
from observer.app.widgets.terminal_view import TerminalView
from observer.client.watched import WatchedSession
from tests.app.conftest import scripted
from tests.waiting import until


def lines(view: TerminalView) -> list[Strip]:
    return [view.render_line(y) for y in range(view.size.height)]


async def frame_after_a_scroll(view: TerminalView, lines: int = 0) -> tuple[list[float], float]:
    """The view's clock (a list to move it) and how long the frame after a scroll by ``lines``
    (0: every row redrawn in place) waits, when a frame was drawn just before."""
    now = [1000.0]
    view.clock = lambda: now[0]
    await until(lambda: view._timer is None, "the first frame drawn")
    view._last_frame = now[0]
    view.session.model.feed(b"log line\r\n" * lines)
    view.mark_dirty(set(range(12)))  # every row changed
    timer = view._timer
    assert timer is not None
    return now, timer._interval


async def test_a_row_that_scrolls_up_is_drawn_from_the_strip_it_had() -> None:
    output = b"".join(b"\x1b[3%dmline %d\x1b[0m\r\n" % (n % 8, n) for n in range(11))
    app = ObserverApp([scripted([output + b"$ "], cols=60, rows=12)])
    async with app.run_test(size=(80, 20)):
        view = app.screen.query_one(TerminalView)
        await until(lambda: "line 10" in view.screen_text(), "the first screen")
        first = next(y for y in range(view.size.height) if "line 0" in view.render_line(y).text)
        before = lines(view)
        view.mark_dirty(view.session.model.feed(b"\r\n" * 3))
        await until(lambda: view._timer is None, "the scroll's frame drawn")
        after = lines(view)
        assert "line 3" in after[first].text
        # The rows that moved up three are the strips they were: only the new rows were drawn.
        for y in range(first, first + 8):
            assert after[y] is before[y + 3], y


async def test_a_flood_is_drawn_at_a_readable_rate_and_a_lone_change_at_once() -> None:
    app = ObserverApp([scripted([b"$ "], cols=60, rows=12)])
    async with app.run_test(size=(80, 20)):
        view = app.screen.query_one(TerminalView)
        now, interval = await frame_after_a_scroll(view)
        # Watched, not typed into: a screenful at a time, as fast as anyone reads one.
        assert interval >= FRAME_FLOOD - 1e-9 > FRAME
        await until(lambda: view._timer is None, "the flood's frame drawn")
        view._last_frame = now[0]
        view.mark_dirty({11})  # a keystroke's echo right after it
        timer = view._timer
        assert timer is not None and timer._interval <= FRAME + 1e-9
        await until(lambda: view._timer is None, "the echo drawn")
        now[0] += 1.0  # after a quiet second an echo waits for nothing
        view.mark_dirty({11})
        timer = view._timer
        assert timer is not None and timer._interval <= 0.001 + 1e-9


# The prompt is on the first of 12 rows: 11 line feeds bring the cursor to the bottom, and 12
# more push the row that was there off the screen.
@pytest.mark.parametrize(
    ("lines", "slowest"), [(5, FRAME_FLOOD), (22, FRAME_FLOOD), (23, FRAME_PAST), (60, FRAME_PAST)]
)
async def test_a_log_scrolling_a_screenful_between_frames_is_drawn_less_often(
    lines: int, slowest: float
) -> None:
    """Lines still on the screen from the last frame can be followed; once a screenful or more
    scrolls by between two frames, nothing can be read but that it runs."""
    app = ObserverApp([scripted([b"$ "], cols=60, rows=12)])
    async with app.run_test(size=(80, 20)):
        view = app.screen.query_one(TerminalView)
        _, interval = await frame_after_a_scroll(view, lines)
        assert abs(interval - slowest) < 1e-6


async def test_in_control_a_flood_is_drawn_faster_so_what_is_typed_shows_promptly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(WatchedSession, "in_control", property(lambda self: True))
    app = ObserverApp([scripted([b"$ "], cols=60, rows=12)])
    async with app.run_test(size=(80, 20)):
        view = app.screen.query_one(TerminalView)
        _, interval = await frame_after_a_scroll(view)
        assert FRAME_FULL - 1e-9 <= interval < FRAME_FLOOD
