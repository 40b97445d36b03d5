"""One watch token cannot lock anybody out, nor start programs on the sandbox.

Before, the 256-connection cap was global, with no limit per token and no room kept for a
controller: one watch token could take every place. With ``--create-on-connect`` a watch token
started a new agent process per identifier it made up (63 of them). Real server, real clients.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from observer.auth.tokens import Authenticator, TokenDigests
from observer.protocol.adapters.native import query as native_query
from observer.server import Server
from tests.integration.server_support import observe, running_server

pytestmark = pytest.mark.timeout(120)
HOARDER, OTHER_WATCHER, CONTROLLER = "hoarder-watch-token", "other-watch-token", "control-token"
AUTH = Authenticator(
    TokenDigests.from_tokens(
        [("watch", HOARDER), ("watch", OTHER_WATCHER), ("control", CONTROLLER)]
    )
)
SLEEP = ["sleep", "60"]


async def open_connection(
    stack: contextlib.AsyncExitStack, server: Server, token: str, identifier: str = "default"
) -> ClientConnection | tuple[int, str]:
    """An open connection, or the refusal's status and body."""
    query = native_query(identifier)
    try:
        ws = await connect(
            f"ws://127.0.0.1:{server.port}{query}",
            additional_headers={"Authorization": f"Bearer {token}"},
            subprotocols=["observer.v1"],
            max_size=None,
        )
    except InvalidStatus as error:
        return error.response.status_code, error.response.body.decode()
    # A hoarder reads nothing; its connections end without a closing handshake.
    stack.callback(ws.transport.abort)
    return ws


async def hoard(
    stack: contextlib.AsyncExitStack, server: Server, token: str, most: int
) -> tuple[int, tuple[int, str] | None]:
    """Open connections with ``token`` until refused (or ``most``): how many, and the refusal.
    Like a patient hoarder, it waits and retries when told it comes too fast (429)."""
    count = 0
    while count < most:
        opened = await open_connection(stack, server, token)
        if isinstance(opened, tuple) and opened[0] == 429:
            await asyncio.sleep(0.05)
            continue
        if isinstance(opened, tuple):
            return count, opened
        count += 1
    return most, None


@contextlib.asynccontextmanager
async def hoarded(server: Server, most: int) -> AsyncIterator[tuple[int, tuple[int, str] | None]]:
    async with contextlib.AsyncExitStack() as stack:
        yield await hoard(stack, server, HOARDER, most)


async def test_a_watch_token_at_its_limit_leaves_room_for_a_controller_and_other_watchers() -> None:
    """The defaults: 256 connections, 128 per token."""
    async with running_server(SLEEP, auth=AUTH) as server, hoarded(server, 200) as (held, refusal):
        assert refusal is not None, "one watch token opened 200 connections"
        assert held == 128
        assert refusal[0] == 503 and "this token" in refusal[1]
        async with (
            observe(server, token=CONTROLLER, control=True) as controller,
            observe(server, token=OTHER_WATCHER) as watcher,
        ):
            assert controller.mode == "control"
            assert watcher.session.offset is not None


async def test_watch_tokens_together_never_take_the_places_kept_for_control() -> None:
    async with (
        running_server(SLEEP, auth=AUTH, max_connections=24) as server,
        contextlib.AsyncExitStack() as stack,
    ):
        first, _ = await hoard(stack, server, HOARDER, 30)
        second, refusal = await hoard(stack, server, OTHER_WATCHER, 30)
        assert first + second < 24
        assert refusal is not None and refusal[0] == 503 and "control" in refusal[1]
        async with observe(server, token=CONTROLLER, control=True) as controller:
            assert controller.mode == "control"


async def test_only_a_control_token_starts_a_session_on_demand() -> None:
    async with running_server(SLEEP, auth=AUTH, create_on_connect=True) as server:
        async with contextlib.AsyncExitStack() as stack:
            for index in range(10):
                refused = await open_connection(stack, server, HOARDER, f"made-up-{index}")
                assert isinstance(refused, tuple) and refused[0] == 403
                assert "control token" in refused[1]
        assert sorted(server.sessions) == ["default"]  # no program was started
        async with observe(server, token=CONTROLLER, identifier="asked-for"):
            pass
        assert sorted(server.sessions) == ["asked-for", "default"]
        async with observe(server, token=HOARDER, identifier="asked-for") as watcher:
            assert watcher.session.offset is not None  # existing sessions can be watched
