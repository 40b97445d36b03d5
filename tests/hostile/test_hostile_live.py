"""Hostile agent output through the live path: server PTY → WebSocket → client → ``TerminalView``.

Every payload of :mod:`tests.hostile.payloads` (3.7 MB in all) is printed by a real program in
the server's PTY while the app watches it over a real connection. The app renders through a
driver that keeps what it would write to the host terminal.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

from observer.app.app import ObserverApp
from observer.app.screens.confirm import ConfirmScreen
from observer.app.widgets.terminal_view import TerminalView
from observer.terminal import TerminalModel
from tests.hostile import payloads
from tests.hostile.live import (
    SIZE,
    HostileAgent,
    capturing_app,
    host_output,
    hostile_agent,
    pty_barrier,
    screen_text,
    server_barrier,
    server_parsed_everything,
    status,
    until,
)
from tests.integration.server_support import observe

pytestmark = pytest.mark.timeout(300)  # bounded; generous for a busy machine
APP_SIZE = (200, 30)  # wide enough for the status bar to show the title


@pytest.fixture
async def agent(tmp_path: Path) -> AsyncIterator[HostileAgent]:
    async for running in hostile_agent(tmp_path, payloads.stream()):
        yield running


def server_replies(agent: HostileAgent) -> bytes:
    """What the server's own model answers to the queries in the stream (numbers only)."""
    model = TerminalModel(*SIZE, scrollback=0)
    model.feed(b"ready> " + agent.payload)
    return model.take_replies()


async def repaint_everything(pilot: Pilot[int]) -> None:
    """The final screen reaches the host by row repaints alone, and again after a host resize.

    The first wait proves the view's own row updates are painted for the host once the screen
    has scrollback; the resize then repaints every row (all of it is checked for foreign bytes).
    """
    await until(lambda: "END-OF-HOSTILE" in host_output(), "the final screen on the host")
    painted = len(host_output())
    await pilot.resize_terminal(APP_SIZE[0] + 1, APP_SIZE[1])
    await until(
        lambda: "END-OF-HOSTILE" in host_output()[painted:], "the repaint after a host resize"
    )


async def assert_the_remote_size_is_kept(app: ObserverApp, agent: HostileAgent) -> None:
    """A watcher's host resize never resized the PTY (only a controller's view does)."""
    await server_barrier(app)  # a resize the client sent would have been handled by now
    model = agent.server.sessions["agent"].model  # type: ignore[attr-defined]
    assert (model.cols, model.rows) == SIZE


async def assert_the_pty_follows_the_view(app: ObserverApp, agent: HostileAgent) -> None:
    """In control, the PTY has the size of the controller's view, after every host resize."""
    await server_barrier(app)
    view = app.screen.query_one(TerminalView)
    model = agent.server.sessions["agent"].model  # type: ignore[attr-defined]
    await until(
        lambda: (model.cols, model.rows) == (view.size.width, view.size.height), "the PTY size"
    )


def assert_nothing_foreign_reached_the_host(app_output: str) -> None:
    assert app_output, "the capturing driver saw no output: the check would prove nothing"
    assert "END-OF-HOSTILE" in app_output  # the agent's screen was rendered for the host
    assert payloads.foreign_output(app_output) == []
    for needle in ("\x1b]52", "\x1b]8;", "\x1bP", "\x1b_", "\x1b^", "javascript:", "\x9b"):
        assert needle not in app_output


async def test_a_watcher_survives_every_payload_and_the_pty_gets_only_the_servers_answers(
    agent: HostileAgent,
) -> None:
    app = capturing_app(agent)
    async with app.run_test(size=APP_SIZE, headless=False) as pilot:
        await until(lambda: "ready>" in screen_text(app), "the agent's prompt")
        async with observe(agent.server, identifier="agent", token=agent.token) as second_watcher:
            agent.start_payload()
            # Mid-flood, the view still answers the keyboard: ctrl+t opens the confirmation.
            await pilot.press("ctrl+t")
            await until(lambda: isinstance(app.screen, ConfirmScreen), "the takeover dialog")
            await pilot.press("n")
            await until(lambda: "END-OF-HOSTILE" in screen_text(app), "the end of the payload")
            await second_watcher.until(lambda c: "END-OF-HOSTILE" in c.text(), timeout=90)
        await server_barrier(app)  # anything this client wrongly sent has been handled
        await server_parsed_everything(agent)
        expected = server_replies(agent)
        marker = await pty_barrier(agent)
        assert agent.pty_input() == expected + marker  # once, however many watchers
        assert payloads.non_numeric_replies(expected) == b""
        text = screen_text(app)
        assert payloads.MARKUP.decode() in text  # markup shown literally, no action ran
        assert app.is_running and app.return_code is None
        assert status(app).startswith(" WATCH ")
        assert "[b]boss[/b] [@click=app.quit]q[/]" in status(app)
        assert not any(ord(c) < 32 or 0x7F <= ord(c) <= 0x9F for c in status(app))
        assert "\u202e" not in status(app)
        await repaint_everything(pilot)
        await assert_the_remote_size_is_kept(app, agent)
    assert_nothing_foreign_reached_the_host(host_output())


async def test_a_controller_sends_only_what_the_user_typed(agent: HostileAgent) -> None:
    app = capturing_app(agent)
    async with app.run_test(size=APP_SIZE, headless=False) as pilot:
        await until(lambda: "ready>" in screen_text(app), "the agent's prompt")
        await pilot.press("ctrl+t", "y")
        await until(lambda: status(app).startswith(" CONTROL "), "CONTROL")
        agent.start_payload()
        await until(lambda: "END-OF-HOSTILE" in screen_text(app), "the end of the payload")
        await server_barrier(app)  # anything this client sent while parsing has been handled
        await server_parsed_everything(agent)
        expected = server_replies(agent)
        marker = await pty_barrier(agent)
        assert agent.pty_input() == expected + marker
        expected += marker
        pressed = time.monotonic()
        await pilot.press("o", "k", "enter")
        await until(lambda: agent.pty_input() == expected + b"ok\r", "the typed keys at the PTY")
        print(f"keys reached the PTY {1000 * (time.monotonic() - pressed):.0f} ms after the press")
        assert app.is_running and app.return_code is None
        await repaint_everything(pilot)
        await assert_the_pty_follows_the_view(app, agent)
        assert agent.pty_input() == expected + b"ok\r"
    assert_nothing_foreign_reached_the_host(host_output())
