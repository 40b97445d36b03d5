"""Fifty connections of one watch token at the per-connection message limit are read at the
token's rate, not fifty times it.

Before, the budget was per connection (500 messages a second): fifty connections of one watch
token sending ``release`` in a loop made the server decide 25,000 messages a second, which
slowed the agent to 0.16-0.32x and starved another token's watcher. Now a token's connections
share one budget, and its burst is small (a burst of 2,000 messages, spent by fifty connections
at once, cost the agent a stretch of the server's time). Each ``release`` from a watcher is
answered with an error frame, so the answers count what the server read. Real server, real
clients on loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

import pytest
from websockets.asyncio.client import ClientConnection

from tests.integration.server_support import WATCH_TOKEN, observe, running_server

pytestmark = pytest.mark.timeout(60)
CONNECTIONS = 50
SECONDS = 3.0
TOKEN_RATE, TOKEN_BURST = 500, 100
"""What one token's connections may send together (``observer.server.limits``)."""
RELEASE = '{"type":"release"}'


async def test_a_tokens_connections_share_one_message_budget() -> None:
    async with running_server(["sleep", "60"], max_per_token=CONNECTIONS + 1) as server:
        answered = 0

        async def attack(ws: ClientConnection, until: float) -> None:
            nonlocal answered

            async def read() -> None:
                nonlocal answered
                async for message in ws:
                    if isinstance(message, str) and json.loads(message)["type"] == "error":
                        answered += 1

            reader = asyncio.create_task(read())
            try:
                sent = 0
                while time.monotonic() < until:
                    await ws.send(RELEASE)
                    sent += 1
                    if sent % 50 == 0:
                        await asyncio.sleep(0)
            finally:
                reader.cancel()

        async with contextlib.AsyncExitStack() as stack:
            clients = [
                await stack.enter_async_context(observe(server, token=WATCH_TOKEN))
                for _ in range(CONNECTIONS)
            ]
            began = time.monotonic()
            await asyncio.gather(*(attack(c.ws, began + SECONDS) for c in clients))
            elapsed = time.monotonic() - began
            for client in clients:
                client.ws.transport.abort()
    assert answered <= TOKEN_BURST + TOKEN_RATE * elapsed * 1.2, (answered, elapsed)
