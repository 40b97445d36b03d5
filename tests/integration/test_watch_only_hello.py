"""A watch-only token is never offered control: the server's ``hello`` says what the token allows.

A real ``observer serve`` on 127.0.0.1:0 with tokens from ``observer token issue``, the app's own
link to it, and the app (Pilot): before this, the first ctrl+t asked "Take control of this
agent?" and only the server's refusal taught the client that it could not.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from observer.app.app import ObserverApp
from observer.app.screens.confirm import ConfirmScreen
from observer.app.widgets.status_bar import StatusBar
from observer.credentials.store import Secret
from observer.transport.settings import ConnectionSettings
from tests.app.test_view_tmux import issue
from tests.client_support import live_link
from tests.hostile.serve_process import serve_process
from tests.waiting import until

pytestmark = pytest.mark.timeout(90)


async def connected(pilot: Pilot[int], app: ObserverApp) -> str:
    """Wait for the session's hello; the status bar's text then."""
    session = app.links[0].session
    await until(lambda: session.status(app.clock()).connection == "connected", "the hello", 20)
    await pilot.pause()
    return app.screen.query_one(StatusBar).describe(app.clock()).plain


@pytest.mark.parametrize("role", ["watch", "control"])
async def test_ctrl_t_is_offered_only_to_a_token_that_may_take_control(
    tmp_path: Path, role: str
) -> None:
    tokens = tmp_path / "tokens"
    token = issue(role, tokens)
    async with serve_process(["--tokens", str(tokens)], "sleep 60") as running:
        settings = ConnectionSettings(f"ws://127.0.0.1:{running.port}/", identifier="default")
        link = live_link(settings, Secret(token))
        app = ObserverApp([link])
        async with app.run_test(size=(160, 30)) as pilot:
            bar = await connected(pilot, app)
            status = link.session.status(app.clock())
            told = len(app._notifications)
            await pilot.press("ctrl+t")
            await until(
                lambda: isinstance(app.screen, ConfirmScreen) or len(app._notifications) > told,
                "a question or a refusal",
            )
            asked = isinstance(app.screen, ConfirmScreen)
            messages = [n.message for n in app._notifications]
    if role == "watch":
        assert not status.may_take and "watching only" in status.cannot_take
        assert "ctrl+t" not in bar, bar
        assert not asked
        assert messages[-1] == (
            "Cannot take control: This token allows watching only: ask for a control token to type."
        ), messages
    else:
        assert status.may_take and "ctrl+t takes control" in bar, bar
        assert asked
