"""When the fan-out passes its budget, one token's many readers are shed, not everybody.

Before, passing the budget shed every watcher to snapshots together: fifty readers of one
watch token pushed another token's honest watcher off its stream too. Now a token's connections
beyond its fair share go first. The budget is set to nothing here, so that every batch of
output passes it (on a real machine that takes a flood and many watchers); the server, its
PTY and the clients are real.
"""

from __future__ import annotations

import contextlib
import time

import pytest

from observer.protocol.events import SnapshotReceived
from observer.server.clients import FanoutBudget
from tests.integration.server_support import crowd, running_server

pytestmark = pytest.mark.timeout(60)
AGENT = ["sh", "-c", "i=0; while true; do i=$((i+1)); echo line $i; sleep 0.005; done"]
READERS = 10


def snapshots(client: object) -> int:
    return sum(isinstance(e, SnapshotReceived) for e in client.events)  # type: ignore[attr-defined]


async def test_one_tokens_readers_are_shed_before_another_tokens_watcher() -> None:
    async with running_server(AGENT) as server, contextlib.AsyncExitStack() as stack:
        honest, *readers = await crowd(stack, server, READERS)  # each with its joining snapshot
        server.sessions["default"].fanout.budget = FanoutBudget(share=0.0)  # always over
        joined = snapshots(honest)
        began = time.monotonic()
        while time.monotonic() - began < 2.0:
            for client in (honest, *readers):
                before = len(client.stream)
                await client.until(lambda c, n=before: len(c.stream) > n or snapshots(c) > 1)
        assert snapshots(honest) == joined, "the honest watcher was shed"
        shed = [r for r in readers if snapshots(r) > 1]
        assert len(shed) >= READERS - 1  # all of the token's readers beyond the first
        assert honest.stream.count(b"line") > 50
