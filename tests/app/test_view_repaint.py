"""An in-place update reaches the host terminal once the screen has scrollback."""

from __future__ import annotations

from observer.app.app import ObserverApp
from observer.app.links import ScriptedLink
from observer.client.watched import WatchedSession
from observer.protocol.events import OutputReceived
from tests.app.conftest import greeting
from tests.hostile.live import CapturingDriver, host_output, screen_text, until


async def test_a_line_rewritten_in_place_after_scrolling_is_repainted_on_the_host() -> None:
    lines = b"".join(b"line %d\r\n" % i for i in range(40))  # 40 lines on 12 rows: history
    steps = [
        *greeting(cols=60, rows=12),
        (0.0, OutputReceived(lines + b"spinner-1", 0)),
        (0.5, OutputReceived(b"\r\x1b[2Kspinner-2", len(lines) + 9)),  # a spinner's next frame
    ]
    CapturingDriver.written = []
    app = ObserverApp([ScriptedLink(WatchedSession(), steps, label="scripted")])
    app.driver_class = CapturingDriver
    async with app.run_test(size=(80, 20), headless=False):
        await until(lambda: "spinner-1" in host_output(), "the first frame on the host")
        await until(lambda: "spinner-2" in screen_text(app), "the second frame in the view")
        await until(lambda: "spinner-2" in host_output(), "the second frame on the host")
