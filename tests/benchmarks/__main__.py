"""Run every benchmark of the project and write the table to docs/benchmarks.md.

Run from the repository root::

    python -m tests.benchmarks            # the full figures (tens of minutes on 2 cores)
    python -m tests.benchmarks --quick    # smaller inputs, a few minutes
    python -m tests.benchmarks --only terminal live --out -   # some, printed instead
    python -m tests.benchmarks --no-readme                    # leave README.md alone

Each module of ``tests/benchmarks`` (except this runner and the soak) runs as
``python -m tests.benchmarks.<name>`` in a process of its own, so one module's memory or event
loop never colours another's figures. Its printed table is read by its adapter
(``tests/benchmarks/adapters.py``) into rows of figure | goal | anchor measured in the same run |
measured | ratio. A row the adapter expects but cannot find in the output (the module's format
changed, or it failed) is shown as "not measured" with the module's output below the table, and
the runner exits with status 1. The table (with the machine) replaces what docs/benchmarks.md
holds between ``<!-- benchmarks:start -->`` and ``<!-- benchmarks:end -->`` (the notes around it
are written by hand), and the rows named in :data:`SUMMARY` replace the same block in README.md,
unless ``--no-readme`` or ``--only`` is given.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import subprocess
import sys
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from tests.benchmarks.adapters import Row, rows_for

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
SKIP = {"__init__", "__main__", "adapters", "soak", "server_attacks", "server_attackers"}
SKIP.add("people_burst")  # frames and bytes of a burst of joins, not a row of the table
SKIP.add("history_tap")  # the rewind history's cost per MB of a build log, noted by hand
SKIP.add("fleet_parts")  # where a dashboard's CPU goes, part by part: a diagnosis, noted by hand
SKIP.add("tile_parse")  # a tile's parse alone and among 40 tiles: a diagnosis, noted by hand


@dataclass(frozen=True)
class Module:
    quick: list[str]
    full: list[str]


MODULES: dict[str, Module] = {
    "app_flood": Module(["--mb", "10", "--keys", "20"], []),
    "terminal": Module(["--mib", "0.25", "--repeat", "1"], []),
    "server": Module(["--megabytes", "10", "--rounds", "1"], []),
    "client_faults": Module(["--cuts", "20"], []),
    "recording": Module(["--mib", "2", "--repeat", "3"], []),
    "replay": Module(
        ["--minutes", "10", "--mib", "8", "--seeks", "30", "--baseline-seeks", "3"], []
    ),
    "rewind": Module(
        ["--minutes", "10", "--mib", "8", "--seeks", "30", "--baseline-seeks", "3"], []
    ),
    "live": Module(["--mib", "4", "--presses", "20", "--flood-repeat", "3"], []),
    "fleet": Module(
        ["--agents", "1", "3", "--logs", "1", "--seconds", "5", "--long", "8", "--keys", "2"], []
    ),
    "streams": Module(["--megabytes", "5", "--watchers", "4", "--rounds", "1"], []),
    "soak_long": Module(
        ["--minutes", "3", "--warmup", "1.5", "--every", "10", "--ink", "3", "--fps", "40"], []
    ),
}
"""Arguments per module: ``quick`` for ``--quick``, ``full`` otherwise (the module's defaults)."""


@dataclass(frozen=True)
class Result:
    rows: list[Row]
    missing: list[str]
    command: str
    out: str
    elapsed: float


def machine() -> list[str]:
    cpu = platform.processor() or "unknown CPU"
    with open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as info:
        ram = int(info.readline().split()[1]) / 1024 / 1024
    versions = []
    for package in ("textual", "rich", "pyte", "websockets"):
        try:
            versions.append(f"{package} {metadata.version(package)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{package} (not installed)")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    return [
        f"- date: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, commit {commit or 'unknown'}",
        f"- CPU: {cpu}, {os.cpu_count()} cores (shared with other work while measuring)",
        f"- RAM: {ram:.1f} GiB; {platform.system()} {platform.release()}",
        f"- Python {platform.python_version()}; {', '.join(versions)}",
    ]


def run(name: str, quick: bool) -> Result:
    module = MODULES.get(name, Module([], []))
    args = module.quick if quick else module.full
    command = ["python", "-m", f"tests.benchmarks.{name}", *args]
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, *command[1:]], capture_output=True, text=True, cwd=ROOT, timeout=3600
    )
    elapsed = time.monotonic() - started
    out, failure = result.stdout, None
    if result.returncode != 0:
        tail = (result.stderr.strip().splitlines() or ["(no message)"])[-1]
        failure = f"the benchmark failed, exit {result.returncode}"
        out += f"\nFAILED (exit {result.returncode}): {tail}"
    rows, missing = rows_for(name, result.stdout, failure)
    return Result(rows, missing, " ".join(command), out, elapsed)


def table(results: dict[str, Result]) -> list[str]:
    """The machine and the table of every figure: what goes into the README too."""
    lines = [
        "Machine:",
        "",
        *machine(),
        "",
        "| figure | goal | anchor (same run) | measured | ratio |",
    ]
    lines.append("|---|---|---|---|---|")
    for result in results.values():
        lines += [
            "| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in result.rows
        ]
    return lines


SUMMARY: tuple[str, ...] = (
    "fleet: 40 Ink-like agents, client CPU",
    "fleet: 40 Ink-like agents, tile lag p50 / p95 / max",
    "keystroke → PTY in control mode, idle, p50",
    "keystroke → PTY under a 48 MiB flood, p50 / p99 (40 presses)",
    "agent's last byte → shown in the view",
    "late join after 100 MB: first full screen",
    "seek p99",
    "agent throughput with 100 watchers + 1 stalled",
    "emulator throughput, truecolour 200x50",
    "asciicast read (23.6 MB of output)",
)
"""The figures the README shows: one or two per thing a user notices (the rest are in
docs/benchmarks.md)."""


def summary(lines: list[str]) -> list[str]:
    """The table's header and the rows of :data:`SUMMARY`, in its order, for the README."""
    table_lines = [line for line in lines if line.startswith("|")]
    rows = {line.split(" | ")[0].removeprefix("| "): line for line in table_lines[2:]}
    return [
        *table_lines[:2],
        *(rows[name] for name in SUMMARY if name in rows),
        "",
        "Every figure, the machine it ran on and each benchmark's command are in "
        "[docs/benchmarks.md](docs/benchmarks.md).",
    ]


def render(quick: bool, results: dict[str, Result], lines: list[str]) -> list[str]:
    """What docs/benchmarks.md holds between its markers: the table and each module's command."""
    text = [
        "Made by `python -m tests.benchmarks"
        + (" --quick`" if quick else "`")
        + " (each figure's own command is given below). Every ratio compares against an anchor"
        " measured in the same run on the same machine.",
        "",
        *lines,
        "",
        "### Per benchmark",
        "",
    ]
    for name, result in results.items():
        text += [f"#### {name}", "", f"`{result.command}` ({result.elapsed:.0f} s)", ""]
        if result.missing:
            # What the module printed, so whoever reads the table sees why rows are missing.
            text += ["```", result.out.strip(), "```", ""]
    return text


START, END = "<!-- benchmarks:start -->", "<!-- benchmarks:end -->"


def insert(readme: str, lines: list[str]) -> str:
    """``readme`` with everything between the benchmark markers replaced by ``lines``.

    Raises:
        ValueError: The markers are missing or out of order.
    """
    start, end = readme.find(START), readme.find(END)
    if start < 0 or end < start:
        raise ValueError(f"no {START} ... {END} block")
    return readme[: start + len(START)] + "\n" + "\n".join(lines) + "\n\n" + readme[end:]


def replace_block(path: Path, lines: list[str]) -> bool:
    """Put ``lines`` between the markers of ``path`` (a new file is just the block); False, and a
    message, if it cannot."""
    try:
        old = path.read_text() if path.exists() else f"# Benchmarks\n\n{START}\n{END}\n"
        path.write_text(insert(old, lines))
    except (OSError, ValueError) as error:
        print(f"benchmarks: {path.name} not updated: {error}", file=sys.stderr)
        return False
    print(f"updated the table in {path}", file=sys.stderr)
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller inputs, a few minutes")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these modules")
    parser.add_argument("--out", default=str(ROOT / "docs" / "benchmarks.md"), help="- prints")
    parser.add_argument(
        "--no-readme",
        action="store_true",
        help="leave README.md alone (else its table is replaced)",
    )
    args = parser.parse_args()
    names = sorted(p.stem for p in HERE.glob("*.py") if p.stem not in SKIP)
    if args.only:
        names = [n for n in names if n in args.only]
    results = {}
    for name in names:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        results[name] = result = run(name, args.quick)
        print(f"  {len(result.rows)} rows in {result.elapsed:.0f} s", file=sys.stderr, flush=True)
    lines = table(results)
    text = render(args.quick, results, lines)
    status = 0
    if args.out == "-":
        print("\n".join(text))
    elif not replace_block(Path(args.out), text):
        status = 1
    if (
        not args.no_readme
        and not args.only
        and not replace_block(ROOT / "README.md", summary(lines))
    ):
        status = 1
    for name, result in results.items():
        for key in result.missing:
            print(f"benchmarks: {name}: {key}: not measured — see its output", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
