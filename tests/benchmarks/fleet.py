"""Fleet figures: one dashboard watching N agents, against the same agents in tmux panes.

Run from the repository root::

    python -m tests.benchmarks.fleet [--agents 1 10 40] [--logs 1 10] [--seconds 20]
                                     [--long 65] [--keys 10]

For each N, N agents run under one ``observer serve`` (one PTY each, 120x40); ``observer watch``
opens them all as a dashboard in a real terminal (a tmux server of its own, 200x60). Profiles:

- ``ink``: a Claude-Code-like UI, a 30-line region erased and redrawn 10 times a second, every
  word in a truecolour SGR (about 45 KB/s per agent);
- ``log``: a build log scrolling at about 500 KB/s per agent.

Every frame (ink) or line (log) carries the agent's wall clock in milliseconds (``@12345678``)
on the cursor's line, which a tile always shows. Figures, over ``--seconds`` (the largest ink
fleet over ``--long``, so the collector's pacing is seen over a minute of continuous output):

- client CPU (% of one core) and peak RSS of the ``observer watch`` process; the server's CPU;
- tile lag: from an agent writing a stamp to the stamp first seen on the dashboard's screen
  (``tmux capture-pane`` every :data:`POLL` seconds: that poll adds up to its interval), p50 /
  p95 / max;
- the longest garbage collection in the client (timed by ``gc.callbacks`` in the client process);
- key latency with the largest fleet: from ``tmux send-keys`` to the screen showing the key's
  effect (focus the next tile, open a tile, back to the dashboard, open and close the command
  palette), p50 / max;
- the anchor, in the same run: the same N agents in N tmux panes of one window (the tmux
  server's CPU and RSS), detached like the dashboard's terminal.

The machine's load (all cores, from ``/proc/stat``) during each run is printed with it: other
work shares the cores. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from observer.terminal import TerminalModel

SIZE = (200, 60)
AGENT_SIZE = "120x40"
POLL = 0.025
WARMUP = 6.0
TICK = os.sysconf("SC_CLK_TCK")
STAMP = re.compile(rb"@(\d{8})")
AGENT = r"""
import os, random, sys, time
profile = sys.argv[1]
rng = random.Random(os.getpid())
out = os.fdopen(1, "wb", buffering=0)
WORDS = b"the quick agent read src/app.py ran pytest -q tests/unit and wrote a diff".split()
COLOURS = [b"\x1b[38;2;%d;%d;%dm" % (r, g, b) for r in range(40, 256, 27) for g in range(60, 256, 49) for b in range(80, 256, 27)][:256]
def rgb():
    return rng.choice(COLOURS)
def stamp():
    return b"@%08d" % (int(time.time() * 1000) % 100_000_000)
def ink_line():
    return b" ".join(rgb() + rng.choice(WORDS) for _ in range(6)) + b"\x1b[0m"
POOL = [ink_line() for _ in range(500)]  # drawn once: the agent's own cost stays small
def pace(period, step):
    due = time.monotonic() + rng.random() * period
    while True:
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        step()
        due = max(due + period, time.monotonic() - period)
def ink():
    lines = [rng.choice(POOL) for _ in range(29)]
    first = [True]
    def frame():
        for _ in range(3):
            lines[rng.randrange(29)] = rng.choice(POOL)
        erase = b"" if first[0] else b"\x1b[2K\x1b[1A" * 29 + b"\x1b[2K\x1b[G"
        first[0] = False
        out.write(erase + b"\r\n".join(lines) + b"\r\n\x1b[48;2;40;40;60m" + stamp() + b" \xe2\x80\xba \x1b[0m")
    pace(0.1, frame)
def log():
    n = [0]
    def chunk():
        parts = []
        for _ in range(50):
            n[0] += 1
            parts.append(b"\x1b[32m[%8d]\x1b[0m %s CC src/module_%04d/file_%03d.o -O2 -Wall -c \x1b[33mok\x1b[0m\r\n"
                         % (n[0], stamp(), n[0] % 9973, n[0] % 997))
        out.write(b"".join(parts))
    pace(0.01, chunk)
(ink if profile == "ink" else log)()
"""
CLIENT = r"""
import gc, json, sys, time
path = sys.argv[1]
state = {"longest": 0.0, "collections": [0, 0, 0], "over_100ms": 0, "written": 0.0}
started = [0.0]
def timed(phase, info):
    if phase == "start":
        started[0] = time.perf_counter()
        return
    took = time.perf_counter() - started[0]
    state["collections"][info["generation"]] += 1
    state["over_100ms"] += took > 0.1
    state["longest"] = max(state["longest"], took)
    if time.monotonic() - state["written"] > 1.0:
        state["written"] = time.monotonic()
        with open(path, "w") as f:
            json.dump(state, f)
gc.callbacks.append(timed)
from observer.cli import main
sys.exit(main(sys.argv[2:]))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def machine_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of all cores."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


class Tmux:
    """A tmux server of its own (``-L``), one window of SIZE, for the dashboard or the anchor."""

    def __init__(self, name: str) -> None:
        self.socket = f"observer-fleet-{name}-{os.getpid()}"

    def __call__(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True
        ).stdout

    def start(self, command: str) -> None:
        cols, rows = SIZE
        self("-f", "/dev/null", "new-session", "-d", "-x", str(cols), "-y", str(rows), command)
        self("set-option", "-g", "status", "off")

    def server_pid(self) -> int:
        return int(self("display-message", "-p", "#{pid}").strip())

    def pane_pid(self) -> int:
        return int(self("display-message", "-p", "#{pane_pid}").strip())

    def capture(self, escapes: bool = False) -> str:
        return self("capture-pane", "-p", *(["-e"] if escapes else []))

    def keys(self, *keys: str) -> None:
        self("send-keys", *keys)

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self("kill-server")


@contextlib.contextmanager
def fleet_server(folder: Path, profile: str, count: int) -> Iterator[tuple[int, str, int]]:
    """``observer serve`` with ``count`` agents; yields (port, control token, server pid)."""
    tokens = folder / "tokens"
    token = subprocess.run(
        [sys.executable, "-m", "observer", "token", "issue", "control", "--file", str(tokens)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    port = free_port()
    names = [f"a{n:03d}" for n in range(count)]
    command = [sys.executable, "-c", AGENT, profile]
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "observer", "serve", "--listen", f"127.0.0.1:{port}"),
            *("--tokens", str(tokens), "--size", AGENT_SIZE),
            *(arg for name in names for arg in ("--identifier", name)),
            *("--", *command),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)):
                break
            if time.monotonic() > deadline:
                raise RuntimeError("observer serve did not start listening")
            time.sleep(0.05)
        config = "".join(
            f'[profiles.{name}]\nurl = "ws://127.0.0.1:{port}/"\nidentifier = "{name}"\n'
            'protocol = "observer"\n\n'
            for name in names
        )
        config += "[groups]\nfleet = [" + ", ".join(f'"{n}"' for n in names) + "]\n"
        (folder / "config.toml").write_text(config)
        yield port, token, server.pid
    finally:
        server.terminate()
        server.wait(timeout=30)


@dataclass
class Usage:
    """CPU and memory of some processes over a stretch of time."""

    pids: list[int]
    started: float = 0.0
    cpu: float = 0.0
    machine: tuple[int, int] = (0, 0)
    peak_rss: float = 0.0

    def __post_init__(self) -> None:
        self.started = time.monotonic()
        self.cpu = sum(cpu_seconds(p) for p in self.pids)
        self.machine = machine_ticks()

    def sample(self) -> None:
        self.peak_rss = max(self.peak_rss, sum(rss_mib(p) for p in self.pids))

    def result(self) -> tuple[float, float, float]:
        """(% of one core, peak RSS MiB, the machine's busy % of all cores)."""
        elapsed = time.monotonic() - self.started
        busy, total = (a - b for a, b in zip(machine_ticks(), self.machine, strict=True))
        cpu = sum(cpu_seconds(p) for p in self.pids) - self.cpu
        self.sample()
        return 100 * cpu / elapsed, self.peak_rss, 100 * busy / max(1, total)


def watch_lags(tmux: Tmux, seconds: float, usage: Usage) -> list[float]:
    """Stamps' lags (ms) from their agent writing them to first being on the dashboard."""
    seen: dict[bytes, float] = {}
    lags: list[float] = []
    end = time.monotonic() + seconds
    next_sample = 0.0
    while (now := time.monotonic()) < end:
        screen = tmux.capture().encode()
        wall = int(time.time() * 1000) % 100_000_000
        for stamp in set(STAMP.findall(screen)):
            if stamp not in seen:
                seen[stamp] = now
                lag = (wall - int(stamp)) % 100_000_000
                if lag < 60_000:  # a stamp from before the window wrapped: ignore
                    lags.append(float(lag))
        if now >= next_sample:
            usage.sample()
            next_sample = now + 1.0
            seen = {k: v for k, v in seen.items() if now - v < 20}
        time.sleep(max(0.0, POLL - (time.monotonic() - now)))
    return lags


def corners(tmux: Tmux) -> list[str]:
    """The foreground colour of each tile's top-left border corner, tiles in order."""
    found = []
    for line in tmux.capture(escapes=True).splitlines():
        if "╭" in line:
            model = TerminalModel(SIZE[0], 1, scrollback=0)
            model.feed(line.encode())
            found += [cell.fg for cell in model.line(0) if cell.data == "╭"]
    return found


def timed_key(tmux: Tmux, key: str, done: Callable[[], bool], limit: float = 10.0) -> float:
    """Milliseconds from sending ``key`` to ``done()`` (checked every few ms)."""
    started = time.monotonic()
    tmux.keys(key)
    while not done():
        if time.monotonic() - started > limit:
            return limit * 1000
        time.sleep(0.005)
    return (time.monotonic() - started) * 1000


def key_latencies(tmux: Tmux, count: int, presses: int) -> dict[str, list[float]]:
    """Latency of the dashboard's keys (ms)."""

    def focused_is(index: int) -> Callable[[], bool]:
        def check() -> bool:
            colours = corners(tmux)
            if len(colours) != count:
                return False
            others = statistics.mode(colours)
            return colours[index] != others and colours.count(colours[index]) == 1

        return check

    def text_shown(text: str, shown: bool = True) -> Callable[[], bool]:
        return lambda: (text in tmux.capture()) == shown

    results: dict[str, list[float]] = {"focus": [], "open": [], "back": [], "palette": []}
    for press in range(presses):
        results["focus"].append(timed_key(tmux, "Right", focused_is((press + 1) % count)))
        time.sleep(0.2)
    for _ in range(max(1, presses // 2)):
        results["open"].append(timed_key(tmux, "Enter", text_shown(" WATCH ")))
        time.sleep(0.3)
        results["back"].append(timed_key(tmux, "Escape", text_shown(" WATCH ", False)))
        time.sleep(0.3)
    for _ in range(max(1, presses // 3)):
        results["palette"].append(timed_key(tmux, "C-p", text_shown("Search for commands")))
        time.sleep(0.3)
        timed_key(tmux, "Escape", text_shown("Search for commands", False))
        time.sleep(0.3)
    return results


@dataclass
class Result:
    name: str
    cpu: float
    rss: float
    machine: float
    lags: list[float]
    server_cpu: float | None = None
    longest_gc: float | None = None
    keys: dict[str, list[float]] | None = None


def dashboard(profile: str, count: int, seconds: float, presses: int) -> Result:
    """The dashboard of ``count`` agents of ``profile`` in a terminal of its own."""
    with tempfile.TemporaryDirectory() as name, fleet_server(Path(name), profile, count) as up:
        folder = Path(name)
        _, token, server_pid = up
        gc_file = folder / "gc.json"
        env = f"OBSERVER_CONFIG_DIR={folder} OBSERVER_TOKEN={token}"
        client = f"{sys.executable} -c '{CLIENT}' {gc_file} watch fleet"
        tmux = Tmux("dash")
        tmux.start(f"cd {os.getcwd()} && exec env {env} {client}")
        try:
            time.sleep(WARMUP)
            pid = tmux.pane_pid()
            usage, server = Usage([pid]), Usage([server_pid])
            lags = watch_lags(tmux, seconds, usage)
            cpu, rss, machine = usage.result()
            server_cpu = server.result()[0]
            longest = json.loads(gc_file.read_text())["longest"] if gc_file.exists() else None
            keys = key_latencies(tmux, count, presses) if presses and count > 1 else None
            return Result(
                f"dashboard, {count} {profile}", cpu, rss, machine, lags, server_cpu, longest, keys
            )
        finally:
            tmux.stop()


def anchor(profile: str, count: int, seconds: float) -> Result:
    """The same agents in ``count`` panes of one tmux window."""
    command = f"{sys.executable} -c '{AGENT}' {profile}"
    tmux = Tmux("anchor")
    tmux.start(command)
    try:
        for _ in range(count - 1):
            tmux("split-window", "-d", command)
            tmux("select-layout", "tiled")
        time.sleep(2.0)
        usage = Usage([tmux.server_pid()])
        lags = watch_lags(tmux, seconds, usage)
        cpu, rss, machine = usage.result()
        return Result(f"tmux panes, {count} {profile}", cpu, rss, machine, lags)
    finally:
        tmux.stop()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def row(result: Result) -> str:
    lags = result.lags
    lag = f"{percentile(lags, 0.5):.0f} / {percentile(lags, 0.95):.0f} / {max(lags or [0]):.0f}"
    server = f"{result.server_cpu:.0f} %" if result.server_cpu is not None else "—"
    collection = f"{result.longest_gc * 1000:.0f} ms" if result.longest_gc is not None else "—"
    return (
        f"| {result.name} | {result.cpu:.1f} % | {result.rss:.0f} MiB | {lag} ms ({len(lags)}) "
        f"| {collection} | {server} | {result.machine:.0f} % |"
    )


def key_rows(keys: dict[str, list[float]]) -> list[str]:
    return [
        f"| key: {name} | {statistics.median(times):.0f} ms | {max(times):.0f} ms | {len(times)} |"
        for name, times in keys.items()
        if times
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, nargs="+", default=[1, 10, 40])
    parser.add_argument("--logs", type=int, nargs="*", default=[1, 10])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--long", type=float, default=65.0, help="the largest ink fleet's run")
    parser.add_argument("--keys", type=int, default=10, help="presses of the focus key")
    parser.add_argument("--no-anchor", action="store_true")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print("fleet: tmux is not installed — install it to run this benchmark", file=sys.stderr)
        return 1
    runs = [("ink", n) for n in args.agents] + [("log", n) for n in args.logs]
    largest = max(args.agents)
    print(
        "| run | CPU (% of one core) | RSS | tile lag p50 / p95 / max (stamps) "
        "| longest collection | server CPU | machine busy (2 cores) |"
    )
    print("|---|---|---|---|---|---|---|")
    keys: dict[str, list[float]] | None = None
    for profile, count in runs:
        long = profile == "ink" and count == largest
        seconds = args.long if long else args.seconds
        result = dashboard(profile, count, seconds, args.keys if long else 0)
        keys = result.keys or keys
        print(row(result), flush=True)
        if not args.no_anchor:
            print(row(anchor(profile, count, min(seconds, args.seconds))), flush=True)
    if keys:
        print(f"\nkeys with {largest} ink agents:\n")
        print("| key | p50 | max | presses |\n|---|---|---|---|")
        print("\n".join(key_rows(keys)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
