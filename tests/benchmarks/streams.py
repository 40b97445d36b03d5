"""Benchmark: what watchers of the raw and asciinema streams cost the server, against
``observer.v1`` watchers, in the same run.

Run: ``python -m tests.benchmarks.streams [--megabytes 10] [--watchers 8] [--rounds 3]``. The
server runs as its own process (``observer serve --insecure-no-auth``); the watchers are real
WebSocket connections in this process, each offering one subprotocol and reading every message
until the agent's last line; the agent is ``yes`` cut at N bytes on the PTY. Printed, per kind of
watcher: the server's CPU seconds and the agent's time (its own start and end, written to a
file), medians and ranges over the rounds, and the CPU as a ratio to ``observer.v1`` watchers.
Each ``observer.v1`` watcher shares one prebuilt frame per batch; every other stream is encoded
per client as it is sent (times, UTF-8 text, JSON or ALiS framing).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Subprotocol

from tests.hostile.serve_process import serve_process

KINDS = ("none", "observer.v1", "raw", "v1.alis", "v3.asciicast", "v2.asciicast")
DOCUMENTED = "/?identifier=default&api-version=2024-02-02-preview"
AGENT = (
    "while [ ! -e {go} ]; do sleep 0.01; done; date +%s.%N > {times}; "
    "yes 'build step 0123456789 compiling module' | head -c {size}; "
    "printf 'ALL-DONE'; date +%s.%N >> {times}; sleep 60"
)


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` (proc(5): fields 14 and 15, in ticks)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def read_to_the_end(ws: ClientConnection) -> None:
    """Receive until the agent's last word arrives (in any stream's encoding)."""
    while True:
        message = await ws.recv()
        data = message.encode() if isinstance(message, str) else message
        if b"ALL-DONE" in data:
            return


async def one_round(kind: str, megabytes: int, watchers: int) -> tuple[float, float]:
    """The server's CPU seconds and the agent's seconds, with ``watchers`` of ``kind``."""
    with tempfile.TemporaryDirectory() as folder:
        go, times = Path(folder) / "go", Path(folder) / "times"
        agent = AGENT.format(go=go, times=times, size=megabytes * 1_000_000)
        async with serve_process(["--insecure-no-auth", "--size", "120x40"], agent) as serve:
            url = f"ws://127.0.0.1:{serve.port}{DOCUMENTED}"
            count = 0 if kind == "none" else watchers
            offered = [Subprotocol(kind)]
            sockets = [
                await connect(url, subprotocols=offered, max_size=None) for _ in range(count)
            ]
            before = cpu_seconds(serve.process.pid)
            go.touch()
            async with asyncio.timeout(300):
                await asyncio.gather(*(read_to_the_end(ws) for ws in sockets))
                while len(times.read_text().split()) < 2 if times.exists() else True:
                    await asyncio.sleep(0.01)
            cpu = cpu_seconds(serve.process.pid) - before
            for ws in sockets:
                await ws.close()
            start, end = (float(line) for line in times.read_text().split())
            return cpu, end - start


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


async def main(megabytes: int, watchers: int, rounds: int) -> None:
    cpu: dict[str, list[float]] = {kind: [] for kind in KINDS}
    agent: dict[str, list[float]] = {kind: [] for kind in KINDS}
    for _ in range(rounds):  # interleaved: a noisy moment falls on every kind alike
        for kind in KINDS:
            spent, took = await one_round(kind, megabytes, watchers)
            cpu[kind].append(spent)
            agent[kind].append(took)
    native = statistics.median(cpu["observer.v1"])
    print(f"{megabytes} MB of output, {watchers} watchers of each kind, {rounds} rounds")
    print("| watchers | server CPU s | agent s | CPU / observer.v1 |")
    print("|---|---|---|---|")
    for kind in KINDS:
        ratio = statistics.median(cpu[kind]) / native
        print(f"| {kind} | {spread(cpu[kind])} | {spread(agent[kind])} | {ratio:.2f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=10)
    parser.add_argument("--watchers", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    asyncio.run(main(options.megabytes, options.watchers, options.rounds))
