"""Benchmark of ``observer serve``: does watching slow the agent, and how fast is a late join?

Run: ``python -m tests.benchmarks.server [--megabytes 40]``. The server runs as its own process
(``observer serve``), the watchers are real WebSocket connections in a third process (so that
their reading is not counted as the server's cost, nor competes with it inside one process; each
reads every byte and follows the stream's offsets, and at the end must have reached the agent's
last byte through output frames and snapshots), the agent is
``head -c N /dev/zero | tr '\\0' x`` on the PTY, timed by itself (it writes its start and end to
a file). Printed: agent throughput with 0, 10 and 100 reading watchers, with one stalled
watcher and with one watcher sending ``resync`` as fast as it can, as ratios to 0 watchers;
whether a controller and a second watcher still get in while one watch token holds all the
connections it may (a server with tokens); and the time from connecting to holding a full screen for a
late joiner after 100 MB of output, against re-feeding those 100 MB; and the keystroke echo of
the holder against a bare WebSocket echo (both in this process, on loopback).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import selectors
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect

from observer.protocol.adapters.native import NativeAdapter
from observer.protocol.adapters.native import query as native_query
from observer.protocol.events import SnapshotReceived
from tests.benchmarks.server_attacks import ResyncSpammer, print_attacks, print_hoarding

ROOT = Path(__file__).resolve().parents[2]

AGENT = (
    "while [ ! -e {go} ]; do sleep 0.01; done; "
    "s=$(date +%s.%N); head -c {n} /dev/zero | tr '\\0' x; e=$(date +%s.%N); "
    "echo $s $e > {result}; printf '\\033[2J\\033[HDONE'; sleep 600"
)
TRAILER = b"\033[2J\033[HDONE"
"""What the agent prints after its output (the offset the watchers must reach is N + this)."""


@contextlib.asynccontextmanager
async def serve(command: str, root: Path = ROOT):  # type: ignore[no-untyped-def]
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "observer", "serve", "--insecure-no-auth",
        "--listen", "127.0.0.1:0", "--", "sh", "-c", command,
        cwd=root, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stderr is not None
    port = 0
    while not port:
        line = (await process.stderr.readline()).decode()
        if not line:
            raise SystemExit("observer serve did not start")
        if found := re.search(r"ws://127\.0\.0\.1:(\d+)/", line):
            port = int(found.group(1))
    stats: dict[str, float] = {}
    # Read the log as it comes: a server blocked on a full stderr pipe would stall the run.
    logged = asyncio.create_task(process.stderr.read())
    try:
        yield port, process.pid, stats
    finally:
        process.terminate()
        await process.wait()
        # At exit the server logs what its session cost (CPU seconds of its loop's thread).
        log = (await logged).decode()
        if "Traceback" in log:
            print(f"observer serve logged an error:\n{log[-3000:]}", file=sys.stderr)
        if found := re.search(r"model parsed \d+ in ([\d.]+) s CPU; fan-out ([\d.]+) s", log):
            stats["model"], stats["fanout"] = float(found.group(1)), float(found.group(2))


async def watcher(port: int) -> ClientConnection:
    query = native_query("default")
    return await connect(
        f"ws://127.0.0.1:{port}{query}", subprotocols=["observer.v1"], max_size=None
    )


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (Linux /proc, proc(5))."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def agent_throughput(
    megabytes: int, watchers: int, stalled: bool, spam: bool = False, root: Path = ROOT
) -> tuple[float, float, float, float, float, float]:
    """Figures of one run: the agent's MB/s while watched; the server's CPU seconds per MB
    (less noisy on a shared machine than the agent's rate); the median share of the output the
    reading watchers received as output frames rather than snapshots; the CPU seconds per MB
    the server spent writing output to clients (NaN if it does not say); the watchers' process's
    CPU seconds per MB; the share of reading watchers whose stream reached the end exactly."""
    with tempfile.TemporaryDirectory() as tmp:
        go, result = Path(tmp) / "go", Path(tmp) / "result"
        total = megabytes * 1_000_000
        command = AGENT.format(go=go, result=result, n=total)
        async with serve(command, root) as (port, pid, stats):
            audience = None
            if watchers or stalled:
                audience = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "tests.benchmarks.server", "--watchers-process",
                    str(port), str(watchers), *(["--stalled"] if stalled else []),
                    *(["--spam"] if spam else []),
                    cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                )  # fmt: skip
                assert audience.stdin is not None and audience.stdout is not None
                if await audience.stdout.readline() != b"ready\n":
                    raise SystemExit("the watchers did not connect")
            before = cpu_seconds(pid), cpu_seconds(audience.pid) if audience else 0.0
            go.touch()
            while not result.exists() or not result.read_text().strip():
                await asyncio.sleep(0.02)
            start, end = map(float, result.read_text().split())
            cpu = (cpu_seconds(pid) - before[0]) / megabytes
            own = (cpu_seconds(audience.pid) - before[1]) / megabytes if audience else 0.0
            streams: list[list[int]] = []
            if audience:
                assert audience.stdin is not None and audience.stdout is not None
                audience.stdin.write(f"{total + len(TRAILER)}\n".encode())
                streams = json.loads(await audience.stdout.readline())
                if spam:
                    SPAM_COUNTS.append((root, json.loads(await audience.stdout.readline())))
                await audience.wait()
        delivered = statistics.median(b for _, b, _ in streams) / total if streams else 1.0
        reached = (
            sum(o == total + len(TRAILER) for o, _, _ in streams) / len(streams) if streams else 1.0
        )
        fanout = stats.get("fanout", float("nan")) / megabytes
        return megabytes / (end - start), cpu, min(delivered, 1.0), fanout, own, reached


async def late_join(megabytes: int) -> tuple[float, float]:
    """Seconds from connecting to a full screen after ``megabytes`` MB, and the agent's time."""
    with tempfile.TemporaryDirectory() as tmp:
        go, result = Path(tmp) / "go", Path(tmp) / "result"
        go.touch()
        command = AGENT.format(go=go, result=result, n=megabytes * 1_000_000)
        async with serve(command) as (port, _, _):
            while not result.exists() or not result.read_text().strip():
                await asyncio.sleep(0.05)
            await asyncio.sleep(1.0)  # let the server's model finish its backlog
            session = NativeAdapter()
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
    ("0 watchers", 0, False, False),
    ("10 watchers", 10, False, False),
    ("100 watchers", 100, False, False),
    ("1 stalled watcher", 0, True, False),
    ("100 watchers + 1 stalled", 100, True, False),
    ("1 watcher spamming resync", 1, False, True),
]
SPAM_COUNTS: list[tuple[Path, dict[str, int]]] = []
"""Per run of the spamming scenario: the server's checkout, the resyncs the spammer sent and
the snapshots it got."""


def spread(values: list[float]) -> str:
    """``min–max`` of a list of figures, as text."""
    return f"{min(values):.2f}-{max(values):.2f}"


async def main(
    megabytes: int,
    rounds: int,
    only: list[str],
    extras: bool,
    against: Path | None,
    hoard: bool = True,
    attacks: bool = True,
) -> None:
    print(
        f"agent: head -c {megabytes}MB /dev/zero | tr on the PTY, timing itself; watchers are "
        "real WebSocket connections in a process of their own reading everything (the stalled "
        "one never reads)"
    )
    rows = SCENARIOS[:1] + [row for row in SCENARIOS[1:] if not only or row[0] in only]
    roots = [("this checkout", ROOT)] + ([("--against", against)] if against else [])
    # The machine is shared: the scenarios are taken in turns (ABCABC, not AABBCC; with
    # --against, each scenario runs on both servers back to back), so that a busy minute
    # weighs on every scenario alike; ratios are taken within each round (against that
    # round's own 0-watcher run of the same server); medians and min-max over rounds are shown.
    keys = [(label, name) for label, _ in roots for name, *_ in rows]
    rates: dict[tuple[str, str], list[float]] = {key: [] for key in keys}
    costs: dict[tuple[str, str], list[float]] = {key: [] for key in keys}
    ratios: dict[tuple[str, str], list[float]] = {key: [] for key in keys}
    shares: dict[tuple[str, str], list[float]] = {key: [] for key in keys}
    fanouts: dict[tuple[str, str], list[float]] = {key: [] for key in keys}
    watching: dict[tuple[str, str], list[float]] = {key: [] for key in keys}
    complete: dict[tuple[str, str], list[float]] = {key: [] for key in keys}
    for number in range(rounds):
        order = rows if number % 2 == 0 else rows[:1] + rows[:0:-1]
        for name, count, stalled, spam in order:
            for label, root in roots if number % 2 == 0 else roots[::-1]:
                rate, cost, share, fanout, own, reached = await agent_throughput(
                    megabytes, count, stalled, spam, root=root
                )
                complete[label, name].append(reached)
                fanouts[label, name].append(fanout * 1000)
                watching[label, name].append(own * 1000)
                rates[label, name].append(rate)
                costs[label, name].append(cost * 1000)
                shares[label, name].append(share)
        for label, name in keys:
            ratios[label, name].append(rates[label, name][-1] / rates[label, rows[0][0]][-1])
    print(f"medians of {rounds} rounds; load average {_load()}")
    for label, root in roots:
        if against:
            print(f"{label}: {root}")
        print(
            f"{'scenario':<26}{'agent MB/s':>11}{'ratio':>7}{'ratio min-max':>15}"
            f"{'server CPU ms/MB':>18}{'min-max':>14}{'as bytes':>10}{'fan-out ms/MB':>15}{'watchers ms/MB':>16}"
            f"{'complete':>10}"
        )
        for name, *_ in rows:
            key = label, name
            # "as bytes": the median watcher's share of the output that reached it as output
            # frames (the rest it got as snapshots, having fallen behind or been shed);
            # "fan-out": CPU time of the server's loop writing output to clients (its log);
            # "watchers": CPU time of the watchers' process; "complete": the least share, over
            # rounds, of reading watchers whose stream (bytes and snapshots) reached the end.
            print(
                f"{name:<26}{statistics.median(rates[key]):>11.1f}"
                f"{statistics.median(ratios[key]):>7.2f}{spread(ratios[key]):>15}"
                f"{statistics.median(costs[key]):>18.1f}{spread(costs[key]):>14}"
                f"{statistics.median(shares[key]):>10.0%}"
                f"{statistics.median(fanouts[key]):>15.2f}"
                f"{statistics.median(watching[key]):>16.1f}"
                f"{min(complete[key]):>10.0%}"
            )
    for label, root in roots:
        for where, counts in SPAM_COUNTS:
            if where == root:
                print(
                    f"  {label}: the spammer sent {counts['resyncs']} resyncs in its run and got "
                    f"{counts['snapshots']} snapshots"
                )
    if hoard:
        await print_hoarding()
    if attacks:
        await print_attacks(megabytes, rounds, roots)
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
        query = native_query("default", control=True)
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


# -- the watchers' process ---------------------------------------------------------------------
# The watchers run in a process of their own, so that what the server costs is not mixed with
# what reading costs: each is a real WebSocket connection (RFC 6455 upgrade, frames parsed as
# they arrive) that reads every byte with recv_into into one buffer, keeps only the headers and
# the (small) text frames, and follows the stream offset (hello, snapshot, binary lengths).


class StreamFollower:
    """Follows one connection's ``observer.v1`` stream without keeping its output.

    RFC 6455 section 5.2 framing; a server never masks. Text frames (hello, snapshot, presence,
    ...) are decoded, binary frames only counted.
    """

    def __init__(self) -> None:
        self.header = bytearray()
        self.remaining = 0
        self.opcode = 0
        self.text = bytearray()
        self.offset = -1
        self.binary = 0
        self.snapshots = 0
        self.pings: list[bytes] = []

    def feed(self, view: memoryview) -> None:
        position, size = 0, len(view)
        while position < size:
            if self.remaining:
                take = min(self.remaining, size - position)
                if self.opcode != 2:
                    self.text += view[position : position + take]
                else:
                    self.binary += take
                    self.offset += take
                position += take
                self.remaining -= take
                if not self.remaining:
                    self._end_frame()
                continue
            self.header.append(view[position])
            position += 1
            self._start_frame()

    def _start_frame(self) -> None:
        head = self.header
        if len(head) < 2:
            return
        short = head[1] & 0x7F
        need = 2 + {126: 2, 127: 8}.get(short, 0)
        if len(head) < need:
            return
        length = short if need == 2 else int.from_bytes(head[2:need], "big")
        self.opcode = head[0] & 0x0F
        self.header = bytearray()
        self.remaining = length
        if not length:
            self._end_frame()

    def _end_frame(self) -> None:
        if self.opcode == 1:
            message = json.loads(self.text)
            if message["type"] in ("hello", "snapshot"):
                self.offset = message["offset"]
                self.snapshots += message["type"] == "snapshot"
        elif self.opcode == 9:
            self.pings.append(bytes(self.text))
        self.text = bytearray()


def read_into(
    selector: selectors.BaseSelector,
    sock: socket.socket,
    follower: StreamFollower,
    buffer: bytearray,
    view: memoryview,
) -> list[bytes]:
    """Read what ``sock`` has into ``follower`` (forgetting a socket that closed); the masked
    pongs its pings need (RFC 6455 5.5.3), for the caller to send."""
    try:
        received = sock.recv_into(buffer)
    except BlockingIOError:
        return []
    except OSError:
        received = 0
    if not received:
        selector.unregister(sock)
        return []
    follower.feed(view[:received])
    pongs = [bytes([0x8A, 0x80 | len(ping)]) + b"\0\0\0\0" + ping for ping in follower.pings]
    follower.pings.clear()
    return pongs


def upgrade(port: int) -> socket.socket:
    """A WebSocket connection to the benchmark's server, after its ``101``."""
    sock = socket.create_connection(("127.0.0.1", port))
    query = native_query("default")
    sock.sendall(
        f"GET {query} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: observer.v1\r\n\r\n".encode()
    )
    response = b""
    while b"\r\n\r\n" not in response:
        response += sock.recv(1)  # byte by byte: nothing of the first frame is read here
    assert b" 101 " in response.split(b"\r\n", 1)[0], response
    sock.setblocking(False)
    return sock


def watchers_process(port: int, count: int, stalled: bool, spam: bool = False) -> None:
    """Connect ``count`` reading watchers (and one that never reads), read until told.

    Protocol on stdin/stdout: prints ``ready``; reads a line with the final offset to reach;
    reads until every reading watcher's stream is there (or 20 s pass), then prints one JSON
    line: per watcher, its offset, binary bytes and snapshots. With ``spam``, the first watcher
    also sends ``resync`` as fast as its socket takes them, and a second line gives how many
    it sent and how many snapshots it got.
    """
    followers: dict[socket.socket, StreamFollower] = {}
    selector = selectors.DefaultSelector()
    for _ in range(count):
        sock = upgrade(port)
        followers[sock] = StreamFollower()
        selector.register(sock, selectors.EVENT_READ)
    spammer = ResyncSpammer(next(iter(followers))) if spam else None
    if spammer is not None:
        selector.modify(spammer.sock, selectors.EVENT_READ | selectors.EVENT_WRITE)
    idle = upgrade(port) if stalled else None  # connected, never read
    selector.register(sys.stdin, selectors.EVENT_READ)
    print("ready", flush=True)
    buffer = bytearray(1 << 20)
    view = memoryview(buffer)
    target, deadline = None, 0.0
    while True:
        for key, mask in selector.select(0.05):
            sock = key.fileobj
            if sock is sys.stdin:
                target, deadline = int(sys.stdin.readline()), time.monotonic() + 20
                selector.unregister(sys.stdin)
                continue
            assert isinstance(sock, socket.socket)
            if spammer is not None and sock is spammer.sock:
                if mask & selectors.EVENT_WRITE:
                    spammer.write()
                if not mask & selectors.EVENT_READ:
                    continue
            for pong in read_into(selector, sock, followers[sock], buffer, view):
                if spammer is not None and sock is spammer.sock:
                    spammer.queue(pong)  # after the resyncs already queued
                else:
                    sock.sendall(pong)
        if target is not None and (
            all(f.offset >= target for f in followers.values()) or time.monotonic() > deadline
        ):
            break
    print(json.dumps([[f.offset, f.binary, f.snapshots] for f in followers.values()]), flush=True)
    if spammer is not None:
        counts = {"resyncs": spammer.sent, "snapshots": followers[spammer.sock].snapshots}
        print(json.dumps(counts), flush=True)
    for sock in [*followers, *([idle] if idle else [])]:
        sock.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--megabytes", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        choices=[name for name, *_ in SCENARIOS],
        help="run this scenario (repeatable; the 0-watcher baseline always runs)",
    )
    parser.add_argument(
        "--no-extras", action="store_true", help="skip the late-join and echo measurements"
    )
    parser.add_argument(
        "--against",
        type=Path,
        help="another checkout whose server runs in the same rounds (e.g. the code before a change)",
    )
    parser.add_argument("--watchers-process", nargs=2, type=int, help=argparse.SUPPRESS)
    parser.add_argument("--stalled", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--spam", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--no-hoarding", action="store_true", help="skip the connection-hoarding check"
    )
    parser.add_argument(
        "--attacks-only",
        action="store_true",
        help="only the rows of one hostile watch token (ping flood, message limit, churn, readers)",
    )
    arguments = parser.parse_args()
    if arguments.watchers_process:
        watchers_process(*arguments.watchers_process, arguments.stalled, arguments.spam)
        sys.exit(0)
    if arguments.attacks_only:
        roots = [("this checkout", ROOT)] + (
            [("--against", arguments.against)] if arguments.against else []
        )
        asyncio.run(print_attacks(arguments.megabytes, arguments.rounds, roots))
        sys.exit(0)
    asyncio.run(
        main(
            arguments.megabytes,
            arguments.rounds,
            arguments.only,
            not arguments.no_extras,
            arguments.against,
            not arguments.no_hoarding,
        )
    )
