"""The request as the platform documents it, and asciinema's live protocols, on a real server.

``GET /?identifier=<id>&api-version=...`` with ``Authorization: Bearer <token>`` and no
subprotocol gets ``101`` and the raw terminal stream; asciinema-player's subprotocols get their
streams. Real server on 127.0.0.1, real PTY, the websockets client; the streams are read as the
player reads them (:mod:`tests.stream_readers`).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Subprotocol

from observer.server import Server
from tests.integration.server_support import (
    CONTROL_TOKEN,
    PY,
    closed_code,
    model_text,
    observe,
    running_server,
    url,
    wait_for,
)
from tests.stream_readers import (
    read_alis,
    read_cast,
    read_raw,
    receive_all,
    receive_until,
    screen,
)

pytestmark = pytest.mark.timeout(60)

DOCUMENTED = "/?identifier=default&api-version=2024-02-02-preview"
AGENT = r"""
import sys
sys.stdout.write("\x1b]2;build\x07\x1b[31mready\x1b[0m\r\n")
sys.stdout.flush()
for line in sys.stdin:
    word = line.strip()
    if word == "notify":
        sys.stdout.write("\x1b]9;needs permission\x07")
    elif word == "quit":
        sys.exit(3)
    else:
        sys.stdout.write("got " + word + "\r\n")
    sys.stdout.flush()
"""


@contextlib.asynccontextmanager
async def agent() -> AsyncIterator[Server]:
    """A server whose program has printed its red ``ready`` and named its window ``build``."""
    async with running_server([PY, "-c", AGENT], size=(40, 6)) as server:
        await wait_for(lambda: "ready" in model_text(server)[0])
        yield server


def documented(
    server: Server, query: str = "", subprotocols: list[str] | None = None, **options: Any
) -> Any:
    """The documented request (plus ``query``), offering ``subprotocols`` (default: none)."""
    return connect(
        url(server, DOCUMENTED + query),
        additional_headers={"Authorization": f"Bearer {CONTROL_TOKEN}"},
        subprotocols=[Subprotocol(name) for name in subprotocols] if subprotocols else None,
        max_size=None,
        **options,
    )


def raw_screen(messages: list[Any]) -> list[str]:
    return screen(read_raw(messages)).text() if messages else []


async def until_raw(ws: ClientConnection, messages: list[Any], text: str) -> None:
    await receive_until(ws, messages, lambda m: any(text in row for row in raw_screen(m)), text)


async def test_the_documented_request_gets_101_and_the_agents_output() -> None:
    async with agent() as server, documented(server) as ws:
        assert ws.response is not None and ws.response.status_code == 101
        assert ws.subprotocol is None and "Sec-WebSocket-Protocol" not in ws.response.headers
        messages: list[Any] = []
        await until_raw(ws, messages, "ready")
        assert all(isinstance(m, bytes) for m in messages)
        assert messages[0] == b"\x1b[8;6;40t", "the size first"
        shown = screen(read_raw(messages[:2]))  # the repaint alone shows the screen
        assert shown.text()[0].startswith("ready") and shown.line(0)[0].fg == "red"


async def test_a_controllers_raw_input_reaches_the_pty() -> None:
    async with agent() as server, documented(server, "&mode=control") as ws:
        messages: list[Any] = []
        await until_raw(ws, messages, "ready")
        await ws.send(b"hello\r")
        await until_raw(ws, messages, "got hello")  # the agent read it from its terminal


async def test_a_text_message_closes_the_raw_stream_saying_why() -> None:
    async with agent() as server, documented(server, "&mode=control") as ws:
        await ws.send("hello\r")
        assert await closed_code(ws) == 1003
        assert ws.close_reason is not None and "binary" in ws.close_reason
        assert not any("got hello" in row for row in model_text(server))


async def test_asking_for_control_while_another_holds_it_closes_saying_why() -> None:
    async with agent() as server, observe(server, control=True) as holder:
        assert holder.mode == "control"
        async with documented(server, "&mode=control") as ws:
            assert await closed_code(ws) == 1008
            assert ws.close_reason is not None and "holds control" in ws.close_reason


async def test_the_raw_stream_ends_with_the_program() -> None:
    async with agent() as server, documented(server, "&mode=control") as ws:
        messages: list[Any] = []
        await until_raw(ws, messages, "ready")
        await ws.send(b"last\rquit\r")
        assert await closed_code(ws) == 1000
        assert ws.close_reason == "the program exited"
        async with documented(server) as late:  # a late joiner: the last screen, then the end
            messages = []
            assert await receive_all(late, messages) == 1000
            assert "got last" in "".join(raw_screen(messages))


READ = {
    "v2.asciicast": lambda m: read_cast(m, 2),
    "v3.asciicast": lambda m: read_cast(m, 3),
    "v1.alis": read_alis,
}


@pytest.mark.parametrize("stream", list(READ))
async def test_asciinema_streams_carry_the_session(stream: str) -> None:
    """Header with size and title, the output in colour, a controller's takeover and resize, the
    agent's notification, its exit; then a normal close, which the player takes as the end."""
    async with agent() as server, documented(server, subprotocols=[stream]) as viewer:
        assert viewer.subprotocol == stream
        messages: list[Any] = []
        await receive_until(viewer, messages, lambda m: len(m) >= 3, "the first screen")
        async with observe(server, control=True) as controller:
            await controller.send(controller.session.encode_resize(50, 7))
            await controller.send(controller.session.encode_input(b"notify\r"))
            await receive_until(
                viewer, messages, lambda m: "notification" in str(m), "a notification marker"
            )
            await controller.send(controller.session.encode_input(b"quit\r"))
            assert await receive_all(viewer, messages) == 1000
        played = READ[stream](messages)
        assert (played.cols, played.rows) == (40, 6)
        if stream != "v1.alis":
            assert played.header["title"] == "build"
        model = screen(played)
        assert model.text()[0].startswith("ready") and model.line(0)[0].fg == "red"
        assert (model.cols, model.rows) == (50, 7)
        assert played.markers()[1:] == [
            "takeover start: another client",
            "notification: needs permission",
            "takeover end",
        ]
        assert played.codes()[-1] == "x" and str(played.events[-1][2]) == "3"


SLOW_LINK = (
    "while [ ! -e {go} ]; do sleep 0.01; done; "
    "head -c 3000000 /dev/zero | tr '\\0' z; printf '\\033[2J\\033[HDONE'; sleep 60"
)


@pytest.mark.parametrize("stream", ["raw", "v1.alis"])
async def test_a_stalled_viewer_gets_a_gap_then_the_screen_as_it_is(
    stream: str, tmp_path: Path
) -> None:
    """A viewer that reads nothing during a flood is dropped to a snapshot like any client;
    its stream says so (a ``gap`` marker, a reset) and then shows the current screen."""
    go = tmp_path / "go"
    command = ["sh", "-c", SLOW_LINK.format(go=go)]
    async with running_server(command, size=(80, 24)) as server:
        session = server.sessions["default"]
        # max_queue=1: the client library stops reading the socket after one message.
        async with documented(server, subprotocols=[stream], max_queue=1, close_timeout=0.5) as ws:
            await wait_for(lambda: len(session.clients) == 1)
            [client] = session.clients
            go.touch()
            await wait_for(lambda: any("DONE" in line for line in model_text(server)), 60)
            assert client.overflows >= 1
            messages: list[Any] = []
            await receive_until(
                ws, messages, lambda m: bool(m) and b"DONE" in m[-1], "DONE", timeout=30
            )
        played = read_raw(messages) if stream == "raw" else read_alis(messages)
        assert screen(played).text() == model_text(server)
        if stream == "v1.alis":
            assert "gap" in played.markers()
