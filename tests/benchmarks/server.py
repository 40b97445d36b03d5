"""Benchmark of ``observer serve``: does watching slow the agent, and how fast is a late join?

Run: ``python -m tests.benchmarks.server [--megabytes 40]``. The server runs as its own process
(``observer serve``), the watchers are real WebSocket clients in this process, the agent is
``head -c N /dev/zero | tr '\\0' x`` on the PTY, timed by itself (it writes its start and end to
a file). Printed: agent throughput with 0, 10 and 100 reading watchers and with one stalled
watcher, as ratios to 0 watchers; and the time from connecting to holding a full screen for a
late joiner after 100 MB of output, against re-feeding those 100 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from observer.protocol.events import SnapshotReceived
from observer.protocol.session import NativeClientSession

ROOT = Path(__file__).resolve().parents[2]

AGENT = (
    "while [ ! -e {go} ]; do sleep 0.01; done; "
    "s=$(date +%s.%N); head -c {n} /dev/zero | tr '\\0' x; e=$(date +%s.%N); "
    "echo $s $e > {result}; printf '\\033[2J\\033[HDONE'; sleep 600"
)


@contextlib.asynccontextmanager
async def serve(command: str):  # type: ignore[no-untyped-def]
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "observer", "serve", "--insecure-no-auth",
        "--listen", "127.0.0.1:0", "--", "sh", "-c", command,
        cwd=ROOT, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stderr is not None
    port = 0
    while not port:
        line = (await process.stderr.readline()).decode()
        if not line:
            raise SystemExit("observer serve did not start")
        if found := re.search(r"ws://127\.0\.0\.1:(\d+)/", line):
            port = int(found.group(1))
    try:
        yield port
    finally:
        process.terminate()
        await process.wait()


async def watcher(port: int, stalled: bool = False) -> ClientConnection:
    query = NativeClientSession().query("default")
    return await connect(
        f"ws://127.0.0.1:{port}{query}",
        subprotocols=["observer.v1"],
        max_size=None,
        max_queue=1 if stalled else 16,
        close_timeout=0.5,
    )


async def drain(ws: ClientConnection) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for _ in ws:
            pass


async def raw_reader(port: int) -> asyncio.Task[None]:
    """A watcher that upgrades like any client, then reads and discards bytes in bulk.

    It costs this process far less than a full client, so that on a small machine the benchmark
    measures the server's fan-out rather than the clients' parsing.
    """
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    query = NativeClientSession().query("default")
    writer.write(
        f"GET {query} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: observer.v1\r\n\r\n".encode()
    )
    status = await reader.readline()
    assert b" 101 " in status, status

    async def read_all() -> None:
        with contextlib.suppress(ConnectionError):
            while await reader.read(1 << 20):
                pass
        writer.close()

    return asyncio.create_task(read_all())


async def agent_throughput(
    megabytes: int, watchers: int, stalled: bool, full_clients: bool = False
) -> float:
    """MB/s the agent achieved writing ``megabytes`` MB while being watched."""
    with tempfile.TemporaryDirectory() as tmp:
        go, result = Path(tmp) / "go", Path(tmp) / "result"
        command = AGENT.format(go=go, result=result, n=megabytes * 1_000_000)
        async with serve(command) as port:
            clients: list[ClientConnection] = []
            if full_clients:
                clients = [await watcher(port) for _ in range(watchers)]
                readers = [asyncio.create_task(drain(ws)) for ws in clients]
            else:
                readers = [await raw_reader(port) for _ in range(watchers)]
            if stalled:
                clients.append(await watcher(port, stalled=True))
            go.touch()
            while not result.exists() or not result.read_text().strip():
                await asyncio.sleep(0.02)
            start, end = map(float, result.read_text().split())
            for ws in clients:
                ws.transport.abort()
            for task in readers:
                task.cancel()
            return megabytes / (end - start)


async def late_join(megabytes: int) -> tuple[float, float]:
    """Seconds from connecting to a full screen after ``megabytes`` MB, and the agent's time."""
    with tempfile.TemporaryDirectory() as tmp:
        go, result = Path(tmp) / "go", Path(tmp) / "result"
        go.touch()
        command = AGENT.format(go=go, result=result, n=megabytes * 1_000_000)
        async with serve(command) as port:
            while not result.exists() or not result.read_text().strip():
                await asyncio.sleep(0.05)
            await asyncio.sleep(1.0)  # let the server's model finish its backlog
            session = NativeClientSession()
            began = time.perf_counter()
            ws = await watcher(port)
            while True:
                events = session.receive(await ws.recv())
                if any(isinstance(e, SnapshotReceived) for e in events):
                    break
            elapsed = time.perf_counter() - began
            await ws.close()
            start, end = map(float, result.read_text().split())
            return elapsed, end - start


async def main(megabytes: int, rounds: int) -> None:
    print(f"agent: head -c {megabytes} MB | tr on the PTY; watchers are real websockets clients")
    rows = [("0 watchers", 0, False), ("10 watchers", 10, False), ("100 watchers", 100, False)]
    rows += [("1 stalled watcher", 0, True), ("100 watchers + 1 stalled", 100, True)]
    # The machine is shared: run the scenarios in rounds and keep each one's median.
    rates: dict[str, list[float]] = {name: [] for name, _, _ in rows}
    for _ in range(rounds):
        for name, count, stalled in rows:
            rates[name].append(await agent_throughput(megabytes, count, stalled))
    baseline = statistics.median(rates[rows[0][0]])
    print(f"{'scenario':<28}{'MB/s (median of ' + str(rounds) + ')':>22}{'ratio':>8}")
    for name, _, _ in rows:
        rate = statistics.median(rates[name])
        print(f"{name:<28}{rate:>22.1f}{rate / baseline:>8.2f}")
    elapsed, flood = await late_join(100)
    print(f"late joiner after 100 MB: first full screen in {elapsed * 1000:.1f} ms")
    print(
        f"  (the agent took {flood:.2f} s to write those 100 MB; replaying them would take longer)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--megabytes", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.megabytes, arguments.rounds))
