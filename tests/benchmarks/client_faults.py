"""Client fault figures: resume after random cuts, blackhole detection. Not collected by pytest.

Run from the repository root::

    python -m tests.benchmarks.client_faults [--cuts 100]

Against the real ``observer.server.Server`` on 127.0.0.1 through ``tests.integration.faultproxy``:

- baseline: a fresh connect until the first snapshot (median of 10);
- resume: CUTS cuts at random offsets (seed 20261130) with reconnect + ``since=``; time per
  cut as a ratio to the baseline, gaps, and whether the SHA-256 of the assembled stream equals
  the PTY's;
- blackhole: time from the proxy silencing the connection to the client reporting it, as a
  ratio to ping interval + ping timeout (goal: <= 1.0 plus the close timeout).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import random
import statistics
import sys
import time

from observer.credentials.store import Secret
from observer.protocol.events import SnapshotReceived
from observer.transport.settings import ConnectionSettings
from tests.client_support import Client, Reconnecting
from tests.integration.faultproxy import Fault, FaultProxy
from tests.integration.test_client_native import TICKER, TOKEN, Assembler, native_server


async def first_snapshot(url: str) -> float:
    connection = Client(
        ConnectionSettings(url, identifier="agent", protocol="observer"), Secret(TOKEN)
    )
    started = time.perf_counter()
    async for event in connection.events():
        if isinstance(event, SnapshotReceived):
            elapsed = time.perf_counter() - started
            await connection.close()
            return elapsed
    raise RuntimeError("no snapshot")


async def cuts(server: object, count: int) -> tuple[float, int, bool, int]:
    rng = random.Random(20261130)
    async with FaultProxy("127.0.0.1", server.port) as proxy:  # type: ignore[attr-defined]
        proxy.plan(*(Fault(cut_after=rng.randint(150, 4000)) for _ in range(count)))
        settings = ConnectionSettings(
            f"ws://127.0.0.1:{proxy.port}",
            identifier="agent",
            protocol="observer",
            retry_first=True,
            initial_delay=0.01,
            max_delay=0.05,
            stable_after=60,
        )
        connection = Client(settings, Secret(TOKEN))
        assembler = Assembler()
        started = time.perf_counter()
        async for event in connection.events():
            assembler.add(event)
            if proxy.cuts >= count and not proxy.plans:
                break
        elapsed = time.perf_counter() - started
        await connection.close()
    session = server.sessions["agent"]  # type: ignore[attr-defined]
    assert assembler.base is not None
    truth = session.ring.since(assembler.base)[: len(assembler.stream)]
    same = hashlib.sha256(truth).digest() == hashlib.sha256(assembler.stream).digest()
    same = same and assembler.misaligned == 0  # every frame continued exactly where the last ended
    return elapsed / count, assembler.gaps, same, len(assembler.stream)


async def blackhole(server: object, interval: float, timeout: float) -> float:
    async with FaultProxy("127.0.0.1", server.port) as proxy:  # type: ignore[attr-defined]
        settings = ConnectionSettings(
            f"ws://127.0.0.1:{proxy.port}",
            identifier="agent",
            protocol="observer",
            ping_interval=interval,
            ping_timeout=timeout,
            close_timeout=0.2,
        )
        connection = Client(settings, Secret(TOKEN))
        stream = connection.events()
        async for event in stream:
            if isinstance(event, SnapshotReceived):
                break
        await asyncio.sleep(interval * random.random())  # silence at a random phase of the pings
        proxy.blackhole()
        started = time.perf_counter()
        async for event in stream:
            if isinstance(event, Reconnecting):
                break
        detected = time.perf_counter() - started
        await connection.close()
        await stream.aclose()
        return detected


async def main(count: int) -> None:
    async with native_server([sys.executable, "-c", TICKER]) as server:
        url = f"ws://127.0.0.1:{server.port}"  # type: ignore[attr-defined]
        baseline = statistics.median([await first_snapshot(url) for _ in range(10)])
        per_cut, gaps, same, size = await cuts(server, count)
        print(f"{'measure':<44} {'value':>12} {'ratio':>8}")
        print(
            f"{'fresh connect to first snapshot (baseline)':<44} {baseline * 1000:>9.1f} ms {1.0:>8.2f}"
        )
        print(
            f"{f'cut + reconnect + resume, per cut ({count})':<44} {per_cut * 1000:>9.1f} ms {per_cut / baseline:>8.2f}"
        )
        print(f"{'gaps reported':<44} {gaps:>12d}")
        print(f"{f'SHA-256 of {size} bytes equals the PTY':<44} {same!s:>12}")
        for interval, timeout in ((0.5, 0.5), (1.0, 1.0), (2.0, 1.0)):
            detected = await blackhole(server, interval, timeout)
            label = f"blackhole detected, ping {interval:g} s + timeout {timeout:g} s"
            print(f"{label:<44} {detected * 1000:>9.0f} ms {detected / (interval + timeout):>8.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cuts", type=int, default=100)
    asyncio.run(main(parser.parse_args().cuts))
