"""The status bar says each fact once, and nothing that went stale in an outage as if current.

The status bar reads the session core's derived status (``SessionStatus.live`` and
``agent_now``): an exit is the connection's part of the line ("exited with status 0"), not
also the agent's; while the connection is down the agent's last state, the watchers, the
latency and the holder are what they were before it dropped, so the line leaves them out.
"""

from __future__ import annotations

from observer.app.app import ObserverApp
from observer.app.links import ConnectionChanged, LatencyMeasured
from observer.app.widgets.status_bar import StatusBar
from observer.protocol.events import ControlChanged, Exited, OutputReceived
from tests.app.conftest import played, scripted
from tests.waiting import until

SIZE = (200, 20)  # wide enough that nothing is cut


def status_text(app: ObserverApp) -> str:
    return app.screen.query_one(StatusBar).describe(app.clock()).plain


async def test_an_exit_is_said_once() -> None:
    source = scripted([b"$ make\r\n"], identifier="build-7")
    app = ObserverApp([source])
    async with app.run_test(size=SIZE):
        await played(source)
        source.push(Exited(0))
        await until(lambda: "exited" in status_text(app), "the exit")
        text = status_text(app)
        assert "exited with status 0" in text
        assert text.count("exited") == 1, text
        assert "agent" not in text


async def test_an_outage_shows_no_agent_state_watchers_latency_or_holder_from_before_it() -> None:
    source = scripted([b"$ make\r\n"], identifier="build-7")
    app = ObserverApp([source])
    async with app.run_test(size=SIZE):
        source.push(LatencyMeasured(0.004))
        source.push(ControlChanged("other"))
        source.push(OutputReceived(b"building...\r\n", 8))
        await until(lambda: "agent active" in status_text(app), "the agent's output")
        before = status_text(app)
        assert "agent active" in before and "1 watching" in before and "4.0 ms" in before
        assert "held by another client" in before
        source.push(ConnectionChanged("reconnecting", reason="reset"))
        await until(lambda: "reconnecting in" in status_text(app), "the outage")
        during = status_text(app)
        assert "reconnecting in" in during
        for stale in ("agent", "watching", " ms", "held by another client"):
            assert stale not in during, (stale, during)
        source.push(ConnectionChanged("connected"))
        await until(lambda: "agent " in status_text(app), "the agent's state again")
