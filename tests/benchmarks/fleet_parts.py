"""Where a dashboard's CPU goes, counted inside the process: its parts' CPU time, not samples.

Run from the repository root::

    python -m tests.benchmarks.fleet_parts [--agents 40] [--profile ink] [--seconds 30]

The fleet benchmark's agents (``tests/fleet_support.py``) under one ``observer serve``, and
``observer watch fleet`` on them in a tmux server of its own (200x60), as in
``python -m tests.benchmarks.fleet``; with ``--agents 1 --profile log`` the watch view of one
build log. After a warm-up the dashboard's own parts are timed with ``time.thread_time`` (the
CPU its main thread spends in each, whatever else the machine runs: a sampling profiler counts
a thread the machine preempts as busy where it stood, so on a loaded machine it gives the slowest
parts' wall time), and its threads' CPU is read from ``/proc``. Prints, for each part, its
share of one core, its calls a second and its CPU per call; parts nest (the parse queue's feed
holds the model's), and what no part names is the event loop's, the sockets' and Textual's own.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path

from tests.fleet_support import Tmux, fleet_server

PARTS_OBSERVER = r"""
import gc, json, os, sys, threading, time
path = sys.argv[1]
parts = {}
def timed(owner, name, label):
    function = getattr(owner, name)
    def wrapper(*args, **kwargs):
        started = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            part = parts.setdefault(label, [0.0, 0])
            part[0] += time.thread_time() - started
            part[1] += 1
    setattr(owner, name, wrapper)
from observer.app.widgets.fleet_grid import FleetGrid
from observer.app.widgets.terminal_canvas import TerminalCanvas
from observer.client.parse_queue import ParseQueue
from observer.client.tile_view import TileView
from observer.client.watched import WatchedSession
from observer.protocol.adapters.native import NativeAdapter
from observer.recording.history import SessionHistory
from observer.terminal import TerminalModel
PARTS = [
    (WatchedSession, "received", "a message received (decoded, applied)"),
    (NativeAdapter, "receive", "  its JSON decoded into events"),
    (TileView, "frame", "  a tile's screen frame applied"),
    (WatchedSession, "feed", "the parse queue fed"),
    (TerminalModel, "feed", "  the terminal model parsing"),
    (SessionHistory, "fed", "  live rewind's history"),
    (FleetGrid, "_frame", "the grid's frames (which lines changed)"),
    (FleetGrid, "render_lines", "the grid's lines composed"),
    (TerminalCanvas, "render_lines", "the watch view's lines composed"),
]
for owner, name, label in PARTS:
    parts[label] = [0.0, 0]
    timed(owner, name, label)
collecting = [0.0]
def collected(phase, info):
    if phase == "start":
        collecting[0] = time.perf_counter()
        return
    part = parts.setdefault("the cyclic garbage collector (wall time, wherever it ran)", [0.0, 0])
    part[0] += time.perf_counter() - collecting[0]
    part[1] += 1
gc.callbacks.append(collected)
def threads():
    names = {t.native_id: t.name for t in threading.enumerate()}
    cpu = {}
    for tid in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{tid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        name = names.get(int(tid), f"thread {tid}")
        cpu[name] = cpu.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return cpu
def report():
    while True:
        time.sleep(1.0)
        state = {"wall": time.monotonic(), "threads": threads(), "parts": parts}
        with open(path + ".new", "w") as f:
            json.dump(state, f)
        os.replace(path + ".new", path)
threading.Thread(target=report, daemon=True, name="parts report").start()
from observer.cli import main
sys.exit(main(sys.argv[2:]))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=40)
    parser.add_argument("--profile", choices=["ink", "log"], default="ink")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=15.0)
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        token, _ = stack.enter_context(fleet_server(folder, args.profile, args.agents))
        tmux = Tmux(f"fleet-parts-{os.getpid()}")
        report = folder / "parts.json"
        view = "fleet" if args.agents > 1 else "a000"
        tmux.start(
            f"cd {os.getcwd()} && exec env OBSERVER_CONFIG_DIR={folder} OBSERVER_TOKEN={token} "
            f"{sys.executable} -c {shlex.quote(PARTS_OBSERVER)} {report} watch {view}"
        )
        stack.callback(tmux.stop)
        time.sleep(args.warmup)
        before = json.loads(report.read_text())
        time.sleep(args.seconds)
        after = json.loads(report.read_text())
    wall = after["wall"] - before["wall"]
    print(
        f"observer watch, {args.agents} {args.profile} agent(s), {wall:.0f} s after "
        f"{args.warmup:.0f} s of warm-up; load average {os.getloadavg()[0]:.2f}\n"
    )
    print("| part | % of one core | calls a second | µs a call |\n|---|---|---|---|")
    for name, cpu in after["threads"].items():
        share = 100 * (cpu - before["threads"].get(name, 0.0)) / wall
        print(f"| thread: {name} | {share:.2f} | | |")
    for label, (seconds, calls) in after["parts"].items():
        if not calls:
            continue
        seconds -= before["parts"].get(label, [0.0, 0])[0]
        calls -= before["parts"].get(label, [0.0, 0])[1]
        each = f"{1e6 * seconds / calls:.1f}" if calls else "-"
        print(f"| {label} | {100 * seconds / wall:.2f} | {calls / wall:.1f} | {each} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
