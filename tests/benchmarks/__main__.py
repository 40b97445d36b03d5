"""Run every benchmark of the project and write the table to docs/benchmarks.md.

Run from the repository root::

    python -m tests.benchmarks            # the full figures (tens of minutes on 2 cores)
    python -m tests.benchmarks --quick    # smaller inputs, a few minutes
    python -m tests.benchmarks --only terminal live --out -   # some, printed instead

Each module of ``tests/benchmarks`` (except this runner and the soak) runs as
``python -m tests.benchmarks.<name>`` in a process of its own, so one module's memory or event
loop never colours another's figures. Its printed table is read by a small adapter below into rows
of figure | goal | anchor measured in the same run | measured | ratio; a module without an adapter,
or whose output the adapter no longer understands, is shown as printed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
SKIP = {"__init__", "__main__", "soak"}

Row = tuple[str, str, str, str, str]
"""figure, goal, anchor (same run), measured, ratio"""


@dataclass(frozen=True)
class Module:
    quick: list[str]
    full: list[str]
    adapter: Callable[[str], list[Row]] | None


def _terminal(out: str) -> list[Row]:
    pattern = r"^(\w+)\s+(\d+x\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)x\s+(same|DIFFER)"
    return [
        (
            f"emulator throughput, {corpus} {size}",
            "≥ 10× stock pyte, same screen",
            f"stock pyte 0.8.2: {base} MB/s",
            f"{ours} MB/s ({screens} screen)",
            f"{ratio}×",
        )
        for corpus, size, base, ours, ratio, screens in re.findall(pattern, out, re.M)
    ]


def _server(out: str) -> list[Row]:
    rows: list[Row] = []
    scenario = r"^(\d+ [a-z][a-z +\d]*[a-z])\s+([\d.]+)\s+([\d.]+)(?:\s+([\d.]+))?\s*$"
    table = re.findall(scenario, out, re.M)
    base = next((rate for name, rate, _, _ in table if name == "0 watchers"), "?")
    for name, rate, ratio, cost in table:
        if name != "0 watchers":
            measured = f"{rate} MB/s" + (f", server CPU {cost} ms/MB" if cost else "")
            rows.append(
                (
                    f"agent throughput with {name}",
                    "≥ 0.9× no watchers",
                    f"0 watchers: {base} MB/s",
                    measured,
                    ratio,
                )
            )
    late = re.search(r"first full screen in ([\d.]+) ms", out)
    replay = re.search(r"replaying those 100 MB into a fresh model instead: ([\d.]+) s", out)
    wrote = re.search(r"took ([\d.]+) s to write", out)
    if late:
        ms = float(late.group(1))
        if replay:
            anchor = f"replaying the 100 MB: {replay.group(1)} s"
        else:
            anchor = f"the agent wrote them in {wrote.group(1)} s" if wrote else "—"
        rows.append(
            (
                "late join after 100 MB: first full screen",
                "< 100 ms",
                anchor,
                f"{ms:.1f} ms",
                f"{ms / 100:.2f} of goal",
            )
        )
    echo = re.search(
        r"keystroke echo in control mode: ([\d.]+) ms \(bare WebSocket echo: ([\d.]+) ms\)", out
    )
    if echo:
        ours, bare = float(echo.group(1)), float(echo.group(2))
        rows.append(
            (
                "keystroke echo in control mode (server)",
                "≤ 2× RTT + 2 ms",
                f"bare WebSocket echo {bare:.2f} ms",
                f"{ours:.2f} ms",
                f"{ours / (2 * bare + 2):.2f} of goal",
            )
        )
    return rows


def _client_faults(out: str) -> list[Row]:
    rows: list[Row] = []
    base = re.search(r"\(baseline\)\s+([\d.]+) ms", out)
    anchor = f"fresh connect {base.group(1)} ms" if base else "—"
    cut = re.search(r"per cut \((\d+)\)\s+([\d.]+) ms\s+([\d.]+)", out)
    if cut:
        rows.append(
            (
                f"cut + reconnect + resume ({cut.group(1)} random cuts), per cut",
                "resume, 0 lost",
                anchor,
                f"{cut.group(2)} ms",
                cut.group(3),
            )
        )
    gaps = re.search(r"gaps reported\s+(\d+)", out)
    same = re.search(r"SHA-256 of (\d+) bytes equals the PTY\s+(\w+)", out)
    if gaps and same:
        rows.append(
            (
                f"bytes lost over the cuts (SHA-256 of {same.group(1)} bytes)",
                "0 lost, 0 gaps",
                "the PTY's bytes",
                f"{gaps.group(1)} gaps, equal: {same.group(2)}",
                "—",
            )
        )
    for ping, timeout, ms, ratio in re.findall(
        r"blackhole detected, ping ([\d.]+) s \+ timeout ([\d.]+) s\s+([\d.]+) ms\s+([\d.]+)", out
    ):
        rows.append(
            (
                f"blackhole detected (ping {ping} s + timeout {timeout} s)",
                "≤ 1× ping + timeout",
                f"{(float(ping) + float(timeout)) * 1000:.0f} ms",
                f"{ms} ms",
                ratio,
            )
        )
    return rows


def _recording(out: str) -> list[Row]:
    size = re.search(r"([\d.]+) MB of asciicast", out)
    what = f" ({size.group(1)} MB)" if size else ""
    return [
        (
            f"asciicast {name}{what}",
            "≥ 1× plain json",
            f"json lines: {base} MB/s",
            f"{ours} MB/s",
            ratio,
        )
        for name, ours, base, ratio in re.findall(
            r"^(read|write|record)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$", out, re.M
        )
    ]


def _replay(out: str) -> list[Row]:
    rows: list[Row] = []
    for name, ours, theirs, ratio in re.findall(
        r"^\| (seek[^|]*?) \| ([^|]+?) \| ([^|]+?) \| ([^|]*?) \|$", out, re.M
    ):
        goal = "< 100 ms" if "99" in name or "max" in name else "—"
        rows.append((name, goal, f"re-feed from start: {theirs}", ours, ratio or "—"))
    first = re.search(r"first frame: ([\d.]+) ms", out)
    if first:
        rows.append(("replay: first frame", "< 500 ms", "—", f"{first.group(1)} ms", "—"))
    rss = re.search(r"peak RSS: ([\d.]+) MiB", out)
    if rss:
        rows.append(("replay: peak RSS", "bounded", "—", f"{rss.group(1)} MiB", "—"))
    return rows


def _app_flood(out: str) -> list[Row]:
    rows: list[Row] = []
    flood = re.search(r"([\d.]+ MB) flood", out)
    size = flood.group(1) if flood else "the"
    for name, idle, loaded, ratio in re.findall(
        r"^((?:key \w+ p\d+ \(ms\))|frames per second)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$",
        out,
        re.M,
    ):
        unit = "" if name.startswith("frames") else " ms"
        label = name.replace(" (ms)", "")
        goal = "< 100 ms" if label == "key handled p99" else "—"
        rows.append(
            (
                f"app: {label} under a {size} flood",
                goal,
                f"idle: {idle}{unit}",
                f"{loaded}{unit}",
                ratio,
            )
        )
    same = re.search(r"final screen equals the model fed the same bytes: (\w+)", out)
    if same:
        rows.append(
            (
                "app: final screen after the flood equals the model's",
                "yes",
                "model fed the bytes",
                same.group(1),
                "—",
            )
        )
    return rows


def _markdown_rows(out: str) -> list[Row]:
    rows: list[Row] = []
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 5 and cells[0] != "figure":
            rows.append((cells[0], cells[1], cells[2], cells[3], cells[4]))
    return rows


MODULES: dict[str, Module] = {
    "app_flood": Module(["--mb", "10", "--keys", "20"], [], _app_flood),
    "terminal": Module(["--mib", "0.25", "--repeat", "1"], [], _terminal),
    "server": Module(["--megabytes", "10", "--rounds", "1"], [], _server),
    "client_faults": Module(["--cuts", "20"], [], _client_faults),
    "recording": Module(["--mib", "2"], [], _recording),
    "replay": Module(
        ["--minutes", "10", "--mib", "8", "--seeks", "30", "--baseline-seeks", "3"], [], _replay
    ),
    "live": Module(["--mib", "4", "--presses", "20", "--flood-repeat", "3"], [], _markdown_rows),
}


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


def run(name: str, quick: bool) -> tuple[list[Row], str, str, float]:
    module = MODULES.get(name, Module([], [], None))
    args = module.quick if quick else module.full
    command = ["python", "-m", f"tests.benchmarks.{name}", *args]
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, *command[1:]], capture_output=True, text=True, cwd=ROOT, timeout=3600
    )
    elapsed = time.monotonic() - started
    out = result.stdout
    if result.returncode != 0:
        tail = (result.stderr.strip().splitlines() or ["(no message)"])[-1]
        out += f"\nFAILED (exit {result.returncode}): {tail}"
    rows = module.adapter(result.stdout) if module.adapter and result.returncode == 0 else []
    return rows, " ".join(command), out, elapsed


def render(quick: bool, results: dict[str, tuple[list[Row], str, str, float]]) -> str:
    lines = [
        "# Benchmarks",
        "",
        "Made by `python -m tests.benchmarks"
        + (" --quick`" if quick else "`")
        + " (each figure's own command is given below). Every ratio compares against an anchor"
        " measured in the same run on the same machine.",
        "",
        "Machine:",
        "",
        *machine(),
        "",
        "| figure | goal | anchor (same run) | measured | ratio |",
        "|---|---|---|---|---|",
    ]
    for rows, _, _, _ in results.values():
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
    lines += ["", "## Per benchmark", ""]
    for name, (rows, command, out, elapsed) in results.items():
        lines += [f"### {name}", "", f"`{command}` ({elapsed:.0f} s)", ""]
        if not rows:
            lines += ["```", out.strip(), "```", ""]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller inputs, a few minutes")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these modules")
    parser.add_argument("--out", default=str(ROOT / "docs" / "benchmarks.md"), help="- prints")
    args = parser.parse_args()
    names = sorted(p.stem for p in HERE.glob("*.py") if p.stem not in SKIP)
    if args.only:
        names = [n for n in names if n in args.only]
    results = {}
    for name in names:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        results[name] = run(name, args.quick)
        rows, _, _, elapsed = results[name]
        print(f"  {len(rows)} rows in {elapsed:.0f} s", file=sys.stderr, flush=True)
    text = render(args.quick, results)
    if args.out == "-":
        print(text)
    else:
        Path(args.out).write_text(text)
        print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
