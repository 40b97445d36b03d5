"""asciicast throughput: our reader, writer and crash-safe recorder against bare baselines.

Run: ``python -m tests.benchmarks.recording [--mib 20]``

One generated agent-like session (coloured log lines, prompts, markers every ~500 events) is
written and read in the same run. Each row compares our code with the least a program must do:

- read: ``CastReader`` (validation, times, damage handling) vs ``json.loads`` of every line;
- write: ``CastWriter`` (exact microseconds, clean UTF-8) vs ``json.dumps`` of every event;
- record: ``Recorder`` to a real file (bytes decoded, line-buffered: every event reaches the OS,
  fsync at markers) vs the same lines written one ``write()`` each, block-buffered, never synced —
  the price of surviving ``kill -9``. Events here are small (~180 bytes); a PTY under a flood
  delivers 4 KiB or more per read, so per-event costs weigh less in a live session.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from observer.asciicast import CastReader, CastWriter, Event, Header
from observer.recording import Recorder

HEADER = Header(version=3, cols=120, rows=40, title="bench")


def session(mib: float, rnd: random.Random) -> list[Event]:
    """Agent-like output events totalling about ``mib`` MiB, with a marker every ~500 events."""
    events, total, now = [], 0, 0.0
    while total < mib * 1024 * 1024:
        now += rnd.expovariate(50)
        if len(events) % 500 == 499:
            events.append(Event(now, "m", f"step {len(events)}"))
            continue
        colour = rnd.choice(["31", "32", "33", "36", "1;34"])
        text = f"\x1b[{colour}m{rnd.randint(0, 99999):05d}\x1b[0m " + "word é " * rnd.randint(2, 30)
        events.append(Event(now, "o", text + "\r\n"))
        total += len(text) + 2
    return events


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=float, default=20.0, help="size of the generated session")
    args = parser.parse_args()
    events = session(args.mib, random.Random(7))
    buffer = io.StringIO()
    writer = CastWriter(buffer, HEADER)
    ours_write = timed(lambda: [writer.write(e) for e in events])
    text = buffer.getvalue()
    size = len(text.encode()) / 1e6
    base_write = timed(lambda: [json.dumps([e.time, e.code, e.data]) for e in events])
    lines = text.splitlines(keepends=True)
    ours_read = timed(lambda: sum(1 for _ in CastReader(iter(lines))))
    base_read = timed(lambda: [json.loads(line) for line in lines])
    with tempfile.TemporaryDirectory() as tmp:
        ours_rec = timed(lambda: record(Path(tmp) / "a.cast", events))
        base_rec = timed(lambda: write_lines(Path(tmp) / "b.cast", lines))
        os.sync()
    print(f"{len(events)} events, {size:.1f} MB of asciicast v3\n")
    print(f"{'':8} {'ours MB/s':>10} {'baseline MB/s':>14} {'ratio':>6}")
    for name, ours, base in (
        ("read", ours_read, base_read),
        ("write", ours_write, base_write),
        ("record", ours_rec, base_rec),
    ):
        print(f"{name:8} {size / ours:10.1f} {size / base:14.1f} {base / ours:6.2f}")


def write_lines(path: Path, lines: list[str]) -> None:
    """The baseline recorder: one write() per event line, block-buffered, never synced."""
    with path.open("w", encoding="utf-8") as stream:
        for line in lines:
            stream.write(line)


def record(path: Path, events: list[Event]) -> None:
    clock_values = iter([0.0] + [e.time for e in events] + [events[-1].time] * 3)
    with Recorder(path, cols=120, rows=40, clock=lambda: next(clock_values)) as rec:
        for event in events:
            if event.code == "m":
                rec.marker(event.data)
            else:
                rec.output(event.data.encode())


if __name__ == "__main__":
    main()
