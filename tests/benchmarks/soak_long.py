"""Long soak: redrawing agents for hours; every process's RSS must stop growing after warm-up.

Run from the repository root::

    python -m tests.benchmarks.soak_long                                  # 10 minutes
    python -m tests.benchmarks.soak_long --minutes 120 --warmup 15        # the acceptance run
    python -m tests.benchmarks.soak_long --minutes 3 --fps 40 ...         # a smoke test

Two ``observer serve`` processes, as a team that leaves observer running all day has them:

- ``--ink`` sessions (default 10) of the Claude-Code-like agent of the fleet benchmark
  (``tests/fleet_support.py``: a 30-line truecolour region redrawn 10 times a second, about
  45 KB/s each, and a notification now and then; ``--fps`` draws faster, which fills the rings
  sooner, for short runs), watched by one dashboard (``observer watch``
  of the group, in a terminal of its own: the screen-sync view);
- ``--logs`` sessions (default 1) of its build-log agent (about 500 KB/s), watched by one
  ``observer watch`` (the full stream);
- and ``observer record`` of the first Ink-like session (``--no-record``: none).

Every ``--every`` seconds (default 60) it samples the RSS of every process (``/proc``) and
prints a row. At the end, for each process, the growth per hour after ``--warmup`` minutes (the
resume rings fill in the first few minutes, as designed): the Theil–Sen slope (the median of
the slopes between every two samples, which one noisy sample does not move) of its RSS over
the samples after warm-up. The summary table (figure | goal | anchor | measured | ratio) gives
each server's growth against its RSS at the end of warm-up; an Ink-like server that grows by
more than :data:`GOAL` MiB an hour FAILs (exit status 1) when the run after warm-up lasts at
least :data:`JUDGED` minutes (a shorter one prints its figures only: its slope is mostly noise).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

from tests.fleet_support import Tmux, fleet_server, rss_mib

GOAL = 2.0
"""MiB an hour an Ink-like server may grow after warm-up (issue: all day without growing)."""
JUDGED = 30.0
"""Minutes after warm-up below which the slope is printed but not judged."""


def theil_sen(times: list[float], values: list[float]) -> float:
    """The median of the slopes between every two points (units of ``values`` per unit of
    ``times``): robust to a few outliers, unlike least squares. 0.0 for fewer than two."""
    slopes = [
        (values[j] - values[i]) / (times[j] - times[i])
        for i, j in combinations(range(len(times)), 2)
        if times[j] != times[i]
    ]
    return statistics.median(slopes) if slopes else 0.0


@contextlib.contextmanager
def dashboard(folder: Path, token: str, name: str) -> Iterator[int]:
    """``observer watch fleet`` (the group of ``fleet_server``'s config) in a terminal of its
    own; yields its pid."""
    tmux = Tmux(name)
    env = f"OBSERVER_CONFIG_DIR={folder} OBSERVER_TOKEN={token}"
    tmux.start(f"cd {os.getcwd()} && exec env {env} {sys.executable} -m observer watch fleet")
    try:
        yield tmux.pane_pid()
    finally:
        tmux.stop()


@contextlib.contextmanager
def recorder(folder: Path, token: str) -> Iterator[int]:
    """``observer record`` of the fleet's first session into ``folder``; yields its pid."""
    url = (folder / "config.toml").read_text().split('url = "', 1)[1].split('"', 1)[0]
    process = subprocess.Popen(
        [sys.executable, "-m", "observer", "record", url, "-i", "a000", "-o", folder / "soak.cast"],
        env=dict(os.environ, OBSERVER_TOKEN=token),  # never in argv
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield process.pid
    finally:
        process.terminate()
        process.wait(timeout=30)


def sample(pids: dict[str, int], started: float, rows: dict[str, list[tuple[float, float]]]) -> str:
    """Every process's RSS now, appended to ``rows`` (minutes, MiB); the printed row."""
    minute = (time.monotonic() - started) / 60
    cells = []
    for name, pid in pids.items():
        try:
            rss = rss_mib(pid)
        except FileNotFoundError:
            raise SystemExit(f"soak_long: the {name} ({pid}) exited early") from None
        rows[name].append((minute, rss))
        cells.append(f"{rss:>{max(10, len(name))}.1f}")
    return f"{minute:>7.1f} " + " ".join(cells)


def growth(rows: list[tuple[float, float]], warmup: float) -> tuple[float, float, int]:
    """(MiB an hour after warm-up, RSS at the end of warm-up, samples used)."""
    after = [(m, r) for m, r in rows if m >= warmup]
    if len(after) < 2:
        return float("nan"), rows[-1][1] if rows else float("nan"), len(after)
    slope = theil_sen([m for m, _ in after], [r for _, r in after]) * 60
    return slope, after[0][1], len(after)


def report(rows: dict[str, list[tuple[float, float]]], warmup: float, ink: int) -> int:
    """The growth table and the summary rows; 1 if a judged Ink-like server grew too much."""
    failed = False
    print("\n| process | RSS after warm-up | RSS at the end | max | growth after warm-up |")
    print("|---|---|---|---|---|")
    for name, samples in rows.items():
        slope, settled, used = growth(samples, warmup)
        print(
            f"| {name} | {settled:.1f} MiB | {samples[-1][1]:.1f} MiB "
            f"| {max(r for _, r in samples):.1f} MiB | {slope:+.2f} MiB/hour ({used} samples) |"
        )
    judged = rows and rows["ink server"][-1][0] - warmup >= JUDGED
    print("\n| figure | goal | anchor (same run) | measured | ratio |")
    print("|---|---|---|---|---|")
    for name, label in (
        ("ink server", f"{ink} Ink-like sessions, server"),
        ("log server", "build-log sessions, server"),
        ("dashboard", f"dashboard of {ink} Ink-like sessions,"),
        ("watch", "watch of a build log,"),
        ("recorder", "recorder of an Ink-like session,"),
    ):
        if name not in rows:
            continue
        slope, settled, _ = growth(rows[name], warmup)
        minutes = rows[name][-1][0] - warmup
        goal = f"≤ {GOAL:g} MiB/hour" if name == "ink server" else "flat"
        print(
            f"| soak: {label} RSS growth after warm-up | {goal} "
            f"| RSS after {warmup:g} min warm-up: {settled:.0f} MiB "
            f"| {slope:+.2f} MiB/hour over {minutes:.0f} min "
            f"| {slope / max(settled, 1) * 100:+.2f} %/hour |"
        )
        if name == "ink server" and judged and slope > GOAL:
            failed = True
    if judged:
        print(("FAIL" if failed else "PASS") + f": the Ink-like server grows ≤ {GOAL:g} MiB/hour")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="the whole run")
    parser.add_argument("--warmup", type=float, default=4.0, help="minutes not judged")
    parser.add_argument("--fps", type=float, default=10.0, help="the Ink-like agents' frames/s")
    parser.add_argument("--every", type=float, default=60.0, help="seconds between samples")
    parser.add_argument("--ink", type=int, default=10, help="Ink-like sessions")
    parser.add_argument("--logs", type=int, default=1, help="build-log sessions")
    parser.add_argument("--no-record", action="store_true", help="no recorder")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print(
            "soak_long: tmux is not installed — install it to run this benchmark", file=sys.stderr
        )
        return 1
    os.environ["INK_FPS"] = str(args.fps)  # read by the agents (tests/fleet_support.py)
    # Stopped early (kill): the servers, the terminals and the recorder are stopped too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("soak_long: stopped"))
    with contextlib.ExitStack() as stack:
        ink_folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        log_folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        ink_token, ink_pid = stack.enter_context(fleet_server(ink_folder, "ink", args.ink))
        pids = {"ink server": ink_pid}
        pids["dashboard"] = stack.enter_context(dashboard(ink_folder, ink_token, "soak-dash"))
        if not args.no_record:
            pids["recorder"] = stack.enter_context(recorder(ink_folder, ink_token))
        if args.logs:
            log_token, log_pid = stack.enter_context(fleet_server(log_folder, "log", args.logs))
            pids["log server"] = log_pid
            pids["watch"] = stack.enter_context(dashboard(log_folder, log_token, "soak-watch"))
        print(
            f"soak_long: {args.minutes:g} min ({args.warmup:g} warm-up), {args.ink} Ink-like "
            f"({args.fps:g} frames/s) and "
            f"{args.logs} build-log sessions, RSS (MiB) every {args.every:g} s; pids "
            + ", ".join(f"{name} {pid}" for name, pid in pids.items())
        )
        print(f"{'minute':>7} " + " ".join(f"{name:>10}" for name in pids), flush=True)
        rows: dict[str, list[tuple[float, float]]] = {name: [] for name in pids}
        started = time.monotonic()
        while True:
            print(sample(pids, started, rows), flush=True)
            left = started + args.minutes * 60 - time.monotonic()
            if left <= 0:
                break
            time.sleep(min(args.every, left))
    return report(rows, args.warmup, args.ink)


if __name__ == "__main__":
    sys.exit(main())
