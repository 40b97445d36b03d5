"""A watch token churning connections is refused past its rate, costs few repaints, and
writes a few log lines and a summary, not one line per attempt.

Before, four threads of one watch token connecting, reading the snapshot and resetting opened
670 connections a second, each with a fresh snapshot, slowed the agent to 0.50-0.58x and wrote
13,408 log lines in 10 s. Real server with a busy agent, real clients on loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import pytest

from tests.hostile.test_hostile_hoarding import open_connection
from tests.integration.server_support import WATCH_TOKEN, running_server

pytestmark = pytest.mark.timeout(60)
AGENT = ["sh", "-c", "i=0; while true; do i=$((i+1)); echo line $i; sleep 0.002; done"]
SECONDS = 3.0
WORKERS = 4
RATE, BURST = 16, 64
"""New connections a second one token may open, and at once (``observer.server.limits``)."""
REPAINTS = 20
"""Snapshots a session makes a second at most (``observer.server.snapshots``)."""


async def test_connection_churn_is_paced_and_logged_in_summary(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "observer.server")
    async with running_server(AGENT) as server:
        opened, refused = 0, 0

        async def churn(until: float) -> None:
            nonlocal opened, refused
            while time.monotonic() < until:
                async with contextlib.AsyncExitStack() as stack:  # reset, no closing handshake
                    ws = await open_connection(stack, server, WATCH_TOKEN)
                    if isinstance(ws, tuple):
                        assert ws[0] == 429
                        refused += 1
                        continue
                    opened += 1
                    await ws.recv()  # hello
                    await ws.recv()  # snapshot

        session = server.sessions["default"]
        repaints = session.snapshots.taken
        lines = len(caplog.records)
        began = time.monotonic()
        await asyncio.gather(*(churn(began + SECONDS) for _ in range(WORKERS)))
        elapsed = time.monotonic() - began
        repaints = session.snapshots.taken - repaints
    logged = [
        r.getMessage() for r in caplog.records[lines:]
    ]  # summaries come at the latest at stop
    assert opened <= BURST + RATE * elapsed * 1.2, (opened, refused, elapsed)
    assert refused >= WORKERS  # told to slow down (each 429 comes a second late)
    assert repaints <= REPAINTS * elapsed + 2, repaints
    # A few lines of each kind, then one summary per kind when its window ends.
    assert len(logged) <= 40, (len(logged), logged[:5])
    assert any("more refusals 429 from token" in line for line in logged)
