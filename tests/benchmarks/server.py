"""Benchmark of ``observer serve``: does watching slow the agent, and how fast is a late join?

Run: ``python -m tests.benchmarks.server [--megabytes 40]``. The server runs as its own process
(``observer serve``), the watchers are real WebSocket clients in this process, the agent is
``head -c N /dev/zero | tr '\\0' x`` on the PTY, timed by itself (it writes its start and end to
a file). Printed: agent throughput with 0, 10 and 100 reading watchers and with one stalled
watcher, as ratios to 0 watchers; and the time from connecting to holding a full screen for a
late joiner after 100 MB of output, against re-feeding those 100 MB; and the keystroke echo of
the holder against a bare WebSocket echo (both in this process, on loopback).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
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
        yield port, process.pid
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


async def raw_reader(port: int, received: list[int]) -> asyncio.Task[None]:
    """A watcher that upgrades like any client, then reads and discards bytes in bulk.

    It costs this process far less than a full client, so that on a small machine the benchmark
    measures the server's fan-out rather than the clients' parsing. Appends a counter of the
    bytes it reads to ``received`` (frames and all: output the server dropped for a snapshot
    shows as a count below the agent's).
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

    slot = len(received)
    received.append(0)

    async def read_all() -> None:
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(1 << 20):
                received[slot] += len(data)
        writer.close()

    return asyncio.create_task(read_all())


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (Linux /proc, proc(5))."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def agent_throughput(
    megabytes: int, watchers: int, stalled: bool, full_clients: bool = False
) -> tuple[float, float, float]:
    """MB/s the agent achieved writing ``megabytes`` MB while watched, the server's CPU
    seconds per MB meanwhile (less noisy on a shared machine than the agent's rate), and the
    median share of the output the reading watchers received as bytes rather than snapshots."""
    with tempfile.TemporaryDirectory() as tmp:
        go, result = Path(tmp) / "go", Path(tmp) / "result"
        command = AGENT.format(go=go, result=result, n=megabytes * 1_000_000)
        async with serve(command) as (port, pid):
            clients: list[ClientConnection] = []
            received: list[int] = []
            if full_clients:
                clients = [await watcher(port) for _ in range(watchers)]
                readers = [asyncio.create_task(drain(ws)) for ws in clients]
            else:
                readers = [await raw_reader(port, received) for _ in range(watchers)]
            if stalled:
                clients.append(await watcher(port, stalled=True))
            cpu_before = cpu_seconds(pid)
            go.touch()
            while not result.exists() or not result.read_text().strip():
                await asyncio.sleep(0.02)
            start, end = map(float, result.read_text().split())
            cpu = (cpu_seconds(pid) - cpu_before) / megabytes
            await asyncio.sleep(0.2)  # what was already sent arrives
            delivered = statistics.median(received) / (megabytes * 1e6) if received else 1.0
            for ws in clients:
                ws.transport.abort()
            for task in readers:
                task.cancel()
            return megabytes / (end - start), cpu, delivered


async def late_join(megabytes: int) -> tuple[float, float]:
    """Seconds from connecting to a full screen after ``megabytes`` MB, and the agent's time."""
    with tempfile.TemporaryDirectory() as tmp:
        go, result = Path(tmp) / "go", Path(tmp) / "result"
        go.touch()
        command = AGENT.format(go=go, result=result, n=megabytes * 1_000_000)
        async with serve(command) as (port, _):
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


SCENARIOS = [
    ("0 watchers", 0, False),
    ("10 watchers", 10, False),
    ("100 watchers", 100, False),
    ("1 stalled watcher", 0, True),
    ("100 watchers + 1 stalled", 100, True),
]


def spread(values: list[float]) -> str:
    """``min–max`` of a list of figures, as text."""
    return f"{min(values):.2f}-{max(values):.2f}"


async def main(megabytes: int, rounds: int, only: list[str], extras: bool) -> None:
    print(
        f"agent: head -c {megabytes}MB /dev/zero | tr on the PTY, timing itself; watchers are "
        "real WebSocket connections reading everything (the stalled one never reads)"
    )
    rows = SCENARIOS[:1] + [row for row in SCENARIOS[1:] if not only or row[0] in only]
    # The machine is shared: the scenarios are taken in turns (ABCABC, not AABBCC), so that a
    # busy minute weighs on every scenario alike; ratios are taken within each round (against
    # that round's own 0-watcher run), then the medians and the spread over rounds are printed.
    rates: dict[str, list[float]] = {name: [] for name, _, _ in rows}
    costs: dict[str, list[float]] = {name: [] for name, _, _ in rows}
    ratios: dict[str, list[float]] = {name: [] for name, _, _ in rows}
    shares: dict[str, list[float]] = {name: [] for name, _, _ in rows}
    for number in range(rounds):
        order = rows if number % 2 == 0 else rows[:1] + rows[:0:-1]
        for name, count, stalled in order:
            rate, cost, share = await agent_throughput(megabytes, count, stalled)
            rates[name].append(rate)
            shares[name].append(share)
            costs[name].append(cost * 1000)
        for name, _, _ in rows:
            ratios[name].append(rates[name][-1] / rates[rows[0][0]][-1])
    print(f"medians of {rounds} rounds; load average {_load()}")
    print(
        f"{'scenario':<26}{'agent MB/s':>11}{'ratio':>7}{'ratio min-max':>15}"
        f"{'server CPU ms/MB':>18}{'min-max':>14}{'as bytes':>10}"
    )
    for name, _, _ in rows:
        rate = statistics.median(rates[name])
        # "as bytes": the median watcher's share of the output that reached it as output frames
        # (the rest it got as snapshots, having fallen behind or been shed).
        ratio = statistics.median(ratios[name])
        cost = statistics.median(costs[name])
        print(
            f"{name:<26}{rate:>11.1f}{ratio:>7.2f}{spread(ratios[name]):>15}"
            f"{cost:>18.1f}{spread(costs[name]):>14}{statistics.median(shares[name]):>10.0%}"
        )
    if not extras:
        return
    elapsed, flood = await late_join(100)
    replay = replay_seconds(100)
    print(f"late joiner after 100 MB: first full screen in {elapsed * 1000:.1f} ms")
    print(f"  replaying those 100 MB into a fresh model instead: {replay:.1f} s")
    print(f"  (the agent took {flood:.2f} s to write them)")
    ours, bare = await echo_milliseconds()
    print(f"keystroke echo in control mode: {ours:.2f} ms (bare WebSocket echo: {bare:.2f} ms)")


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


async def echo_milliseconds(rounds: int = 300) -> tuple[float, float]:
    """Median keystroke echo through the server (holder typing into ``cat`` on a raw PTY) and
    median echo of a bare websockets server on the same loopback, in ms."""
    from websockets.asyncio.server import serve as ws_serve

    from observer.server import Server

    async def echo(ws):  # type: ignore[no-untyped-def]
        async for message in ws:
            await ws.send(message)

    async def measure(ws: ClientConnection, wanted: bytes) -> float:
        times = []
        for _ in range(rounds):
            began = time.perf_counter()
            await ws.send(b"a")
            while True:
                message = await ws.recv()
                if isinstance(message, bytes) and wanted in message:
                    break
            times.append(time.perf_counter() - began)
        return statistics.median(times) * 1000

    async with ws_serve(echo, "127.0.0.1", 0, compression=None) as bare:
        port = bare.sockets[0].getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}", compression=None) as ws:
            bare_ms = await measure(ws, b"a")
    server = Server(["sh", "-c", "stty raw -echo; exec cat"], auth=None, insecure=True)
    await server.start()
    try:
        query = NativeClientSession(control=True).query("default")
        async with connect(
            f"ws://127.0.0.1:{server.port}{query}", subprotocols=["observer.v1"], max_size=None
        ) as ws:
            await asyncio.sleep(0.3)  # let stty run
            ours_ms = await measure(ws, b"a")
    finally:
        await server.stop()
    return ours_ms, bare_ms


def replay_seconds(megabytes: int) -> float:
    """Time to feed ``megabytes`` MB of the agent's output to a fresh model (8 MB measured)."""
    from observer.terminal import TerminalModel

    model = TerminalModel(cols=120, rows=40, scrollback=0)
    chunk = b"x" * 65536
    sample = 8 * 1024 * 1024
    began = time.perf_counter()
    for _ in range(sample // len(chunk)):
        model.feed(chunk)
    return (time.perf_counter() - began) * megabytes * 1_000_000 / sample


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--megabytes", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        choices=[name for name, _, _ in SCENARIOS],
        help="run this scenario (repeatable; the 0-watcher baseline always runs)",
    )
    parser.add_argument(
        "--no-extras", action="store_true", help="skip the late-join and echo measurements"
    )
    arguments = parser.parse_args()
    asyncio.run(
        main(arguments.megabytes, arguments.rounds, arguments.only, not arguments.no_extras)
    )
