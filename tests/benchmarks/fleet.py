"""Fleet figures: one dashboard watching N agents, against the same agents in tmux panes.

Run from the repository root::

    python -m tests.benchmarks.fleet [--agents 1 10 40] [--logs 1 10] [--seconds 15]
                                     [--long 65] [--keys 10] [--no-anchor]

For each N, N agents run under one ``observer serve`` (one PTY each, 120x40) and ``observer
watch`` opens them all as a dashboard in a real terminal (a tmux server of its own, 200x60).
The agents (``tests/fleet_support.py``): ``ink`` draws a Claude-Code-like UI, a 30-line region
erased and redrawn 10 times a second with every word in a truecolour SGR (about 45 KB/s), and
sends a desktop notification (OSC 9) now and then (one every 2 s or so over the fleet);
``log`` scrolls a build log at about 500 KB/s. Every frame or line carries the agent's wall clock
in milliseconds on the cursor's line, which a tile shows. Over ``--seconds`` (the largest ink
fleet over ``--long``: a minute of continuous output, for the collector's pacing):

- client CPU (% of one core) and peak RSS of the ``observer watch`` process; the server's CPU;
- the screen frames the tiles applied a second, and the client's CPU per frame: on a busy
  machine the server sends fewer frames than its agents draw, and the client's CPU falls with
  them; its CPU per frame is what its own work costs;
- tile lag: from an agent writing a stamp to the stamp first on the dashboard's screen
  (``tmux capture-pane`` every 25 ms, which adds up to 25 ms), p50 / p95 / max; the same for a
  notification's text on its tile;
- pauses: the longest garbage collection in the client (``gc.callbacks``), and the longest
  time the whole screen stayed unchanged while the agents drew (from its first capture to the
  last that showed it; the longest time between two captures, this poller's own delays on a busy
  machine, is printed beside it);
- keys, with the largest ink fleet: from ``tmux send-keys`` to the screen showing the effect
  (focus the next tile, open it, back, open the command palette), p50 / max;
- the anchor, in the same run: the same N agents in N panes of one tmux window (the tmux
  server's CPU and RSS; tile lag read the same way), detached like the dashboard's terminal.

The machine's load during each run (all cores, ``/proc/stat``) is printed with it. Prints the
runs' table, then the summary table (figure | goal | anchor (same run) | measured | ratio) for
the largest fleets, which ``tests/benchmarks/adapters.py`` reads.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.fleet_support import (
    AGENT,
    TIMED_OBSERVER,
    Tmux,
    Usage,
    Watched,
    fleet_server,
    key_latencies,
    watch,
)

WARMUP = 6.0
ANCHOR_SECONDS = 10.0


@dataclass
class Run:
    """One fleet in one terminal."""

    name: str
    profile: str
    count: int
    cpu: float
    rss: float
    machine: float
    watched: Watched
    server_cpu: float | None = None
    longest_gc: float | None = None
    server_gc: float | None = None
    keys: dict[str, list[float]] = field(default_factory=dict)
    frames: float | None = None
    """Screen frames the tiles applied a second (the dashboard's work, whatever the load)."""

    @property
    def per_frame(self) -> float | None:
        """The client's CPU per screen frame applied (ms)."""
        return 10 * self.cpu / self.frames if self.frames else None


def dashboard(profile: str, count: int, seconds: float, presses: int) -> Run:
    """``count`` agents of ``profile`` on one dashboard in a terminal of its own."""
    with tempfile.TemporaryDirectory() as name, fleet_server(Path(name), profile, count) as up:
        folder = Path(name)
        token, server_pid = up
        env = f"OBSERVER_CONFIG_DIR={folder} OBSERVER_TOKEN={token}"
        client = (
            f"{sys.executable} -c {shlex.quote(TIMED_OBSERVER)} {folder / 'gc.json'} watch fleet"
        )
        tmux = Tmux("dash")
        tmux.start(f"cd {os.getcwd()} && exec env {env} {client}")
        try:
            time.sleep(WARMUP)
            usage, server = Usage([tmux.pane_pid()]), Usage([server_pid])
            counted = Path(f"{folder / 'gc.json'}.frames")
            first, began = frames_applied(counted), time.monotonic()
            watched = watch(tmux, seconds, usage)
            cpu, rss, machine = usage.result()
            frames = (frames_applied(counted) - first) / (time.monotonic() - began)
            longest, server_gc = (
                longest_collection(folder / f) for f in ("gc.json", "server-gc.json")
            )
            keys = key_latencies(tmux, count, presses) if presses and count > 1 else {}
            name = f"{'dashboard' if count > 1 else 'watch view'}, {count} {profile}"
            return Run(name, profile, count, cpu, rss, machine, watched, server.result()[0],
                       longest, server_gc, keys, frames or None)  # fmt: skip
        finally:
            tmux.stop()


def frames_applied(path: Path) -> int:
    """How many screen frames a ``TIMED_OBSERVER`` client's tiles applied so far."""
    try:
        return int(path.read_text() or 0)
    except (FileNotFoundError, ValueError):  # not written yet, or being written
        return 0


def longest_collection(path: Path) -> float | None:
    """The longest garbage collection (s) that a ``TIMED_OBSERVER`` process wrote to ``path``."""
    return float(json.loads(path.read_text())["longest"]) if path.exists() else None


def anchor(profile: str, count: int, seconds: float) -> Run:
    """The same agents in ``count`` panes of one tmux window."""
    command = f"{sys.executable} -c {shlex.quote(AGENT)} {profile} {count}"
    tmux = Tmux("anchor")
    tmux.start(command)
    try:
        for _ in range(count - 1):
            tmux("split-window", "-d", command)
            tmux("select-layout", "tiled")
        time.sleep(2.0)
        usage = Usage([tmux.server_pid()])
        watched = watch(tmux, seconds, usage)
        cpu, rss, machine = usage.result()
        return Run(f"tmux panes, {count} {profile}", profile, count, cpu, rss, machine, watched)
    finally:
        tmux.stop()


def pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def lags(values: list[float]) -> str:
    return f"{pct(values, 0.5):.0f} / {pct(values, 0.95):.0f} / {max(values or [0]):.0f}"


def run_row(run: Run) -> str:
    server = f"{run.server_cpu:.0f} %" if run.server_cpu is not None else "—"
    collected = " / ".join(
        f"{took * 1000:.0f} ms" if took is not None else "—"
        for took in (run.longest_gc, run.server_gc)
    )
    return (
        f"| {run.name} | {run.cpu:.1f} % | {run.rss:.0f} MiB "
        f"| {lags(run.watched.lags)} ms ({len(run.watched.lags)}) | {collected} "
        f"| {run.watched.stillest:.0f} ms (captures {run.watched.gap:.0f} ms apart at most) "
        f"| {server} | {run.machine:.0f} % | {frames_cost(run)} |"
    )


def frames_cost(run: Run) -> str:
    """Screen frames applied a second, and the client's CPU per frame."""
    if run.frames is None or run.per_frame is None:
        return "—"
    return f"{run.frames:.0f} / {run.per_frame:.2f} ms"


PROFILES = {"ink": "Ink-like", "log": "build-log"}


def summary(runs: dict[tuple[str, str, int], Run]) -> list[str]:
    """Rows for the largest fleet of each profile: figure | goal | anchor | measured | ratio."""
    rows = ["| figure | goal | anchor (same run) | measured | ratio |", "|---|---|---|---|---|"]
    for profile, kind in PROFILES.items():
        sizes = [n for (p, where, n) in runs if p == profile and where == "dashboard"]
        if not sizes:
            continue
        n = max(sizes)
        ours, tmux = runs[(profile, "dashboard", n)], runs.get((profile, "tmux", n))
        head = f"fleet: {n} {kind} agents"
        cpu_anchor = f"tmux panes: {tmux.cpu:.1f} %" if tmux else "—"
        ratio = f"{ours.cpu / tmux.cpu:.1f}× tmux" if tmux and tmux.cpu else "—"
        rss_anchor = f"tmux panes: {tmux.rss:.0f} MiB" if tmux else "—"
        lag_anchor = f"tmux panes: {lags(tmux.watched.lags)} ms" if tmux else "—"
        floor = ("≤ 40 % of a core", "≤ 250 MiB") if profile == "ink" else ("—", "—")
        rows += [
            f"| {head}, client CPU | {floor[0]} | {cpu_anchor} | {ours.cpu:.1f} % | {ratio} |",
            f"| {head}, client RSS | {floor[1]} | {rss_anchor} | {ours.rss:.0f} MiB | — |",
            f"| {head}, tile lag p50 / p95 / max | p95 ≤ 250 ms | {lag_anchor} "
            f"| {lags(ours.watched.lags)} ms | — |",
            f"| {head}, longest pause (collection / screen still) | ≤ 250 ms | — "
            f"| {(ours.longest_gc or 0) * 1000:.0f} / {ours.watched.stillest:.0f} ms | — |",
            f"| {head}, server CPU | < 100 % of a core | — | {ours.server_cpu or 0:.0f} % | — |",
            f"| {head}, screen frames applied a second / client CPU each | — | — "
            f"| {frames_cost(ours)} | — |",
        ]
        if profile == "ink":
            rows.append(
                f"| {head}, notification → tile p50 / max | ≤ 250 ms | — "
                f"| {pct(ours.watched.notified, 0.5):.0f} / {max(ours.watched.notified or [0]):.0f}"
                f" ms ({len(ours.watched.notified)}) | — |"
            )
            if ours.keys:
                keys = ", ".join(
                    f"{key} {statistics.median(times):.0f} / {max(times):.0f}"
                    for key, times in ours.keys.items()
                    if times
                )
                rows.append(f"| {head}, keys p50 / max | every key ≤ 250 ms | — | {keys} ms | — |")
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, nargs="*", default=[1, 10, 40])
    parser.add_argument("--logs", type=int, nargs="*", default=[1, 10])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--long", type=float, default=65.0, help="the largest ink fleet's run")
    parser.add_argument("--keys", type=int, default=10, help="presses of the focus key")
    parser.add_argument("--no-anchor", action="store_true")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print("fleet: tmux is not installed — install it to run this benchmark", file=sys.stderr)
        return 1
    print("load average before: " + " ".join(f"{load:.2f}" for load in os.getloadavg()))
    print(
        "\n| run | CPU (% of one core) | RSS | tile lag p50 / p95 / max (stamps) "
        "| longest collection (client / server) | screen still at most | server CPU "
        "| machine busy (all cores) | screen frames a second / client CPU each |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    runs: dict[tuple[str, str, int], Run] = {}
    largest = max(args.agents, default=0)
    for profile, count in [("ink", n) for n in args.agents] + [("log", n) for n in args.logs]:
        long = profile == "ink" and count == largest
        ours = dashboard(
            profile, count, args.long if long else args.seconds, args.keys if long else 0
        )
        runs[(profile, "dashboard", count)] = ours
        print(run_row(ours), flush=True)
        if not args.no_anchor:
            theirs = anchor(profile, count, min(args.seconds, ANCHOR_SECONDS))
            runs[(profile, "tmux", count)] = theirs
            print(run_row(theirs), flush=True)
    print()
    print("\n".join(summary(runs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
