"""A watch connection that floods pings and never reads costs the server a bounded amount.

Before, pings were not messages: no budget paced them, each pong was queued for a transport
the client never drained (the server's memory grew by about 1 MiB per MB of pings), and
websockets' keepalive waited forever to send its own ping into the full transport. Now control
frames spend the connection's budget, a client whose unsent bytes pass the bound stops being
read, and after a grace period it is closed with 1008. Real server, real PTY, a raw socket
attacker in a thread; a real client watches beside it.
"""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from observer.server.websocket_adapter import FrameSocket
from tests.hostile.flooders import Flooder, upgrade
from tests.integration.server_support import WATCH_TOKEN, observe, running_server, wait_for

pytestmark = pytest.mark.timeout(60)
MOST = 2 * 1024 * 1024
"""Bytes the server may come to hold for the attacker (its bound is 1 MiB when it sends)."""
WITHIN = 40.0
"""Seconds within which the attacker is closed (reaching the bound at the budget's pace, then
the grace period)."""
AGENT = ["sh", "-c", "i=0; while true; do i=$((i+1)); echo line $i; sleep 0.01; done"]


async def test_a_ping_flood_that_never_reads_is_bounded_then_closed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "observer.server")
    async with running_server(AGENT) as server, observe(server, token=WATCH_TOKEN) as honest:
        sock = await asyncio.to_thread(upgrade, server.port, WATCH_TOKEN)
        await wait_for(lambda: len(server._live) == 2)
        attacker = next(ws for ws in server._live if ws is not honest_ws(server, honest))
        flooder = Flooder(sock).start()
        began, most = time.monotonic(), 0
        try:
            while attacker in server._live and time.monotonic() - began < WITHIN:
                most = max(most, FrameSocket(attacker).unsent())
                await asyncio.sleep(0.01)
            closed_after = time.monotonic() - began
            assert attacker not in server._live, f"still served after {closed_after:.1f} s"
            assert "client not reading (1008)" in caplog.text
        finally:
            flooder.stop()
        assert most <= MOST, most
        # Its pings were read at the budget's pace, not as fast as they came.
        assert flooder.sent > 0
        # The honest watcher beside it kept its stream.
        before = len(honest.stream)
        await honest.until(lambda c: len(c.stream) > before + 100)


def honest_ws(server: object, honest: object) -> object:
    """The server's side of the honest client's connection: the one that joined first."""
    live = server._live  # type: ignore[attr-defined]
    return min(live, key=lambda ws: live[ws][1])
