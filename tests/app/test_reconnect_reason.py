"""A reconnecting session says why on its tile and in its status bar, not only in a toast."""

from __future__ import annotations

from observer.app.app import ObserverApp
from observer.app.links import ConnectionChanged
from observer.app.screens.dashboard import DashboardScreen
from observer.app.widgets.status_bar import StatusBar
from tests.app.conftest import played, scripted, tile_title
from tests.waiting import until


def tiles_shown(app: ObserverApp) -> bool:
    """Whether the dashboard's tiles are laid out."""
    return isinstance(app.screen, DashboardScreen) and bool(app.screen.grid.size.area)


DROPPED = "ws://127.0.0.1:9 refused the connection — is the server running on port 9?"


async def test_a_reconnecting_tile_says_why_without_the_advice() -> None:
    links = [scripted(identifier=name) for name in ("alpha", "beta")]
    app = ObserverApp(links)
    async with app.run_test(size=(200, 24)):
        await until(lambda: tiles_shown(app), "the tiles")
        links[1].push(ConnectionChanged("reconnecting", reason=DROPPED))
        reason = "reconnecting: ws://127.0.0.1:9 refused the connection"
        await until(lambda: reason in tile_title(app.screen, 1), "the reason on the tile")
        line = tile_title(app.screen, 1)
        assert "is the server running" not in line  # the advice went by in the notice


async def test_the_status_bar_counts_down_and_says_why() -> None:
    source = scripted([b"$ "])
    app = ObserverApp([source])
    async with app.run_test(size=(200, 20)):
        await played(source)
        # The status bar describes the session's state: nothing to wait for once it changed.
        source.push(ConnectionChanged("reconnecting", reason=DROPPED))
        text = app.screen.query_one(StatusBar).describe(app.clock()).plain
        assert "reconnecting in 0 s: ws://127.0.0.1:9 refused the connection │" in text, text
        source.session.connection_failed(
            "cannot reach ws://127.0.0.1:9: timed out — check", retryable=True, now=app.clock()
        )
        text = app.screen.query_one(StatusBar).describe(app.clock()).plain
        assert ": cannot reach ws://127.0.0.1:9: timed out │" in text, text
        source.push(ConnectionChanged("connected"))
        text = app.screen.query_one(StatusBar).describe(app.clock()).plain
        assert "refused" not in text and "timed out" not in text


async def test_the_endpoint_the_line_shows_is_not_said_again_before_the_reason() -> None:
    links = [scripted(identifier=name) for name in ("alpha", "delta")]
    for link in links:
        link.label = f"{link.session.identifier} · ws://127.0.0.1:9"
    app = ObserverApp(links)
    async with app.run_test(size=(200, 24)):
        await until(lambda: tiles_shown(app), "the tiles")
        refused = "ws://127.0.0.1:9 has no session 'delta' (HTTP 404) — fix the profile"
        links[1].session.connection_failed(refused, retryable=False, now=app.clock())
        links[0].push(ConnectionChanged("reconnecting", reason=DROPPED))
        await until(
            lambda: (
                "reconnecting" in tile_title(app.screen, 0)
                and "closed" in tile_title(app.screen, 1)
            ),
            "both reasons on their tiles",
        )
        lines = [tile_title(app.screen, index) for index in range(2)]
    assert lines[0].startswith(" 1  alpha  reconnecting: refused the connection  · ws://"), lines
    assert lines[1].startswith(" 2  delta  closed: has no session 'delta' (HTTP 404)"), lines
