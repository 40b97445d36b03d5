"""A watch token sending ``resync`` in a loop costs one snapshot per interval, not one per request.

Before, every ``{"type":"resync"}`` got a snapshot (a parse of the backlog and a repaint of the
screen): a loop of them took 110-135 snapshots a second and slowed the agent to 0.4-0.6x. The
spammer here is a real WebSocket client on a real server whose agent prints without pause.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from observer.protocol.events import SnapshotReceived
from observer.server.terminal_session import RESYNC_INTERVAL
from tests.integration.server_support import (
    WATCH_TOKEN,
    close_draining,
    observe,
    running_server,
)

pytestmark = pytest.mark.timeout(60)
AGENT = ["sh", "-c", "i=0; while true; do i=$((i+1)); echo line $i; sleep 0.001; done"]
RESYNC = '{"type":"resync"}'
SECONDS = 2.5


async def test_a_resync_flood_gets_one_snapshot_per_interval() -> None:
    async with (
        running_server(AGENT) as server,
        observe(server, token=WATCH_TOKEN) as spammer,
        observe(server, token=WATCH_TOKEN) as bystander,
    ):
        for client in (spammer, bystander):  # their snapshots at joining
            await client.until(lambda c: any(isinstance(e, SnapshotReceived) for e in c.events))
        joined = sum(isinstance(e, SnapshotReceived) for e in spammer.events)
        sent = 0

        async def flood() -> None:
            # As fast as the connection takes them: once the server stops reading a spammer,
            # its sends wait in its own socket.
            nonlocal sent
            while True:
                await spammer.ws.send(RESYNC)
                sent += 1
                if sent % 20 == 0:
                    await asyncio.sleep(0)  # the server shares this loop: let it run

        flooding = asyncio.create_task(flood())
        began = time.monotonic()
        await spammer.until(lambda c: time.monotonic() - began > SECONDS, timeout=SECONDS + 10)
        flooding.cancel()
        elapsed = time.monotonic() - began
        snapshots = sum(isinstance(e, SnapshotReceived) for e in spammer.events) - joined
        # One at once, then at most one per interval.
        assert 1 <= snapshots <= 1 + elapsed / RESYNC_INTERVAL, (snapshots, sent, elapsed)
        assert sent > 100 * snapshots  # it asked far more often than it was answered
        # A watcher beside it streams on and never needed a snapshot after joining.
        before = len(bystander.stream)
        await bystander.until(lambda c: len(c.stream) > before + 1000)
        assert sum(isinstance(e, SnapshotReceived) for e in bystander.events) == 1
        # Its close frame waits behind its own flood: leave without the closing handshake.
        spammer.ws.transport.abort()
        await close_draining(bystander.ws)
