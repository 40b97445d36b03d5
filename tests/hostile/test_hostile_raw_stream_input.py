"""A watcher on the raw stream or an asciinema stream types into the agent's terminal.

The raw stream (no subprotocol, the request as the platform documents it) takes binary
messages as input: only from the holder of the keyboard. Watchers, whatever their token, and
asciinema viewers send bytes that must never reach the PTY; a watch token cannot ask for
control; a revoked token's stream is closed and its control released; these streams count
against their token's connection limit. Before, the documented request was refused (400), so
none of this could be tried. Real server, real PTY (whose echo would show any byte that reached
it), real clients.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Subprotocol

from observer.auth.tokens import Authenticator, TokenDigests
from observer.cli import main
from observer.server import Server
from tests.integration.server_support import (
    CONTROL_TOKEN,
    PY,
    WATCH_TOKEN,
    closed_code,
    observe,
    running_server,
    url,
    wait_for,
)
from tests.stream_readers import read_raw, receive_until, screen

pytestmark = pytest.mark.timeout(60)
DOCUMENTED = "/?identifier=default&api-version=2024-02-02-preview"
ECHO = "import sys\nfor line in sys.stdin: print('got', line.strip(), flush=True)"
ATTACK = b"pwned\r" * 50


def open_raw(server: Server, token: str, query: str = "", sub: str | None = None) -> Any:
    return connect(
        url(server, DOCUMENTED + query),
        additional_headers={"Authorization": f"Bearer {token}"},
        subprotocols=[Subprotocol(sub)] if sub else None,
    )


def output(server: Server) -> bytes:
    session = server.sessions["default"]
    return session.ring.since(0)


async def probe(server: Server) -> None:
    """A controller's line, through to the agent and back: everything sent before it was read."""
    async with observe(server, control=True) as controller:
        await controller.send(controller.session.encode_input(b"probe\r"))
        await controller.until(lambda c: any("got probe" in row for row in c.text()))


@pytest.mark.parametrize(
    ("token", "sub"),
    [(WATCH_TOKEN, None), (CONTROL_TOKEN, None), (WATCH_TOKEN, "raw"), (CONTROL_TOKEN, "v1.alis")],
)
async def test_a_watchers_bytes_never_reach_the_pty(token: str, sub: str | None) -> None:
    async with running_server([PY, "-c", ECHO]) as server, open_raw(server, token, sub=sub) as ws:
        messages: list[Any] = []
        await receive_until(ws, messages, lambda m: len(m) >= 2, "the first screen")
        for _ in range(20):
            await ws.send(ATTACK)
        await probe(server)
        assert b"pwned" not in output(server)
        if sub is None:  # the watcher keeps its stream: the probe reached it too
            await receive_until(
                ws,
                messages,
                lambda m: any("got probe" in row for row in screen(read_raw(m)).text()),
                "the probe's output on the watcher's stream",
            )


async def test_text_from_a_watcher_closes_its_stream_and_reaches_nothing() -> None:
    async with running_server([PY, "-c", ECHO]) as server:
        for sub in (None, "v2.asciicast"):
            async with open_raw(server, WATCH_TOKEN, sub=sub) as ws:
                await ws.send("pwned\r")
                assert await closed_code(ws) == 1003
        await probe(server)
        assert b"pwned" not in output(server)


async def test_a_watch_token_cannot_ask_for_control_of_the_raw_stream() -> None:
    async with running_server([PY, "-c", ECHO]) as server:
        with pytest.raises(InvalidStatus) as refused:
            async with open_raw(server, WATCH_TOKEN, "&mode=control"):
                pass
        assert refused.value.response.status_code == 403
        with pytest.raises(InvalidStatus) as refused:
            async with open_raw(server, "not-a-token", "&mode=control"):
                pass
        assert refused.value.response.status_code == 403
        assert refused.value.response.body == b"Unauthenticated"


async def test_a_revoked_tokens_raw_controller_is_closed_and_control_released(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tokens"
    assert main(["token", "issue", "control", "--label", "leaked", "--file", str(path)]) == 0
    leaked = capsys.readouterr().out.strip()
    auth = Authenticator(TokenDigests.load(path))
    async with (
        running_server([PY, "-c", ECHO], auth=auth) as server,
        open_raw(server, leaked, "&mode=control") as ws,
    ):
        session = server.sessions["default"]
        await wait_for(lambda: session.arbiter.holder is not None)
        assert main(["token", "revoke", "leaked", "--file", str(path)]) == 0
        assert await closed_code(ws) == 1008 and ws.close_reason == "token revoked"
        await wait_for(lambda: session.arbiter.holder is None)


async def test_raw_streams_count_against_the_tokens_connection_limit() -> None:
    async with (
        running_server([PY, "-c", ECHO], max_per_token=2) as server,
        open_raw(server, WATCH_TOKEN),
        open_raw(server, WATCH_TOKEN, sub="v1.alis"),
    ):
        with pytest.raises(InvalidStatus) as refused:
            async with open_raw(server, WATCH_TOKEN):
                pass
        assert refused.value.response.status_code == 503
