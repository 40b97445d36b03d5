"""The watch screen hears of every change of the crop, however the crop was read meanwhile.

The status bar reads the view's crop when the session's status changes; when that came between
a remote resize and the view's next frame, the frame saw no change and the screen never took
its frame away: a 120x40 agent stayed cropped to 98x27 in a 100x30 window (the frame's cells)
instead of 100x29.
"""

from __future__ import annotations

from observer.app.app import ObserverApp
from observer.app.screens.watch import WatchScreen
from observer.app.widgets.terminal_view import TerminalView
from observer.protocol.events import SnapshotReceived
from tests.app.conftest import scripted
from tests.waiting import until


async def test_a_crop_read_before_the_frame_still_takes_the_frame_away() -> None:
    link = scripted([b"$ "], cols=80, rows=24)
    app = ObserverApp([link])
    async with app.run_test(size=(100, 30)) as pilot:
        # 80x24 fits.
        await until(lambda: app.screen.has_class("-framed"), "the frame")
        screen = app.screen
        assert isinstance(screen, WatchScreen)
        view = screen.query_one(TerminalView)
        link.push(SnapshotReceived(b"$ ", 120, 40, 2, False))  # the agent's PTY grew
        while link.session.pending:
            link.session.feed(1 << 16, app.clock())
        assert view.crop is not None and view.crop.cols == 120  # read, as the status bar does
        await until(lambda: not screen.has_class("-framed"), "the frame taken away")
        await pilot.pause()
        assert view.size.width == 100
