"""Emulator throughput: stock pyte 0.8.2 against ``observer.terminal.TerminalModel``.

Run: ``python -m tests.benchmarks.terminal [--mib 1] [--history]``

Three generated corpora (plain log lines; coloured ``ls``/``grep`` output; a full-screen
redraw stream like an agent's UI), at 80x24 and 200x50, fed in 4 KiB chunks as a PTY
delivers them. Prints MB/s for both and the ratio, and whether the final screens match.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from functools import partial

import pyte

from observer.terminal import TerminalModel

CHUNK = 4096
SIZES = ((80, 24), (200, 50))
WORDS = [
    "request",
    "worker",
    "cache",
    "build",
    "test",
    "module",
    "parse",
    "render",
    "index",
    "commit",
    "retry",
    "token",
]


def plain(size: int, rnd: random.Random) -> bytes:
    """Log lines: timestamps, levels, words, numbers."""
    out, total = [], 0
    while total < size:
        words = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(3, 9)))
        line = (
            f"2025-06-01 12:{rnd.randint(0, 59):02d}:{rnd.randint(0, 59):02d}.{rnd.randint(0, 999):03d} "
            f"{rnd.choice(['INFO', 'DEBUG', 'WARN'])} [worker-{rnd.randint(1, 9)}] {words} "
            f"took {rnd.randint(1, 999)}ms\r\n"
        ).encode()
        out.append(line)
        total += len(line)
    return b"".join(out)


def coloured(size: int, rnd: random.Random) -> bytes:
    """``ls --color`` listings and ``grep --color`` matches."""
    out, total = [], 0
    while total < size:
        if rnd.random() < 0.5:
            names = [
                f"\x1b[0m\x1b[01;{rnd.choice(['34', '32', '36', '35'])}m{rnd.choice(WORDS)}{i}\x1b[0m"
                for i in range(rnd.randint(2, 6))
            ]
            line = "  ".join(names) + "\r\n"
        else:
            word = rnd.choice(WORDS)
            line = (
                f"\x1b[35msrc/{rnd.choice(WORDS)}.py\x1b[m\x1b[36m:\x1b[m\x1b[32m{rnd.randint(1, 999)}"
                f"\x1b[m\x1b[36m:\x1b[m    def \x1b[01;31m\x1b[K{word}\x1b[m\x1b[K(self, {rnd.choice(WORDS)}):\r\n"
            )
        data = line.encode()
        out.append(data)
        total += len(data)
    return b"".join(out)


def redraw(size: int, rnd: random.Random, cols: int = 80, rows: int = 24) -> bytes:
    """An agent UI: synchronized frames, cursor moves, colours, box drawing, partial
    rewrites of lines and a spinner."""
    spinner = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
    out, total, frame = [], 0, 0
    while total < size:
        parts = ["\x1b[?2026h\x1b[?25l"]
        for _ in range(rnd.randint(2, 6)):
            row = rnd.randint(1, rows - 2)
            text = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(2, 8)))[: cols - 4]
            colour = rnd.choice(
                [f"38;5;{rnd.randint(16, 231)}", f"38;2;{rnd.randint(0, 255)};180;90", "1;37"]
            )
            parts.append(f"\x1b[{row};1H\x1b[2m│\x1b[22m \x1b[{colour}m{text}\x1b[0m\x1b[K")
        parts.append(f"\x1b[{rows - 1};1H\x1b[38;5;244m" + "─" * (cols - 1) + "\x1b[0m")
        parts.append(
            f"\x1b[{rows};1H\x1b[38;5;174m{spinner[frame % 10]}\x1b[0m Working… ({frame % 60}s · esc to interrupt)\x1b[K"
        )
        parts.append(f"\x1b[{rnd.randint(1, rows)};{rnd.randint(1, cols)}H\x1b[?2026l")
        data = "".join(parts).encode()
        out.append(data)
        total += len(data)
        frame += 1
    return b"".join(out)


def feed_pyte(data: bytes, cols: int, rows: int, history: bool = False) -> list[str]:
    screen = pyte.HistoryScreen(cols, rows, history=10_000) if history else pyte.Screen(cols, rows)
    stream = pyte.ByteStream(screen)
    for i in range(0, len(data), CHUNK):
        stream.feed(data[i : i + CHUNK])
    return [line.rstrip() for line in screen.display]


def feed_model(data: bytes, cols: int, rows: int) -> list[str]:
    model = TerminalModel(cols, rows)
    for i in range(0, len(data), CHUNK):
        model.feed(data[i : i + CHUNK])
    return model.text()


def rate(fn: Callable[[], list[str]], size: int, repeat: int) -> tuple[float, list[str]]:
    best, screen = float("inf"), []
    for _ in range(repeat):
        start = time.process_time()
        screen = fn()
        best = min(best, time.process_time() - start)
    return size / best / 1e6, screen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=float, default=1.0, help="corpus size (default 1 MiB)")
    parser.add_argument("--repeat", type=int, default=2, help="runs per figure; best is kept")
    parser.add_argument("--history", action="store_true", help="also measure pyte.HistoryScreen")
    args = parser.parse_args()
    size = int(args.mib * (1 << 20))
    head = f"{'corpus':<10}{'size':>8}{'pyte MB/s':>11}{'model MB/s':>12}{'ratio':>8}  screens"
    if args.history:
        head += f"{'History MB/s':>14}{'ratio':>8}"
    print(head)
    ratios = []
    for cols, rows in SIZES:
        corpora = {
            "plain": plain(size, random.Random(1)),
            "coloured": coloured(size, random.Random(2)),
            "redraw": redraw(size, random.Random(3), cols, rows),
        }
        for name, data in corpora.items():
            base, expected = rate(partial(feed_pyte, data, cols, rows), len(data), args.repeat)
            ours, got = rate(partial(feed_model, data, cols, rows), len(data), args.repeat)
            ratios.append(ours / base)
            line = (
                f"{name:<10}{f'{cols}x{rows}':>8}{base:>11.2f}{ours:>12.2f}{ours / base:>7.1f}x  "
            )
            line += "same" if expected == got else "DIFFER"
            if args.history:
                hist, _ = rate(partial(feed_pyte, data, cols, rows, True), len(data), 1)
                line += f"{hist:>14.2f}{ours / hist:>7.1f}x"
            print(line, flush=True)
    print(f"lowest ratio {min(ratios):.1f}x")


if __name__ == "__main__":
    main()
