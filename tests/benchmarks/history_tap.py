"""What live rewind's history costs a watched build log, against parsing the same log.

Run from the repository root::

    python -m tests.benchmarks.history_tap [--mib 8] [--rounds 5]

A build log (120x40, 10,000 lines of scrollback, as the watch view keeps) is fed to a model in
the feeder's pieces, timed as if it came at 500 KB/s, alone and with a
:class:`~observer.recording.history.SessionHistory` tapping it (redacted, spooled, keyframes of
the live model), in alternating rounds. Two logs: the fleet benchmark's (``[n] @stamp CC
src/module_n/file_n.o -O2 -Wall -c ok``) and the same with the words a real log holds ("high",
"through", "task-", "github"), which hold what secret shapes start with. Prints the CPU time
(this process's, the spool's thread included) of parsing alone and the tap's on top of it, per
MB and as a ratio of parsing: medians and ranges over the rounds, and the keyframes taken.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from observer.recording.history import SessionHistory
from observer.terminal import TerminalModel

RATE = 500_000
"""Bytes a second the log comes at (the fleet benchmark's agent)."""
PIECE = 16 * 1024
"""Bytes parsed at once (about what the feeder parses in a piece)."""
FLEET = (
    b"\x1b[32m[%8d]\x1b[0m @%08d CC src/module_%04d/file_%03d.o -O2 -Wall -c \x1b[33mok\x1b[0m\r\n"
)
WORDED = (
    b"\x1b[32m[%8d]\x1b[0m @%08d CC src/module_%04d/file_%03d.o -O2 through the high-level"
    b" task-runner (github mirror) \x1b[33mok\x1b[0m\r\n"
)


def log(line: bytes, size: int) -> list[bytes]:
    """``size`` bytes of ``line`` numbered, cut into pieces."""
    lines, total, n = [], 0, 0
    while total < size:
        n += 1
        lines.append(line % (n, n, n % 9973, n % 997))
        total += len(lines[-1])
    data = b"".join(lines)
    return [data[i : i + PIECE] for i in range(0, len(data), PIECE)]


def feed(pieces: list[bytes], tapped: bool) -> tuple[float, int]:
    """CPU seconds to feed ``pieces`` (with the history's tap), and the keyframes taken."""
    model = TerminalModel(120, 40, 10_000)
    with tempfile.TemporaryDirectory() as folder:
        history = SessionHistory(Path(folder), model, 0.0) if tapped else None
        started, now = time.process_time(), 0.0
        for piece in pieces:
            now += len(piece) / RATE
            model.feed(piece)
            if history is not None:
                history.fed(piece, model, now)
        keyframes = 0
        if history is not None:
            history.flush(model, now)
            history.write_out()  # what the spool's thread would write, counted here
            keyframes = len(history.keyframes.keyframes)
        spent = time.process_time() - started
        if history is not None:
            history.close()
    return spent, keyframes


def spread(values: list[float], unit: str = "") -> str:
    return f"{statistics.median(values):.2f}{unit} ({min(values):.2f}-{max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=float, default=8.0)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    size = int(args.mib * 1024 * 1024)
    print("| log | parsing alone, ms/MB | the tap on top, ms/MB | tap / parsing | keyframes |")
    print("|---|---|---|---|---|")
    for name, line in (("fleet build log", FLEET), ("with ordinary words", WORDED)):
        pieces = log(line, size)
        alone, tap, ratio = [], [], []
        for _ in range(args.rounds):
            parsed, _ = feed(pieces, tapped=False)
            total, keyframes = feed(pieces, tapped=True)
            alone.append(1000 * parsed / args.mib)
            tap.append(1000 * (total - parsed) / args.mib)
            ratio.append((total - parsed) / parsed)
        seconds = size / RATE
        print(
            f"| {name} | {spread(alone)} | {spread(tap)} | {spread(ratio, '×')} "
            f"| {keyframes} in {seconds:.0f} s |"
        )


if __name__ == "__main__":
    main()
