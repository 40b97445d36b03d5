"""Live rewind one hour into a busy session: seeks, the history's memory and its cost per byte.

Run: ``python -m tests.benchmarks.rewind [--minutes 60] [--mib 55] [--seeks 100]``

The hour is the replay benchmark's synthetic agent (``tests/benchmarks/replay.py``: spinners,
streamed prose, coloured diffs, full-screen redraws, idle gaps, a marker every few minutes, 120x40),
generated fast and fed as a live session is: into the watch view's model (10,000 lines of
scrollback) at the events' own times, with a :class:`SessionHistory` tapping it as the session
core does (redacted, spooled to disk, keyframes from the live model). Then, in one run:

- seeks: 100 random moments of the hour, back from live, with :class:`Rewind` (restore a
  keyframe, read the spool back, feed the rest) vs re-feeding the history from its start (fewer
  samples: each costs seconds);
- memory: what the history keeps after the hour (``tracemalloc``, current traced bytes once the
  hour is fed, less the same feed without a history), in two processes of their own;
- cost: CPU seconds to feed the hour into the live model alone, and with the history's tap (the
  history's share of watching a busy agent), the collector paced as the app paces it.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from observer.recording.history import SessionHistory
from observer.replay import screen_at
from observer.replay.rewind import Rewind
from observer.runtime.collector import CollectorPacing
from observer.terminal import TerminalModel
from tests.benchmarks.replay import (
    COLS,
    ROWS,
    generate,
    hour_arguments,
    percentile,
    print_seeks,
)

SCROLLBACK = 10_000
PACE_EVERY = 500
"""Agent writes between two ticks of the collector's pacing (the app ticks every second)."""
Hour = list[tuple[float, str, str]]


def the_hour(minutes: float, mib: float) -> Hour:
    """The synthetic session's events: ``(time, code, data)``."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hour.cast"
        generate(path, minutes, mib)
        lines = path.read_text(encoding="utf-8").splitlines()[1:]
    return [tuple(json.loads(line)) for line in lines]  # type: ignore[misc]


def feed(hour: Hour, folder: Path | None) -> tuple[TerminalModel, SessionHistory | None, float]:
    """Feed the hour into a live model (and a history in ``folder``); the CPU seconds it took
    (this process's, the spool's thread included: wall time on a shared machine says more about
    the other work on it)."""
    model = TerminalModel(COLS, ROWS, SCROLLBACK)
    history = SessionHistory(folder, model, 0.0) if folder is not None else None
    pacing = CollectorPacing()  # as the app paces the collector while output flows
    started = time.process_time()
    for number, (when, code, data) in enumerate(hour):
        if number % PACE_EVERY == 0:
            pacing.tick(True)
        if code == "o":
            raw = data.encode("utf-8")
            model.feed(raw)
            if history is not None:
                history.fed(raw, model, when)
        elif code == "m" and history is not None:
            history.marker(data, when)
    if history is not None:
        history.flush(model, hour[-1][0])
        history.write_out()  # what the spool's thread would write, counted here
    spent = time.process_time() - started
    pacing.stop()
    return model, history, spent


def kept_bytes(hour: Hour, with_history: bool) -> int:
    """Bytes still allocated once the hour is fed (this process's own count)."""
    tracemalloc.start()
    with tempfile.TemporaryDirectory() as folder:
        kept = feed(hour, Path(folder) if with_history else None)
        gc.collect()
        current, _ = tracemalloc.get_traced_memory()
        del kept
    return current


def memory_in_a_process(args: argparse.Namespace, with_history: bool) -> int:
    command = [sys.executable, "-m", "tests.benchmarks.rewind", "--memory-of"]
    command += ["history" if with_history else "model"]
    command += ["--minutes", str(args.minutes), "--mib", str(args.mib)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return int(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = hour_arguments(__doc__.splitlines()[0])
    parser.add_argument("--memory-of", choices=("history", "model"))
    args = parser.parse_args()
    hour = the_hour(args.minutes, args.mib)
    if args.memory_of is not None:
        print(kept_bytes(hour, args.memory_of == "history"))
        return
    run(hour, args)


def run(hour: Hour, args: argparse.Namespace) -> None:
    _, _, alone = feed(hour, None)
    with tempfile.TemporaryDirectory() as folder:
        model, history, tapped = feed(hour, Path(folder))
        assert history is not None
        live = hour[-1][0]
        history.flush(model, live)
        disk = sum(path.stat().st_size for path in Path(folder).iterdir())
        timeline = history.timeline
        rewind = Rewind(timeline, history.keyframes)
        rnd = random.Random(1)
        moments = [rnd.uniform(0, live) for _ in range(args.seeks)]
        seeks, cpu = [], []
        for moment in moments:
            rewind.go_live()
            began, began_cpu = time.perf_counter(), time.thread_time()
            rewind.seek(moment, live)
            seeks.append(time.perf_counter() - began)
            cpu.append(time.thread_time() - began_cpu)
        baseline = []
        for moment in moments[: args.baseline_seeks]:
            began = time.perf_counter()
            screen_at(timeline, timeline.count_at(moment))
            baseline.append(time.perf_counter() - began)
        keyframes, events = len(history.keyframes.keyframes), len(timeline)
        output = timeline.output_bytes
        history.close()
    with_history = memory_in_a_process(args, True)
    without = memory_in_a_process(args, False)
    ms, mib = 1000, 1024 * 1024
    print(
        f"session: {output / 1e6:.1f} MB of output over {live / 60:.1f} min, "
        f"{len(hour):,} agent writes -> {events:,} history events, {keyframes} keyframes, "
        f"{disk / mib:.0f} MiB of spool on disk"
    )
    print()
    print_seeks("rewind", seeks, baseline)
    print(f"| seek p99, CPU time | {percentile(cpu, 0.99) * ms:.1f} ms | | |")
    print()
    print(f"samples: {len(seeks)} seeks, {len(baseline)} re-feeds")
    added = (with_history - without) / mib
    print(
        f"history memory after the hour: {added:.1f} MiB (traced: {with_history / mib:.1f} MiB "
        f"with the history, {without / mib:.1f} MiB the live model alone; goal <= 50 MiB)"
    )
    print(
        f"feeding the hour (CPU time): live model alone {alone:.1f} s, with the history's tap "
        f"{tapped:.1f} s ({tapped / alone:.2f}x)"
    )


if __name__ == "__main__":
    main()
