"""The fleet benchmark's parts: the agents, a tmux server per terminal, process figures, probes.

``python -m tests.benchmarks.fleet`` puts them together (see its docstring). Nothing here is
collected by pytest.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from observer.terminal import TerminalModel
from tests.app.tmux_driver import listening

SIZE = (200, 60)
AGENT_SIZE = "120x40"
POLL = 0.025
TICK = os.sysconf("SC_CLK_TCK")
STAMP = re.compile(r"@(\d{8})")
NOTIFIED = re.compile(r"@\d{8} N#(\d{8})")  # on the cursor line (a toast has no @)
WRAP = 100_000_000
AGENT = r"""
import os, random, sys, time
profile, fleet = sys.argv[1], int(sys.argv[2])
rng = random.Random(os.getpid())
out = os.fdopen(1, "wb", buffering=0)
WORDS = b"the quick agent read src/app.py ran pytest -q tests/unit and wrote a diff".split()
COLOURS = [b"\x1b[38;2;%d;%d;%dm" % (r, g, b)
           for r in range(40, 256, 27) for g in range(60, 256, 49) for b in range(80, 256, 27)]
def stamp():
    return b"%08d" % (int(time.time() * 1000) % 100_000_000)
def ink_line():
    return b" ".join(rng.choice(COLOURS) + rng.choice(WORDS) for _ in range(6)) + b"\x1b[0m"
POOL = [ink_line() for _ in range(500)]  # drawn once: agents cost little themselves
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
    state = {"first": True, "notify": time.monotonic() + rng.random() * 2 * fleet, "note": b""}
    def frame():
        for _ in range(3):
            lines[rng.randrange(29)] = rng.choice(POOL)
        erase = b"" if state["first"] else b"\x1b[2K\x1b[1A" * 29 + b"\x1b[2K\x1b[G"
        state["first"] = False
        now, notify = time.monotonic(), b""
        if now >= state["notify"]:  # the fleet sends one every 2 s or so
            state["notify"] += 2 * fleet
            state["note"], state["shown"] = b"N#" + stamp() + b" ", now + 1.5
            notify = b"\x1b]9;needs a look " + state["note"] + b"\x07"
        note = state["note"] if now < state.get("shown", 0) else b""
        out.write(erase + b"\r\n".join(lines) + b"\r\n\x1b[48;2;40;40;60m@" + stamp() + b" "
                  + note + b"\xe2\x80\xba \x1b[0m" + notify)
    pace(1 / float(os.environ.get("INK_FPS", "10")), frame)
def log():
    n = [0]
    def chunk():
        parts = []
        for _ in range(50):
            n[0] += 1
            parts.append(b"\x1b[32m[%8d]\x1b[0m @%s CC src/module_%04d/file_%03d.o -O2 -Wall -c"
                         b" \x1b[33mok\x1b[0m\r\n" % (n[0], stamp(), n[0] % 9973, n[0] % 997))
        out.write(b"".join(parts))
    pace(0.01, chunk)
(ink if profile == "ink" else log)()
"""
"""An agent: ``ink`` redraws a 30-line truecolour region 10 times a second (about 45 KB/s;
``INK_FPS`` in its environment sets another rate),
``log`` scrolls a build log at about 500 KB/s; both stamp their wall clock in milliseconds."""
TIMED_OBSERVER = r"""
import gc, json, sys, time
path = sys.argv[1]
state = {"longest": 0.0, "collections": [0, 0, 0]}
started = [0.0]
def timed(phase, info):
    if phase == "start":
        started[0] = time.perf_counter()
        return
    took = time.perf_counter() - started[0]
    state["collections"][info["generation"]] += 1
    if took > state["longest"] or sum(state["collections"]) % 100 == 0:
        state["longest"] = max(state["longest"], took)
        with open(path, "w") as f:
            json.dump(state, f)
gc.callbacks.append(timed)
if sys.argv[2] == "watch":  # the tiles' screen frames applied, written 5 times a second
    import threading
    from observer.client import tile_view
    frames, apply = [0], tile_view.TileView.frame
    def counted(view, event):
        frames[0] += 1
        return apply(view, event)
    tile_view.TileView.frame = counted
    def report():
        while True:
            time.sleep(0.2)
            with open(path + ".frames", "w") as f:
                f.write(str(frames[0]))
    threading.Thread(target=report, daemon=True).start()
from observer.cli import main
sys.exit(main(sys.argv[2:]))
"""
"""``observer`` (``watch`` or ``serve``) with every garbage collection timed (``gc.callbacks``),
written to a file; ``watch`` also writes how many screen frames its tiles applied so far to the
file's name with ``.frames`` added."""


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
    """A tmux server of its own (``-L``) with one window of :data:`SIZE`."""

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
def fleet_server(folder: Path, profile: str, count: int) -> Iterator[tuple[str, int]]:
    """``observer serve`` running ``count`` agents, and a config file with a ``fleet`` group of
    their profiles in ``folder``; yields (control token, the server's pid). The server's
    garbage collections are timed as the client's are, into ``folder / "server-gc.json"``."""
    tokens = folder / "tokens"
    issue = [sys.executable, "-m", "observer", "token", "issue", "control", "--file", str(tokens)]
    token = subprocess.run(issue, capture_output=True, text=True, check=True).stdout.strip()
    port = free_port()
    names = [f"a{n:03d}" for n in range(count)]
    server = subprocess.Popen(
        [
            *(sys.executable, "-c", TIMED_OBSERVER, str(folder / "server-gc.json")),
            *("serve", "--listen", f"127.0.0.1:{port}"),
            *("--tokens", str(tokens), "--size", AGENT_SIZE),
            *(arg for name in names for arg in ("--identifier", name)),
            *("--", sys.executable, "-c", AGENT, profile, str(count)),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        listening(port, server)
        profiles = "".join(
            f'[profiles.{n}]\nurl = "ws://127.0.0.1:{port}/"\nidentifier = "{n}"\n\n' for n in names
        )
        group = "[groups]\nfleet = [" + ", ".join(f'"{n}"' for n in names) + "]\n"
        (folder / "config.toml").write_text(profiles + group)
        yield token, server.pid
    finally:
        server.terminate()
        server.wait(timeout=30)


@dataclass
class Usage:
    """CPU and peak memory of some processes, and the machine's load, from now on."""

    pids: list[int]
    started: float = field(default_factory=time.monotonic)
    peak_rss: float = 0.0

    def __post_init__(self) -> None:
        self.cpu = sum(cpu_seconds(p) for p in self.pids)
        self.machine = machine_ticks()

    def sample(self) -> None:
        self.peak_rss = max(self.peak_rss, sum(rss_mib(p) for p in self.pids))

    def result(self) -> tuple[float, float, float]:
        """(% of one core, peak RSS MiB, the machine's busy % of all its cores)."""
        elapsed = time.monotonic() - self.started
        busy, total = (a - b for a, b in zip(machine_ticks(), self.machine, strict=True))
        cpu = sum(cpu_seconds(p) for p in self.pids) - self.cpu
        self.sample()
        return 100 * cpu / elapsed, self.peak_rss, 100 * busy / max(1, total)


@dataclass
class Watched:
    """What the screen showed over a stretch: lags (ms) of stamps and of notifications (from
    the agent's notification to its tile's attention border, the tile found by the stamp the
    agent also keeps on its cursor's line), and the longest time the screen did not change (ms)."""

    lags: list[float] = field(default_factory=list)
    notified: list[float] = field(default_factory=list)
    stillest: float = 0.0
    gap: float = 0.0
    """The longest time between two captures (ms): what this poller itself was held up."""


def watch(tmux: Tmux, seconds: float, usage: Usage) -> Watched:
    """Poll the screen every :data:`POLL` s: each stamp's lag when it is first seen."""
    seen: dict[str, float] = {}
    watched = Watched()
    end = time.monotonic() + seconds
    next_sample, last, changed = 0.0, "", time.monotonic()
    captured = changed  # when the screen was last captured
    first = True
    while (now := time.monotonic()) < end:
        screen = tmux.capture()
        wall = int(time.time() * 1000) % WRAP
        if screen != last:
            # Still from its first capture to the last one that showed it (at least): the time
            # to this capture would count this poller's own delays on a busy machine too.
            watched.stillest = max(watched.stillest, (captured - changed) * 1000)
            last, changed = screen, now
        watched.gap = max(watched.gap, (now - captured) * 1000)
        captured = now
        stamps = [("@" + s, watched.lags) for s in STAMP.findall(screen)]
        stamps += [("N#" + s, watched.notified) for s in notified_tiles(screen)]
        for stamp, lags in stamps:
            if stamp not in seen:
                seen[stamp] = now
                lag = (wall - int(stamp[-8:])) % WRAP
                # Not on the first capture: what it shows came before the watch began, when is
                # not known (a notification stays up 1.5 s: counted, it read as 1.5 s late).
                if lag < 60_000 and not first:  # (nor from before the clock wrapped)
                    lags.append(float(lag))
        first = False
        if now >= next_sample:
            usage.sample()
            next_sample = now + 1.0
            seen = {k: v for k, v in seen.items() if now - v < 20}
        time.sleep(max(0.0, POLL - (time.monotonic() - now)))  # the sampling rate
    return watched


def notified_tiles(screen: str) -> list[str]:
    """The notification stamps shown in tiles whose border says their agent needs someone (a
    single session's, anywhere: its status bar says it)."""
    rows = screen.splitlines()
    tops = [(y, x, char == "┏") for y, row in enumerate(rows) for x, char in enumerate(row)
            if char in "╭┏"]  # fmt: skip
    found = []
    for y, row in enumerate(rows):
        for match in NOTIFIED.finditer(row):
            boxes = [(ty, tx, heavy) for ty, tx, heavy in tops if ty <= y and tx <= match.start()]
            if not tops or (boxes and max(boxes)[2]):
                found.append(match.group(1))
    return found


def corners(tmux: Tmux) -> list[str]:
    """The colour of each tile's top-left border corner, tiles in order (the focus is one)."""
    found = []
    for line in tmux.capture(escapes=True).splitlines():
        if "╭" in line or "┏" in line:
            model = TerminalModel(SIZE[0], 1, scrollback=0)
            model.feed(line.encode())
            found += [cell.fg for cell in model.line(0) if cell.data in "╭┏"]
    return found


def timed_key(tmux: Tmux, key: str, done: Callable[[], bool], limit: float = 10.0) -> float:
    """Milliseconds from sending ``key`` to ``done()`` (looked at every few milliseconds)."""
    started = time.monotonic()
    tmux.keys(key)
    while not done():
        if time.monotonic() - started > limit:
            return limit * 1000
        time.sleep(0.005)
    return (time.monotonic() - started) * 1000


def key_latencies(tmux: Tmux, count: int, presses: int) -> dict[str, list[float]]:
    """Latency (ms) of the dashboard's keys: focus, open, back, the command palette."""

    focus = corners(tmux)[0]  # the first tile has the focus when the dashboard opens

    def focused(index: int) -> Callable[[], bool]:
        def check() -> bool:
            colours = corners(tmux)
            return len(colours) == count and colours[index] == focus

        return check

    def shown(text: str, present: bool = True) -> Callable[[], bool]:
        return lambda: (text in tmux.capture()) == present

    times: dict[str, list[float]] = {"focus": [], "open": [], "back": [], "palette": []}
    for press in range(presses):
        times["focus"].append(timed_key(tmux, "Right", focused((press + 1) % count)))
        # Keys come apart, as a person's do: one key's work must not overlap the next's timing.
        time.sleep(0.2)
    for _ in range(max(1, presses // 2)):
        times["open"].append(timed_key(tmux, "Enter", shown(" WATCH ")))
        time.sleep(0.3)
        times["back"].append(timed_key(tmux, "Escape", shown(" WATCH ", False)))
        time.sleep(0.3)
    for _ in range(max(1, presses // 3)):
        times["palette"].append(timed_key(tmux, "C-p", shown("Search for commands")))
        time.sleep(0.3)
        timed_key(tmux, "Escape", shown("Search for commands", False))
        time.sleep(0.3)
    return times
