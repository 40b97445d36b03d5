"""Soak: one live session for a long time; server and clients must stay flat. Not collected by
pytest, not part of ``python -m tests.benchmarks``.

Run from the repository root::

    python -m tests.benchmarks.soak                               # 3 minutes, 0.1 GB
    python -m tests.benchmarks.soak --minutes 30 --gigabytes 1    # the full soak
    python -m tests.benchmarks.soak --minutes 8 --tracemalloc     # what grows in the server

Three processes, as in real use:

- server: ``observer.server.Server`` with an agent that writes agent-like output (logs,
  coloured listings, full-screen redraws) at GIGABYTES over MINUTES, and logs its stdin;
- client: the app (``ObserverApp`` in ``run_test``, a live connection) watching, plus a
  controller that joins every 20 s, takes control, types a line, releases and leaves;
- recorder: ``observer record`` writing an asciicast of the whole session.

Every 5 s it samples RSS and open file descriptors of each process (``/proc``) and, for the
server and the client, their live asyncio tasks. At the end it prints the samples and PASS/FAIL
per process and metric: flat means the last quarter's median is within 10% + 16 MiB of the
second quarter's for RSS, and within 3 of it for descriptors and tasks (the first quarter is
warm-up). Exit status 1 if any metric FAILs. Each minute the server also notes its RSS against
what C malloc and Python hold (``--tracemalloc`` adds the allocation sites that grew), printed
at the end: a leak shows as allocations growing, allocator noise as RSS growing alone.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import gc
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

SIZE = (120, 40)
EVERY = 5.0
AGENT = """
import os, sys, threading, time, tty
tty.setraw(0)
rate, corpus, log = float(sys.argv[1]), open(sys.argv[2], "rb").read(), open(sys.argv[3], "ab")
def keep_input():
    while data := os.read(0, 1024):
        log.write(data); log.flush()
threading.Thread(target=keep_input, daemon=True).start()
out, start, sent, chunk = os.fdopen(1, "wb"), time.monotonic(), 0, 16384
while True:
    for i in range(0, len(corpus), chunk):
        out.write(corpus[i : i + chunk]); out.flush(); sent += chunk
        ahead = sent / rate - (time.monotonic() - start)
        if ahead > 0:
            time.sleep(ahead)
"""


def proc_figures(pid: int) -> tuple[float, int]:
    """RSS in MiB and open descriptors of a process."""
    rss = 0.0
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
    return rss, len(os.listdir(f"/proc/{pid}/fd"))


async def report_tasks(path: Path) -> None:
    """In a role process: write the live asyncio task count every EVERY seconds."""
    while True:
        path.write_text(str(len(asyncio.all_tasks())))
        await asyncio.sleep(EVERY / 2)


class MallocInfo(ctypes.Structure):
    """glibc's ``struct mallinfo2`` (mallinfo(3)), summed over all arenas."""

    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd",
            "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost",
        )
    ]  # fmt: skip


def malloc_figures() -> str:
    """What C malloc holds from the system and what of it is in use (glibc only)."""
    try:
        mallinfo2 = ctypes.CDLL(None).mallinfo2
    except AttributeError:
        return "malloc figures unavailable"
    mallinfo2.restype = MallocInfo
    info = mallinfo2()
    held = (info.arena + info.hblkhd) / 2**20
    return f"malloc holds {held:.1f} MiB, in use {info.uordblks / 2**20:.1f} MiB"


async def trace_memory(folder: Path, every: float = 60.0) -> None:
    """In the server: every ``every`` s, RSS against what is allocated, and what grew.

    Written to ``server.memory`` (the orchestrator prints it): RSS, C malloc's figures, Python's
    allocated blocks and, with ``--tracemalloc``, the traced total and the allocation sites that
    grew most since the first sample (taken after one interval: the ring buffer has filled by
    then at the default rate). If what is allocated stays flat while RSS climbs, the growth is
    the allocator's (fragmentation, arenas not given back), not a leak.
    """
    first: tracemalloc.Snapshot | None = None
    started = time.monotonic()
    lines: list[str] = []
    while True:
        await asyncio.sleep(every)
        gc.collect()
        rss = proc_figures(os.getpid())[0]
        line = (
            f"t={time.monotonic() - started:.0f}s RSS {rss:.1f} MiB, {malloc_figures()}, "
            f"{sys.getallocatedblocks()} Python blocks"
        )
        if not tracemalloc.is_tracing():
            lines.append(line)
        else:
            snapshot = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(False, tracemalloc.__file__)]
            )
            traced = tracemalloc.get_traced_memory()[0] / 2**20
            lines.append(f"{line}, traced {traced:.2f} MiB")
            if first is None:
                first = snapshot
            else:
                lines.extend(f"    {stat}" for stat in snapshot.compare_to(first, "lineno")[:8])
        (folder / "server.memory").write_text("\n".join(lines) + "\n")


# -- roles --------------------------------------------------------------------------------------


async def server_role(folder: Path, port: int, rate: float) -> None:
    from observer.auth.tokens import Authenticator, TokenDigests
    from observer.server import Server
    from tests.benchmarks.live import corpus

    (folder / "corpus").write_bytes(corpus(2.0))
    command = [
        sys.executable,
        "-c",
        AGENT,
        str(rate),
        str(folder / "corpus"),
        str(folder / "stdin"),
    ]
    auth = Authenticator(TokenDigests.load(folder / "tokens"))
    server = Server(command, auth=auth, port=port, identifiers=("agent",), size=SIZE)
    await server.start()
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    reporter = asyncio.create_task(report_tasks(folder / "server.tasks"))
    tracer = asyncio.create_task(trace_memory(folder))
    await stop.wait()
    reporter.cancel()
    tracer.cancel()
    session = server.sessions["agent"]
    (folder / "server.offset").write_text(str(session.ring.end))  # type: ignore[attr-defined]
    await server.stop()


async def controller_visits(url: str, token: str, folder: Path) -> None:
    """Join every 20 s in control mode, type a line, release, leave."""
    from observer.credentials.store import Secret
    from observer.transport.settings import ConnectionSettings
    from tests.client_support import Client

    visit = 0
    while True:
        await asyncio.sleep(20)
        visit += 1
        settings = ConnectionSettings(url, identifier="agent", protocol="observer", mode="control")
        connection = Client(settings, Secret(token), show=False)
        events = connection.events()
        async for event in events:
            if getattr(event, "holder", None) == "you":
                await connection.send_input(f"visit {visit}\r".encode())
                await connection.release()
                break
        await connection.close()
        await events.aclose()  # type: ignore[attr-defined]
        (folder / "visits").write_text(str(visit))


async def client_role(folder: Path, port: int) -> None:
    from observer.app import textual_patches
    from observer.app.app import ObserverApp
    from observer.credentials.store import Secret
    from observer.transport.settings import ConnectionSettings
    from tests.client_support import live_link

    token = os.environ["OBSERVER_TOKEN"]
    url = f"ws://127.0.0.1:{port}"
    settings = ConnectionSettings(url, identifier="agent", protocol="observer")
    textual_patches.install()  # as `observer watch` runs the app
    app = ObserverApp([live_link(settings, Secret(token), label=url)])
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with app.run_test(size=(SIZE[0] + 2, SIZE[1] + 3)):
        tasks = [
            asyncio.create_task(report_tasks(folder / "client.tasks")),
            asyncio.create_task(controller_visits(url, token, folder)),
        ]
        await stop.wait()
        for task in tasks:
            task.cancel()
        session = app.links[0].session
        (folder / "client.offset").write_text(str(session.join_request().since))


# -- the orchestrator ------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def spawn(args: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def flat(values: list[float], relative: float, absolute: float) -> tuple[bool, float, float]:
    quarter = max(1, len(values) // 4)
    settled = statistics.median(values[quarter : 2 * quarter] or values)
    last = statistics.median(values[-quarter:])
    return last <= settled * (1 + relative) + absolute, settled, last


def orchestrate(minutes: float, gigabytes: float, trace: bool = False) -> int:
    rate = gigabytes * 1e9 / (minutes * 60)
    folder = Path(tempfile.mkdtemp(prefix="observer-soak-"))
    tokens = str(folder / "tokens")
    token = subprocess.run(
        [sys.executable, "-m", "observer", "token", "issue", "control", "--file", tokens],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    port = free_port()
    me = ["-m", "tests.benchmarks.soak", "--folder", str(folder), "--port", str(port)]
    env = dict(os.environ, OBSERVER_TOKEN=token)  # never in argv
    server = spawn(
        [*me, "--role", "server", "--rate", str(rate), *(["--tracemalloc"] if trace else [])]
    )
    _wait_for_port(port)
    client = spawn([*me, "--role", "client"], env)
    recorder = spawn(
        [
            *("-m", "observer", "record", f"ws://127.0.0.1:{port}", "--identifier", "agent"),
            *("-o", str(folder / "soak.cast"), "--duration", str(minutes * 60 + 60)),
        ],
        env,
    )
    processes = {"server": server, "client": client, "recorder": recorder}
    print(f"soak: {minutes:g} min, {gigabytes:g} GB ({rate / 1e6:.2f} MB/s), files in {folder}")
    print(f"{'t (s)':>6} " + " ".join(f"{n + ' RSS/fd/tasks':>26}" for n in processes))
    samples: dict[str, dict[str, list[float]]] = {
        n: {"rss": [], "fds": [], "tasks": []} for n in processes
    }
    started = time.monotonic()
    try:
        while time.monotonic() - started < minutes * 60:
            time.sleep(EVERY)
            cells = []
            for name, process in processes.items():
                if process.poll() is not None:
                    raise SystemExit(
                        f"{name} exited early: {process.stderr.read().decode()[-500:]}"
                    )  # type: ignore[union-attr]
                rss, fds = proc_figures(process.pid)
                tasks_file = folder / f"{name}.tasks"
                tasks = int(tasks_file.read_text() or 0) if tasks_file.exists() else -1
                for key, value in (("rss", rss), ("fds", fds), ("tasks", tasks)):
                    samples[name][key].append(value)
                cells.append(f"{rss:>12.1f} MiB {fds:>4} {tasks if tasks >= 0 else '—':>5}")
            print(f"{time.monotonic() - started:>6.0f} " + " ".join(cells), flush=True)
    finally:
        for process in (client, recorder, server):
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
    print(_read(folder / "server.memory"))
    return verdict(folder, samples)


def verdict(folder: Path, samples: dict[str, dict[str, list[float]]]) -> int:
    failed = False
    print()
    for name, metrics in samples.items():
        for metric, values in metrics.items():
            if not values or min(values) < 0:
                continue
            relative, absolute = (0.10, 16.0) if metric == "rss" else (0.0, 3.0)
            ok, settled, last = flat(values, relative, absolute)
            failed |= not ok
            print(
                f"{'PASS' if ok else 'FAIL'} {name:<9} {metric:<6} settled {settled:>8.1f} "
                f"→ end {last:>8.1f} (max {max(values):.1f})"
            )
    written = int(_read(folder / "server.offset") or 0)
    seen = int(_read(folder / "client.offset") or 0)
    visits = _read(folder / "visits") or "0"
    typed = _read(folder / "stdin").count("visit ")
    print(
        f"agent wrote {written / 1e9:.3f} GB; the watcher's stream reached offset "
        f"{seen / 1e9:.3f} GB; controller visits {visits}, lines typed at the PTY {typed}"
    )
    cast = folder / "soak.cast"
    if cast.exists():
        print(f"recording: {cast.stat().st_size / 1e9:.3f} GB at {cast}")
    return 1 if failed else 0


def _read(path: Path) -> str:
    return path.read_text(errors="replace") if path.exists() else ""


def _wait_for_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def main(argv: Any = None) -> None:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--gigabytes", type=float, default=0.1)
    parser.add_argument(
        "--tracemalloc",
        action="store_true",
        help="trace the server's Python allocations (slower) and print what grew, each minute",
    )
    parser.add_argument("--role", choices=["server", "client"], help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--rate", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    random.seed(7)
    if args.role == "server":
        if args.tracemalloc:
            tracemalloc.start(4)
        asyncio.run(server_role(args.folder, args.port, args.rate))
    elif args.role == "client":
        asyncio.run(client_role(args.folder, args.port))
    else:
        sys.exit(orchestrate(args.minutes, args.gigabytes, args.tracemalloc))


if __name__ == "__main__":
    main()
