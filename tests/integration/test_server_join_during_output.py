"""A client joining while the agent is printing is not told it missed anything."""

from __future__ import annotations

from observer.protocol.events import SessionStarted, SnapshotReceived
from tests.integration.server_support import PY, observe, running_server, wait_for

# Numbered lines without pause: the server's model is usually behind the PTY when a client joins.
FLOOD = [PY, "-c", "import sys\nfor i in range(10**9): sys.stdout.write(f'line {i} ' * 8 + '\\n')"]


async def test_joining_during_a_flood_starts_at_the_snapshot_without_a_gap() -> None:
    async with running_server(FLOOD, size=(80, 24)) as server:
        session = server.sessions["default"]
        await wait_for(lambda: session.ring.end > 2_000_000, timeout=30)
        for _ in range(5):
            async with observe(server) as client:
                await client.until(lambda c: any(isinstance(e, SnapshotReceived) for e in c.events))
                started = next(e for e in client.events if isinstance(e, SessionStarted))
                snapshot = next(e for e in client.events if isinstance(e, SnapshotReceived))
                # hello's offset is where this client's stream begins: the snapshot's own.
                assert snapshot.offset == started.offset
                assert not snapshot.gap
