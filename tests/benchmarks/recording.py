"""asciicast throughput: does reading or recording ever slow down watching or replaying?

Run: ``python -m tests.benchmarks.recording [--mib 20] [--emulator-mib 2]``

A user never waits for asciicast itself: a live view feeds every byte to the terminal emulator, and
replaying, rendering, searching and indexing a recording feed the emulator too. So the goal is
that the recording layer costs at most a tenth of what the emulator costs on the same output
(ratio ≥ 10 in MB/s), i.e. recording adds at most 10 % to watching, and reading at most 10 % to
replaying. The anchor, the emulator (``TerminalModel`` 120x40, default scrollback), is measured
in the same run on the same data.

One generated agent-like session (coloured log lines of ~180 bytes, a marker every ~500 events):

Rates are in MB of terminal output per second for everything, so each ratio compares the
seconds two things take for the same session.

- read: ``CastReader`` over its v3 lines (validation, absolute times, damage handling); the least
  a program can do, ``json.loads`` of every line, is shown for reference;
- record events: ``Recorder`` to a real file, one event per generated line (an agent printing
  line by line), markers included (each hands the file to the OS and asks for an fsync);
- record flood: the session's output written by ``cat`` into a real PTY and read back as fast as
  possible (64 KiB reads, as the server reads its PTY): the fastest flood any agent can produce
  here. Those very chunks are recorded; the PTY's own delivery rate is shown for reference.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import pty
import random
import statistics
import subprocess
import tempfile
import time
import tty
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from observer.asciicast import CastReader, CastWriter, Event, Header
from observer.recording.recorder import Recorder
from observer.terminal import TerminalModel

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


def emulator_rate(chunks: list[bytes], mib: float) -> float:
    """MB/s of a fresh 120x40 model fed the first ``mib`` MiB of ``chunks`` one at a time."""
    sample, total = [], 0
    for chunk in chunks:
        if total >= mib * 1024 * 1024:
            break
        sample.append(chunk)
        total += len(chunk)
    model = TerminalModel(cols=120, rows=40)
    return total / 1e6 / timed(lambda: [model.feed(chunk) for chunk in sample])


def pty_flood(data: bytes, folder: Path) -> tuple[list[bytes], float]:
    """``data`` written by ``cat`` into a raw PTY: the chunks read back and the MB/s it took."""
    source = folder / "flood.bin"
    source.write_bytes(data)
    controller, terminal = pty.openpty()
    tty.setraw(terminal)  # no newline translation: the bytes come back as written
    chunks: list[bytes] = []
    started = time.perf_counter()
    child = subprocess.Popen(["cat", str(source)], stdout=terminal, stdin=subprocess.DEVNULL)
    os.close(terminal)
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # EIO: the other end closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    elapsed = time.perf_counter() - started
    child.wait()
    os.close(controller)
    if sum(map(len, chunks)) != len(data):
        raise SystemExit("the PTY lost bytes: the flood measurement is void")
    return chunks, len(data) / 1e6 / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=float, default=20.0, help="size of the generated session")
    parser.add_argument("--emulator-mib", type=float, default=2.0, help="emulator sample size")
    parser.add_argument("--repeat", type=int, default=5, help="rounds (medians are shown)")
    args = parser.parse_args()
    events = session(args.mib, random.Random(7))
    outputs = [e.data.encode() for e in events if e.code == "o"]
    timeline = [(e.time, e.code, e.data.encode() if e.code == "o" else e.data) for e in events]
    buffer = io.StringIO()
    writer = CastWriter(buffer, HEADER)
    for event in events:
        writer.write(event)
    text = buffer.getvalue()
    size = len(text.encode()) / 1e6
    flood = b"".join(outputs)
    # Every rate is in MB of terminal output (the bytes the emulator parses), so a ratio compares
    # the seconds each takes for the same session; the asciicast file is larger (JSON escapes).
    megabytes = len(flood) / 1e6
    lines = text.splitlines(keepends=True)
    # The machine is shared: every figure is taken in each round (ABCABC), each ratio within its
    # round (next to its anchor), and medians over the rounds are shown, with the ratios' spread.
    rates: dict[str, list[float]] = defaultdict(list)
    ratios: dict[str, list[float]] = defaultdict(list)
    pairs = (
        ("read", "emulator events"),
        ("record events", "emulator events"),
        ("record flood", "emulator flood"),
        ("read", "json"),
        ("record flood", "pty"),
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for number in range(args.repeat):
            rates["emulator events"].append(emulator_rate(outputs, args.emulator_mib))
            rates["read"].append(megabytes / timed(lambda: sum(1 for _ in CastReader(iter(lines)))))
            rates["json"].append(megabytes / timed(lambda: [json.loads(line) for line in lines]))
            path = folder / f"events{number}.cast"
            rates["record events"].append(megabytes / timed(lambda: record(path, timeline)))  # noqa: B023
            chunks, pty_rate = pty_flood(flood, folder)
            rates["pty"].append(pty_rate)
            path = folder / f"flood{number}.cast"
            seconds = timed(lambda: record_chunks(path, chunks))  # noqa: B023
            rates["record flood"].append(megabytes / seconds)
            rates["emulator flood"].append(emulator_rate(chunks, args.emulator_mib))
            for ours, anchor in pairs:
                ratios[ours, anchor].append(rates[ours][-1] / rates[anchor][-1])
    median = statistics.median
    mean = len(flood) / len(chunks)
    print(
        f"{len(events)} events, {megabytes:.1f} MB of terminal output, {size:.1f} MB of "
        f"asciicast v3; medians of {args.repeat} rounds; MB/s are MB of terminal output per second"
    )
    print(f"flood: {len(chunks)} PTY reads of {mean:.0f} bytes on average\n")
    print(f"{'':14} {'ours MB/s':>10} {'emulator MB/s':>14} {'ratio':>6} {'ratio min-max':>14}")
    for name, anchor in pairs[:3]:
        spread = ratios[name, anchor]
        print(
            f"{name:14} {median(rates[name]):10.1f} {median(rates[anchor]):14.1f} "
            f"{median(spread):6.1f} {f'{min(spread):.1f}-{max(spread):.1f}':>14}"
        )
    print()
    print(
        f"read: bare json.loads of every line {median(rates['json']):.1f} MB/s "
        f"(ours {median(ratios['read', 'json']):.2f}x)"
    )
    print(
        f"record flood: the PTY delivered it at {median(rates['pty']):.1f} MB/s "
        f"(ours {median(ratios['record flood', 'pty']):.2f}x)"
    )


def record(path: Path, timeline: list[tuple[float, str, bytes | str]]) -> None:
    """Record the session as a live client would: output arrives as bytes."""
    clock_values = iter([0.0] + [t for t, _, _ in timeline] + [timeline[-1][0]] * 3)
    with Recorder(path, cols=120, rows=40, format="v3", clock=lambda: next(clock_values)) as rec:
        for _, code, data in timeline:
            if code == "m":
                rec.marker(str(data))
            else:
                rec.output(data)


def record_chunks(path: Path, chunks: list[bytes]) -> None:
    with Recorder(path, cols=120, rows=40, format="v3") as rec:
        for chunk in chunks:
            rec.output(chunk)


if __name__ == "__main__":
    main()
