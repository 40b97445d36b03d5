"""`observer serve` paces the garbage collector while its agents write (:mod:`observer.runtime.collector`):
with 40 agents drawing, the server's own full collections stopped every watcher's tiles for up to
330 ms. A real server, real PTYs."""

from __future__ import annotations

import asyncio
import contextlib
import gc

from observer.commands.serve import _pace_collector
from observer.runtime.collector import FREEZE_AT, QUIET_AFTER
from tests.integration.server_support import PY, running_server
from tests.waiting import until

WRITER = "import time\nwhile True:\n    print('x' * 60, flush=True)\n    time.sleep(0.02)"


async def test_a_server_is_busy_while_a_program_writes_and_quiet_after() -> None:
    async with running_server(
        ["sh", "-c", "echo once; sleep 30"], auth=None, insecure=True
    ) as server:
        await until(lambda: server.busy(QUIET_AFTER), "the program's output")
        await asyncio.sleep(0.3)  # quiet for a while: the time since the last output is the test
        assert server.busy(1.0)
        assert not server.busy(0.2)


async def test_the_server_freezes_what_survives_while_agents_write_and_gives_it_back() -> None:
    kept = [[] for _ in range(3 * FREEZE_AT)]  # long-lived objects in the oldest generation
    gc.collect()
    async with running_server([PY, "-c", WRITER], auth=None, insecure=True) as server:
        pacing = asyncio.create_task(_pace_collector(server))
        try:
            await until(lambda: gc.get_freeze_count() >= len(kept), "the freeze")
        finally:
            pacing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pacing
    assert gc.get_freeze_count() == 0  # everything frozen is the collector's again
