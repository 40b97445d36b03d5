"""The app against a real ``observer.v1`` server on 127.0.0.1 with a real PTY.

The program in the PTY puts its terminal in raw mode and appends every byte it reads to a file, so
"keys reach the PTY" is checked on the server's side, byte for byte.
"""

from __future__ import annotations

import asyncio
import secrets
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from textual import events
from websockets.asyncio.client import ClientConnection

from observer.app.app import ObserverApp
from observer.app.widgets.status_bar import StatusBar
from observer.app.widgets.terminal_view import TerminalView
from observer.auth.tokens import Authenticator, TokenDigests
from observer.credentials.store import Secret
from observer.recording.castfiles import open_cast
from observer.server import Server
from observer.transport.connection import Connection
from observer.transport.settings import ConnectionSettings
from tests.client_support import live_link
from tests.waiting import until

KEY_LOGGER = """
import os, sys, tty
tty.setraw(0)
log = open(sys.argv[1], "ab", buffering=0)
os.write(1, b"ready> ")
while True:
    data = os.read(0, 1024)
    if not data:
        break
    log.write(data)
"""
SIZE = (80, 20)


class Live:
    def __init__(self, server: Server, token: str, keys: Path) -> None:
        self.server, self.token, self.keys = server, token, keys

    def source(self, record: Path | None = None, record_input: bool = False) -> Connection:
        url = f"ws://127.0.0.1:{self.server.port}/"
        settings = ConnectionSettings(
            url=url, identifier="t", protocol="observer", initial_delay=0.2, max_delay=0.5
        )
        return live_link(
            settings, Secret(self.token), label=url, record=record, record_input=record_input
        )

    def received(self) -> bytes:
        return self.keys.read_bytes() if self.keys.exists() else b""


@pytest.fixture
async def live(tmp_path: Path) -> AsyncIterator[Live]:
    token = secrets.token_urlsafe(16)
    keys = tmp_path / "keys"
    server = Server(
        [sys.executable, "-c", KEY_LOGGER, str(keys)],
        auth=Authenticator(TokenDigests.from_tokens([("control", token)])),
        identifiers=("t",),
        size=(60, 10),
    )
    await server.start()
    try:
        yield Live(server, token, keys)
    finally:
        await server.stop()


def screen_text(app: ObserverApp) -> str:
    view = app.screen.query_one(TerminalView)
    return "\n".join(view.render_line(y).text for y in range(view.size.height))


def status(app: ObserverApp) -> str:
    return app.screen.query_one(StatusBar).render().plain


async def test_watching_a_live_session_shows_its_screen(live: Live) -> None:
    app = ObserverApp([live.source()])
    async with app.run_test(size=SIZE):
        await until(lambda: "ready>" in screen_text(app), "the program's prompt")
        assert status(app).startswith(" WATCH ") and "connected" in status(app)


async def test_taking_control_sends_keys_to_the_pty_and_releasing_stops_them(live: Live) -> None:
    app = ObserverApp([live.source()])
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: "ready>" in screen_text(app), "the program's prompt")
        await pilot.press("ctrl+t", "y")
        await until(lambda: status(app).startswith(" CONTROL "), "CONTROL")
        await pilot.press("l", "s", "enter", "up", "ctrl+c", "f1")
        await until(lambda: len(live.received()) >= 9, "the keys at the PTY")
        assert live.received() == b"ls\r\x1b[A\x03\x1bOP"
        await pilot.press("ctrl+right_square_bracket")
        await until(lambda: status(app).startswith(" WATCH "), "WATCH")
        await pilot.press("x", "enter")
        await asyncio.sleep(0.5)  # time for keys that must not reach the PTY
        assert live.received() == b"ls\r\x1b[A\x03\x1bOP"


async def test_watch_mode_sends_no_input_frame_whatever_is_typed_or_pasted(
    live: Live, monkeypatch: pytest.MonkeyPatch
) -> None:
    binary_frames: list[bytes] = []
    original = ClientConnection.send

    async def counting_send(self: ClientConnection, message: Any, *args: Any) -> None:
        if isinstance(message, bytes | bytearray):
            binary_frames.append(bytes(message))
        await original(self, message, *args)

    monkeypatch.setattr(ClientConnection, "send", counting_send)
    app = ObserverApp([live.source()])
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: "ready>" in screen_text(app), "the program's prompt")
        await pilot.press("a", "enter", "ctrl+c", "up", "f5", "escape", "tab", "ctrl+d")
        view = app.screen.query_one(TerminalView)
        view.post_message(events.Paste("rm -rf /\n"))
        view.post_message(events.Paste("one line"))
        await pilot.press("ctrl+t", "n", "ctrl+x", "escape")
        await asyncio.sleep(0.5)  # time for input that must not be sent
    assert binary_frames == []
    assert live.received() == b""


async def test_losing_the_server_shows_the_reconnect_countdown(live: Live) -> None:
    app = ObserverApp([live.source()])
    async with app.run_test(size=SIZE):
        await until(lambda: "ready>" in screen_text(app), "the program's prompt")
        await live.server.stop()
        await until(lambda: "reconnecting" in status(app), "the reconnect indicator")
        # The status is derived at once; the notice comes when the feeder hands it on.
        await until(
            lambda: any("reconnecting" in n.message for n in app._notifications), "the notice"
        )


async def test_a_recording_keeps_output_and_only_the_input_sent_in_control(
    live: Live, tmp_path: Path
) -> None:
    cast = tmp_path / "session.cast"
    app = ObserverApp([live.source(record=cast, record_input=True)])
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: "ready>" in screen_text(app), "the program's prompt")
        await pilot.press("w")
        await pilot.press("ctrl+t", "y")
        await until(lambda: status(app).startswith(" CONTROL "), "CONTROL")
        assert "REC" in status(app)
        await pilot.press("o", "k")
        await until(lambda: live.received() == b"ok", "the keys at the PTY")
    with open_cast(cast) as reader:
        events_ = list(reader)
    typed = "".join(e.data for e in events_ if e.code == "i")
    assert typed == "ok"
    assert "ready>" in "".join(e.data for e in events_ if e.code == "o")
    assert any(e.data.startswith("takeover start") for e in events_ if e.code == "m")
