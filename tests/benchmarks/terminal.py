"""Emulator throughput: stock pyte 0.8.2 against ``observer.terminal.TerminalModel``.

Run: ``python -m tests.benchmarks.terminal [--mib 1] [--history]``

Four generated corpora (plain log lines; coloured ``ls``/``grep`` output; a full-screen
redraw stream like an agent's UI; an Ink-like agent UI with a truecolour SGR on most words),
at 80x24 and 200x50, fed in 4 KiB chunks as a PTY delivers them. Prints MB/s for both and
the ratio, and whether the final screens match. ``--write FILE`` writes the truecolour
corpus (3 MB, 120x40) for timing whole processes (``observer render FILE --size 120x40``);
``--process`` times those whole processes itself: ``observer render`` of that corpus against a
script that feeds the same bytes to stock pyte and prints its screen, in turns, wall and CPU
time of each process, and checks that both print the same screen.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
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


def truecolour(size: int, rnd: random.Random, cols: int = 120, rows: int = 40) -> bytes:
    """An Ink-like agent UI (Claude Code's shape): each frame erases the previous one line by
    line (``ESC[2K ESC[1A``), then redraws a bordered transcript in which most words have an
    RGB colour of their own, a "thinking" line shimmering one colour per character, and a
    status line; now and then a finished message is printed above the frame for good. Almost
    every SGR is one the model has not met before."""

    def rgb() -> str:
        return f"{rnd.randint(0, 255)};{rnd.randint(0, 255)};{rnd.randint(0, 255)}"

    def words(width: int) -> str:
        out, used = [], 0
        while True:
            word = rnd.choice(WORDS)
            if used + len(word) + 1 > width:
                return "".join(out) + " " * (width - used)
            if rnd.random() < 0.8:
                bold = "\x1b[1m" if rnd.random() < 0.1 else ""
                out.append(f"\x1b[38;2;{rgb()}m{bold}{word}\x1b[22;39m ")
            else:
                out.append(word + " ")
            used += len(word) + 1

    inner = cols - 4
    height = min(rows - 4, 14)
    out, total, frame, drawn = [], 0, 0, 0
    while total < size:
        parts = ["\x1b[2K\x1b[1A" * max(drawn - 1, 0) + "\x1b[2K\x1b[G"]
        if frame % 25 == 24:  # a finished message scrolls up into the transcript
            parts.append(f"\x1b[38;2;{rgb()}m●\x1b[39m {words(inner)}\r\n")
        border = f"\x1b[38;2;{rgb()}m"
        lines = [f"{border}╭{'─' * (cols - 2)}╮\x1b[39m"]
        for _ in range(height - 4):
            lines.append(f"{border}│\x1b[39m {words(inner)} {border}│\x1b[39m")
        lines.append(f"{border}╰{'─' * (cols - 2)}╯\x1b[39m")
        base = rnd.randint(0, 200)
        shimmer = "".join(
            f"\x1b[38;2;{base + i % 40};{120 + i * 3 % 100};{255 - i * 5 % 200}m{c}"
            for i, c in enumerate(f"✻ Thinking… ({frame % 90}s · ↑ {frame * 7} tokens)")
        )
        lines.append(shimmer + "\x1b[39m")
        lines.append("\x1b[2m  ⏵⏵ auto-accept edits on (shift+tab to cycle)\x1b[22m")
        parts.append("\r\n".join(lines))
        drawn = len(lines)
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


def timed(fn: Callable[[], list[str]]) -> tuple[float, list[str]]:
    """CPU seconds of one run (less sensitive than wall time to other processes)."""
    start = time.process_time()
    screen = fn()
    return time.process_time() - start, screen


def rates(
    base: Callable[[], list[str]], ours: Callable[[], list[str]], size: int, repeat: int
) -> tuple[float, float, bool]:
    """MB/s of both, best of ``repeat`` runs taken in turns so a busy moment hits both, and
    whether the final screens are the same."""
    best_base = best_ours = float("inf")
    same = True
    for _ in range(repeat):
        seconds, expected = timed(base)
        best_base = min(best_base, seconds)
        seconds, got = timed(ours)
        best_ours = min(best_ours, seconds)
        same = same and expected == got
    return size / best_base / 1e6, size / best_ours / 1e6, same


PYTE_RENDER = """
import sys, pyte
screen = pyte.Screen(120, 40)
stream = pyte.ByteStream(screen)
with open(sys.argv[1], "rb") as f:
    while chunk := f.read(65536):
        stream.feed(chunk)
sys.stdout.write("".join(line.rstrip() + "\\n" for line in screen.display))
"""
"""Stock pyte as a whole process: the truecolour corpus's screen, as ``observer render`` prints
it with ``--format text``."""


#: The processes run as an installed package does: pip byte-compiles what it installs, so a
#: process that may not write bytecode would compile observer's modules from source on
#: every start (stock pyte's were compiled when it was installed).
_INSTALLED = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_process(command: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of ``command`` (it and its children), and what it printed."""
    before = os.times()
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=_INSTALLED)
    wall = time.perf_counter() - started
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return wall, cpu, done.stdout


def whole_process(repeat: int) -> None:
    """``observer render`` against stock pyte's script on the 3 MB truecolour corpus."""
    with tempfile.TemporaryDirectory() as folder:
        raw = os.path.join(folder, "tc.raw")
        with open(raw, "wb") as out:
            out.write(truecolour(3_000_000, random.Random(4)))
        ours = [sys.executable, "-m", "observer", "render", raw, "--size", "120x40"]
        ours += ["--format", "text"]
        base = [sys.executable, "-c", PYTE_RENDER, raw]
        walls: tuple[list[float], list[float]] = ([], [])
        cpus: tuple[list[float], list[float]] = ([], [])
        printed: list[set[str]] = [set(), set()]
        for command in (base, ours):  # untimed: writes the bytecode an install would have
            run_process(command)
        for _ in range(repeat):
            for i, command in enumerate((base, ours)):
                wall, cpu, out = run_process(command)
                walls[i].append(wall)
                cpus[i].append(cpu)
                printed[i].add("\n".join(line.rstrip() for line in out.splitlines()).rstrip())
    same = len(printed[0]) == len(printed[1]) == 1 and printed[0] == printed[1]
    print("whole process: observer render tc.raw --size 120x40 --format text (3 MB truecolour)")
    for what, (pyte_s, ours_s) in (("wall", walls), ("CPU", cpus)):
        pairs = " / ".join(f"{o:.2f}" for o in ours_s)
        bases = " / ".join(f"{b:.2f}" for b in pyte_s)
        print(
            f"  {what:<5} observer {pairs} s, stock pyte {bases} s: "
            f"{min(pyte_s) / min(ours_s):.1f}x (best of each), "
            f"{max(pyte_s) / max(ours_s):.1f}x (worst of each)"
        )
    print(f"  screens {'same' if same else 'DIFFER'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=float, default=1.0, help="corpus size (default 1 MiB)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; best is kept")
    parser.add_argument("--history", action="store_true", help="also measure pyte.HistoryScreen")
    parser.add_argument(
        "--only", choices=["plain", "coloured", "redraw", "truecolour"], help="one corpus"
    )
    parser.add_argument(
        "--write", metavar="FILE", help="write the truecolour corpus (3 MB, 120x40) and exit"
    )
    parser.add_argument(
        "--process", action="store_true", help="time whole processes on the truecolour corpus"
    )
    args = parser.parse_args()
    if args.process:
        whole_process(args.repeat)
        return
    if args.write:
        with open(args.write, "wb") as out:
            out.write(truecolour(3_000_000, random.Random(4)))
        return
    size = int(args.mib * (1 << 20))
    head = f"{'corpus':<12}{'size':>8}{'pyte MB/s':>11}{'model MB/s':>12}{'ratio':>8}  screens"
    if args.history:
        head += f"{'History MB/s':>14}{'ratio':>8}"
    print(head)
    ratios = []
    for cols, rows in SIZES:
        corpora = {
            "plain": plain(size, random.Random(1)),
            "coloured": coloured(size, random.Random(2)),
            "redraw": redraw(size, random.Random(3), cols, rows),
            "truecolour": truecolour(size, random.Random(4), cols, rows),
        }
        for name, data in corpora.items():
            if args.only and name != args.only:
                continue
            base, ours, same = rates(
                partial(feed_pyte, data, cols, rows),
                partial(feed_model, data, cols, rows),
                len(data),
                args.repeat,
            )
            ratios.append(ours / base)
            line = (
                f"{name:<12}{f'{cols}x{rows}':>8}{base:>11.2f}{ours:>12.2f}{ours / base:>7.1f}x  "
            )
            line += "same" if same else "DIFFER"
            if args.history:
                seconds, _ = timed(partial(feed_pyte, data, cols, rows, True))
                hist = len(data) / seconds / 1e6
                line += f"{hist:>14.2f}{ours / hist:>7.1f}x"
            print(line, flush=True)
    print(f"lowest ratio {min(ratios):.1f}x")


if __name__ == "__main__":
    main()
