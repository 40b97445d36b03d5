"""Read each benchmark module's printed output into rows of the benchmark table.

Every adapter knows the rows it expects (``EXPECTED``: key -> goal). ``rows_for`` turns what an
adapter found into table rows and, for every expected key it did not find, a row that says so
("not measured (output did not match)"), so a module whose output changed shows up as a gap in the
table and a non-zero exit of the runner, never as a silently missing row. The modules' tables may
gain columns at their end: the adapters read the columns they know and ignore the rest.

Each adapter is checked against a real output of its module in ``tests/benchmarks/fixtures/``
(``tests/unit/benchmarks/test_adapters.py``); after changing a module's output, capture a new one:
``python -m tests.benchmarks.NAME ARGS > tests/benchmarks/fixtures/NAME.txt`` (ARGS: the runner's
``--quick`` arguments for it, in ``tests/benchmarks/__main__.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

Row = tuple[str, str, str, str, str]
"""figure, goal, anchor (same run), measured, ratio"""
Found = dict[str, Row]
"""Rows an adapter found, by the key of ``EXPECTED`` they answer."""

NOT_MEASURED = "not measured (output did not match)"
_EXTRA = r"(?:[ \t]+\S+)*[ \t]*$"  # columns added at the end of a row later are ignored
_NUM = r"(-?[\d.]+)"


def _terminal(out: str) -> Found:
    pattern = r"^(\w+)\s+(\d+x\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)x\s+(same|DIFFER)" + _EXTRA
    found: Found = {}
    for corpus, size, base, ours, ratio, screens in re.findall(pattern, out, re.M):
        key = f"emulator throughput, {corpus} {size}"
        found[key] = (
            key,
            EXPECTED["terminal"].get(key, "—"),
            f"stock pyte 0.8.2: {base} MB/s",
            f"{ours} MB/s ({screens} screen)",
            f"{ratio}×",
        )
    return found


SCENARIOS = ("0 watchers", "10 watchers", "100 watchers", "1 stalled watcher")
SCENARIOS += ("100 watchers + 1 stalled",)
"""The server benchmark's scenarios, as its table names them."""
SERVER_COLUMNS = (
    "agent MB/s",
    "ratio",
    "ratio min-max",
    "server CPU ms/MB",
    "min-max",
    "as bytes",
    "fan-out ms/MB",
)
"""The server table's leading columns, in order (more may follow)."""


def _server_table(out: str) -> dict[str, list[str]]:
    """Scenario -> its cells, from the first table (``--against`` prints a second one)."""
    header = re.search(r"^scenario\s+(.*)$", out, re.M)
    if header is None or not _has_columns(header.group(1), SERVER_COLUMNS):
        return {}
    table: dict[str, list[str]] = {}
    names = "|".join(re.escape(n) for n in sorted(SCENARIOS, key=len, reverse=True))
    for name, cells in re.findall(
        rf"^({names})[ \t]{{2,}}(\S.*?)[ \t]*$", out[header.end() :], re.M
    ):
        if name in table:
            break  # the second table of an --against run
        table[name] = cells.split()
    return table


def _has_columns(header: str, columns: tuple[str, ...]) -> bool:
    position = 0
    for column in columns:
        position = header.find(column, position)
        if position < 0:
            return False
        position += len(column)
    return True


def _server(out: str) -> Found:
    found: Found = {}
    table = _server_table(out)
    base = table.get("0 watchers", ["?"])[0]
    for name, cells in table.items():
        if name == "0 watchers" or len(cells) < len(SERVER_COLUMNS):
            continue
        rate, ratio, spread, cpu, _, share, fanout = cells[: len(SERVER_COLUMNS)]
        key = f"agent throughput with {name}"
        found[key] = (
            key,
            EXPECTED["server"][key],
            f"0 watchers: {base} MB/s",
            f"{rate} MB/s; server CPU {cpu} ms/MB (fan-out {fanout}); {share} as bytes",
            f"{ratio} (rounds {spread})",
        )
    late = re.search(r"first full screen in ([\d.]+) ms", out)
    replay = re.search(r"replaying those 100 MB into a fresh model instead: ([\d.]+) s", out)
    if late and replay:
        key = "late join after 100 MB: first full screen"
        ms = float(late.group(1))
        anchor = f"replaying the 100 MB: {replay.group(1)} s"
        found[key] = (
            key,
            EXPECTED["server"][key],
            anchor,
            f"{ms:.1f} ms",
            f"{ms / 100:.2f} of goal",
        )
    echo = re.search(
        r"keystroke echo in control mode: ([\d.]+) ms \(bare WebSocket echo: ([\d.]+) ms\)", out
    )
    if echo:
        key = "keystroke echo in control mode (server)"
        ours, bare = float(echo.group(1)), float(echo.group(2))
        found[key] = (
            key,
            EXPECTED["server"][key],
            f"bare WebSocket echo {bare:.2f} ms",
            f"{ours:.2f} ms",
            f"{ours / (2 * bare + 2):.2f} of goal",
        )
    return found


def _client_faults(out: str) -> Found:
    found: Found = {}
    goals = EXPECTED["client_faults"]
    base = re.search(r"\(baseline\)\s+([\d.]+) ms", out)
    anchor = f"fresh connect {base.group(1)} ms" if base else "—"
    cut = re.search(r"per cut \((\d+)\)\s+([\d.]+) ms\s+([\d.]+)" + _EXTRA, out, re.M)
    if cut and base:
        key = "cut + reconnect + resume, per cut"
        figure = f"cut + reconnect + resume ({cut.group(1)} random cuts), per cut"
        found[key] = (figure, goals[key], anchor, f"{cut.group(2)} ms", cut.group(3))
    gaps = re.search(r"^gaps reported\s+(\d+)", out, re.M)
    same = re.search(r"SHA-256 of (\d+) bytes equals the PTY\s+(\w+)", out)
    if gaps and same:
        key = "bytes lost over the cuts"
        found[key] = (
            f"{key} (SHA-256 of {same.group(1)} bytes)",
            goals[key],
            "the PTY's bytes",
            f"{gaps.group(1)} gaps, equal: {same.group(2)}",
            "—",
        )
    pattern = r"blackhole detected, ping ([\d.]+) s \+ timeout ([\d.]+) s\s+([\d.]+) ms\s+([\d.]+)"
    for ping, timeout, ms, ratio in re.findall(pattern + _EXTRA, out, re.M):
        key = f"blackhole detected (ping {ping} s + timeout {timeout} s)"
        limit = f"{(float(ping) + float(timeout)) * 1000:.0f} ms"
        found[key] = (key, goals.get(key, "—"), limit, f"{ms} ms", ratio)
    return found


RECORDING_ROWS = {
    "read": "asciicast read",
    "record events": "asciicast record, agent-like events",
    "record flood": "asciicast record, fastest PTY flood",
}
"""The recording benchmark's rows (as it names them) -> their keys in the table."""


def _recording(out: str) -> Found:
    found: Found = {}
    size = re.search(r"([\d.]+) MB of terminal output", out)
    what = f" ({size.group(1)} MB of output)" if size else ""
    bare = re.search(
        r"^read: bare json.loads of every line ([\d.]+) MB/s \(ours ([\d.]+)x\)", out, re.M
    )
    pty = re.search(
        r"^record flood: the PTY delivered it at ([\d.]+) MB/s \(ours ([\d.]+)x\)", out, re.M
    )
    notes = {
        "read": f" ({bare.group(2)}× bare json.loads)" if bare else "",
        "record flood": f" ({pty.group(2)}× the PTY's {pty.group(1)} MB/s)" if pty else "",
    }
    names = "|".join(RECORDING_ROWS)
    pattern = rf"^({names})\s+{_NUM}\s+{_NUM}\s+{_NUM}\s+([\d.]+-[\d.]+)" + _EXTRA
    for name, ours, emulator, ratio, spread in re.findall(pattern, out, re.M):
        key = RECORDING_ROWS[name]
        found[key] = (
            f"{key}{what}",
            EXPECTED["recording"][key],
            f"emulator, same output: {emulator} MB/s",
            f"{ours} MB/s{notes.get(name, '')}",
            f"{ratio}× (rounds {spread})",
        )
    return found


def _seeks(out: str, goals: dict[str, str], prefix: str = "") -> Found:
    """The rows of a seek table (``| seek p50 | ours | re-feed | ratio |``)."""
    found: Found = {}
    cells = r"\|\s*([^|]+?)\s*\|\s*([^|]*?)\s*\|\s*([^|]*?)\s*\|"
    for name, ours, theirs, ratio in re.findall(rf"^\|\s*(seek [^|]*?)\s*{cells}", out, re.M):
        key = prefix + name
        anchor = f"re-feed from start: {theirs}" if theirs else "—"
        found[key] = (key, goals.get(key, "—"), anchor, ours, ratio or "—")
    return found


def _replay(out: str) -> Found:
    goals = EXPECTED["replay"]
    found = _seeks(out, goals)
    first = re.search(r"^first frame: ([\d.]+) ms", out, re.M)
    if first:
        key = "replay: first frame"
        found[key] = (key, goals[key], "—", f"{first.group(1)} ms", "—")
    rss = re.search(r"^peak RSS: ([\d.]+) MiB(?: \(at start ([\d.]+) MiB\))?", out, re.M)
    if rss:
        key = "replay: peak RSS"
        start = f"at start {rss.group(2)} MiB" if rss.group(2) else "—"
        found[key] = (key, goals[key], start, f"{rss.group(1)} MiB", "—")
    return found


def _rewind(out: str) -> Found:
    goals = EXPECTED["rewind"]
    found = _seeks(out, goals, "rewind: ")
    memory = re.search(
        r"^history memory after the hour: ([\d.]+) MiB.*?([\d.]+) MiB the live", out, re.M
    )
    if memory:
        key = "rewind: history memory after an hour"
        anchor = f"the live model alone: {memory.group(2)} MiB"
        found[key] = (key, goals[key], anchor, f"+{memory.group(1)} MiB", "—")
    cost = re.search(
        r"live model alone ([\d.]+) s, with the history's tap ([\d.]+) s \(([\d.]+)x\)", out
    )
    if cost:
        key = "rewind: feeding an hour with the history's tap (CPU)"
        found[key] = (
            key,
            goals[key],
            f"model alone: {cost.group(1)} s",
            f"{cost.group(2)} s",
            cost.group(3),
        )
    return found


def _app_flood(out: str) -> Found:
    found: Found = {}
    flood = re.search(r"([\d.]+ MB) flood", out)
    size = flood.group(1) if flood else "the"
    pattern = rf"^((?:key \w+ p\d+ \(ms\))|frames per second)\s+{_NUM}\s+{_NUM}\s+{_NUM}" + _EXTRA
    for name, idle, loaded, ratio in re.findall(pattern, out, re.M):
        unit = "" if name.startswith("frames") else " ms"
        key = f"app: {name.replace(' (ms)', '')}"
        found[key] = (
            f"{key} under a {size} flood",
            EXPECTED["app_flood"].get(key, "—"),
            f"idle: {idle}{unit}",
            f"{loaded}{unit}",
            ratio,
        )
    same = re.search(r"final screen equals the model fed the same bytes: (\w+)", out)
    if same:
        key = "app: final screen after the flood equals the model's"
        found[key] = (key, EXPECTED["app_flood"][key], "model fed the bytes", same.group(1), "—")
    return found


LIVE_KEYS = (
    "live pipeline",
    "keystroke → PTY in control mode, idle",
    "keystroke → PTY under a",
    "view frames per second",
    "agent's last byte",
    "final screen after the flood",
)


def _live(out: str) -> Found:
    """The live benchmark prints table rows itself; each is matched to its key by its start."""
    found: Found = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("| ") or len(cells) < 5 or cells[0] == "figure":
            continue
        key = next((k for k in LIVE_KEYS if cells[0].startswith(k)), None)
        if key is not None:
            figure, goal, anchor, measured, ratio = cells[:5]
            found[key] = (figure, goal, anchor, measured, ratio)
    return found


FLEET_ROWS = {
    "fleet: N Ink-like agents, client CPU": "≤ 40 % of a core",
    "fleet: N Ink-like agents, client RSS": "≤ 250 MiB",
    "fleet: N Ink-like agents, tile lag p50 / p95 / max": "p95 ≤ 250 ms",
    "fleet: N Ink-like agents, longest pause (collection / screen still)": "≤ 250 ms",
    "fleet: N Ink-like agents, server CPU": "< 100 % of a core",
    "fleet: N Ink-like agents, notification → tile p50 / max": "≤ 250 ms",
    "fleet: N Ink-like agents, keys p50 / max": "every key ≤ 250 ms",
    "fleet: N build-log agents, client CPU": "—",
    "fleet: N build-log agents, client RSS": "—",
    "fleet: N build-log agents, tile lag p50 / p95 / max": "p95 ≤ 250 ms",
    "fleet: N build-log agents, longest pause (collection / screen still)": "≤ 250 ms",
    "fleet: N build-log agents, server CPU": "< 100 % of a core",
}
"""The fleet benchmark's summary rows (for its largest fleets), by figure with the count as N."""


def _printed(out: str, keys: dict[str, str], count: str) -> Found:
    """Summary rows a module prints itself (``| figure | goal | anchor | measured | ratio |``),
    by their figure with the number that ``count`` matches in it read as N."""
    found: Found = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("| ") or len(cells) < 5:
            continue
        key = re.sub(count, "N ", cells[0], count=1)
        if key in keys:
            found[key] = (cells[0], cells[1], cells[2], cells[3], cells[4])
    return found


STREAM_KINDS = ("raw", "v1.alis", "v3.asciicast", "v2.asciicast")
"""The streams the streams benchmark compares with ``observer.v1`` watchers."""


def _streams(out: str) -> Found:
    """The streams benchmark's table: server CPU per kind of watcher, against observer.v1."""
    cells = {
        row[0]: row
        for line in out.splitlines()
        if line.startswith("| ")
        and len(row := [c.strip() for c in line.strip("| ").split("|")]) == 4
    }
    native = cells.get("observer.v1")
    found: Found = {}
    for kind in STREAM_KINDS:
        row = cells.get(kind)
        if native is None or row is None or not re.match(r"[\d.]+ \(", row[1]):
            continue
        key = f"server CPU with {kind} watchers"
        anchor = f"observer.v1 watchers: {native[1].split()[0]} s"
        found[key] = (key, "—", anchor, f"{row[1]} s", row[3])
    return found


def _fleet(out: str) -> Found:
    """The fleet benchmark prints its summary rows itself; N stands for the fleet's size."""
    return _printed(out, FLEET_ROWS, r"(?<=^fleet: )\d+ ")


SOAK_ROWS: dict[str, str] = {
    "soak: N Ink-like sessions, server RSS growth after warm-up": "≤ 2 MiB/hour",
    "soak: build-log sessions, server RSS growth after warm-up": "flat",
    "soak: dashboard of N Ink-like sessions, RSS growth after warm-up": "flat",
    "soak: watch of a build log, RSS growth after warm-up": "flat",
    "soak: recorder of an Ink-like session, RSS growth after warm-up": "flat",
}
"""The long soak's summary rows, by figure with the count of sessions as N."""


def _soak_long(out: str) -> Found:
    """The long soak prints its summary rows itself; N stands for the number of sessions."""
    return _printed(out, SOAK_ROWS, r"(?<=\s)\d+ (?=Ink-like)")


EXPECTED: dict[str, dict[str, str]] = {
    "terminal": {
        f"emulator throughput, {corpus} {size}": "≥ 10× stock pyte, same screen"
        for size in ("80x24", "200x50")
        for corpus in ("plain", "coloured", "redraw", "truecolour")
    },
    "server": {
        **{f"agent throughput with {name}": "≥ 0.9× no watchers" for name in SCENARIOS[1:]},
        "late join after 100 MB: first full screen": "< 100 ms",
        "keystroke echo in control mode (server)": "≤ 2× RTT + 2 ms",
    },
    "client_faults": {
        "cut + reconnect + resume, per cut": "resume, 0 lost",
        "bytes lost over the cuts": "0 lost, 0 gaps",
        **{
            f"blackhole detected (ping {p} s + timeout {t} s)": "≤ 1× ping + timeout"
            for p, t in (("0.5", "0.5"), ("1", "1"), ("2", "1"))
        },
    },
    "recording": {
        "asciicast read": "≥ 10× emulator (≤ 10 % of replaying)",
        "asciicast record, agent-like events": "≥ 10× emulator (≤ 10 % of watching)",
        "asciicast record, fastest PTY flood": "≥ 10× emulator (≤ 10 % of watching)",
    },
    "replay": {
        "seek p50": "—",
        "seek p99": "< 100 ms",
        "seek max": "—",
        "replay: first frame": "< 500 ms",
        "replay: peak RSS": "bounded",
    },
    "rewind": {
        "rewind: seek p50": "—",
        "rewind: seek p99": "≤ 100 ms",
        "rewind: seek max": "—",
        "rewind: seek p99, CPU time": "≤ 100 ms",
        "rewind: history memory after an hour": "≤ 50 MiB",
        "rewind: feeding an hour with the history's tap (CPU)": "—",
    },
    "app_flood": {
        "app: key handled p50": "—",
        "app: key handled p99": "< 100 ms",
        "app: key echoed p50": "—",
        "app: key echoed p99": "—",
        "app: frames per second": "—",
        "app: final screen after the flood equals the model's": "yes",
    },
    "fleet": FLEET_ROWS,
    "streams": {f"server CPU with {kind} watchers": "—" for kind in STREAM_KINDS},
    "soak_long": SOAK_ROWS,
    "live": dict(
        zip(
            LIVE_KEYS,
            (
                "≥ 0.8× emulator alone",
                "≤ 2× RTT + 2 ms",
                "p99 < 100 ms",
                "≤ ~60, > 0",
                "≤ 200 ms",
                "same",
            ),
            strict=True,
        )
    ),
}
"""Every row each module's output must yield: key -> the goal shown if the row is missing."""

ADAPTERS: dict[str, Callable[[str], Found]] = {
    "terminal": _terminal,
    "server": _server,
    "client_faults": _client_faults,
    "recording": _recording,
    "replay": _replay,
    "rewind": _rewind,
    "app_flood": _app_flood,
    "live": _live,
    "fleet": _fleet,
    "streams": _streams,
    "soak_long": _soak_long,
}


def rows_for(name: str, out: str, failure: str | None = None) -> tuple[list[Row], list[str]]:
    """Table rows for module ``name`` from its output, and the keys it failed to yield.

    Args:
        name: The module (``tests.benchmarks.<name>``).
        out: What it printed on stdout.
        failure: Why it produced no figures (it failed), if it did.

    Returns:
        The rows in ``EXPECTED`` order (then any extra rows the adapter found), with a visible
        "not measured" row for each expected key that is missing; and the missing keys.
    """
    expected = EXPECTED.get(name)
    if expected is None:
        return [(f"{name}: every figure", "—", "—", "not measured (no adapter)", "—")], [name]
    found = ADAPTERS[name](out) if failure is None else {}
    why = NOT_MEASURED if failure is None else f"not measured ({failure})"
    rows = [found.get(key) or (key, goal, "—", why, "—") for key, goal in expected.items()]
    rows += [row for key, row in found.items() if key not in expected]
    return rows, [key for key in expected if key not in found]
