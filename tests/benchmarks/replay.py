"""Replay of a one-hour agent-like recording: seeks with keyframes vs re-feeding from the start.

Run: ``python -m tests.benchmarks.replay [--minutes 60] [--mib 50] [--baseline-seeks 10]``

A recording is generated (120x40, v2): a spinner while "thinking", streamed prose, coloured diffs,
full-screen moments on the alternate screen with cursor-addressed redraws, idle gaps, a marker
every few minutes; at least ``--mib`` MiB over ``--minutes`` minutes. Then, in one run:

- first frame: open the file, read the first batch of events, show the screen at 0:00 (what the
  replay screen does before the rest of the file is read);
- load: read every event into the timeline; index: build every keyframe;
- 100 seeks to random moments (random order) with keyframes, vs re-feeding from the start as
  asciinema's players do on a backward seek (fewer samples: each costs seconds);
- search: every appearance of a text across the whole recording;
- peak RSS of the process (``ru_maxrss``) and the keyframes' count. The timeline is loaded as
  the replay screen loads it: output stays in the file (the timeline keeps each event's span and
  reads output back when a seek, the index or the search needs it).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import tempfile
import time
from pathlib import Path

from observer.asciicast import cap_idle
from observer.recording.castfiles import FileSource, open_cast, open_cast_spans
from observer.replay import KeyframeIndex, Player, Timeline, find, screen_at

COLS, ROWS = 120, 40
WORDS = [
    "the",
    "agent",
    "reads",
    "files",
    "runs",
    "tests",
    "edits",
    "code",
    "and",
    "explains",
    "what",
    "changed",
    "in",
    "plain",
    "words",
]
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


def _prose(rnd: random.Random, now: float, out: list[list[object]]) -> float:
    for _ in range(rnd.randint(40, 200)):
        now += rnd.uniform(0.01, 0.06)
        line = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(2, 8)))
        out.append([now, "o", line + (" " if rnd.random() < 0.85 else ".\r\n")])
    return now


def _diff(rnd: random.Random, now: float, out: list[list[object]], step: int) -> float:
    now += 0.05
    chunk = [f"\x1b[1mdiff --git a/src/mod{step}.py b/src/mod{step}.py\x1b[0m\r\n"]
    for i in range(rnd.randint(30, 120)):
        colour, sign = rnd.choice([("32", "+"), ("31", "-"), ("0", " ")])
        code = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(3, 12)))
        chunk.append(f"\x1b[{colour}m{sign}    {code}  # {i}\x1b[0m\r\n")
    out.append([now, "o", "".join(chunk)])
    return now


def _spinner(rnd: random.Random, now: float, out: list[list[object]]) -> float:
    for i in range(rnd.randint(20, 120)):
        now += 0.1
        out.append([now, "o", f"\r\x1b[36m{SPINNER[i % 10]}\x1b[0m thinking… {i / 10:.1f}s\x1b[K"])
    out.append([now, "o", "\r\x1b[K"])
    return now


def _fullscreen(rnd: random.Random, now: float, out: list[list[object]]) -> float:
    out.append([now, "o", "\x1b[?1049h\x1b[2J"])
    for frame in range(rnd.randint(20, 80)):
        now += 0.05
        rows = "".join(
            f"\x1b[{y + 1};1H\x1b[4{(y + frame) % 8}m {frame:>4} {'█' * (y % 60)}\x1b[0m\x1b[K"
            for y in range(ROWS)
        )
        out.append([now, "o", "\x1b[?2026h" + rows + "\x1b[?2026l"])
    out.append([now + 0.1, "o", "\x1b[?1049l"])
    return now + 0.1


def generate(path: Path, minutes: float, mib: float, seed: int = 7) -> int:
    """Write the recording; return its size in bytes."""
    rnd = random.Random(seed)
    end, target = minutes * 60, mib * 1024 * 1024
    per_second = target / end
    now, step, written = 0.0, 0, 0
    with path.open("w", encoding="utf-8") as stream:
        stream.write(json.dumps({"version": 2, "width": COLS, "height": ROWS}) + "\n")
        while now < end:
            out: list[list[object]] = []
            step += 1
            if step % 25 == 0:
                out.append([now, "m", f"step {step}"])
            kind = rnd.random()
            if written > per_second * now:
                # Ahead of the byte rate: the agent waits (an idle gap up to where the rate is met).
                now = written / per_second + rnd.uniform(0, 5)
            elif kind < 0.3:
                now = _prose(rnd, now, out)
            elif kind < 0.6:
                now = _diff(rnd, now, out, step)
            elif kind < 0.8:
                now = _spinner(rnd, now, out)
            else:
                now = _fullscreen(rnd, now, out)
            for event in out:
                line = json.dumps(event) + "\n"
                stream.write(line)
                written += len(line)
    return path.stat().st_size


def rss_mib() -> float:
    """Peak resident memory of this process so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def print_seeks(ours: str, seeks: list[float], baseline: list[float]) -> None:
    """The seek table: p50, p99 and max of ``seeks`` against re-feeding from the start."""
    ms = 1000
    print(f"| | {ours} | re-feed from start | ratio |")
    print("|---|---|---|---|")
    for name, fraction in (("seek p50", 0.5), ("seek p99", 0.99)):
        mine, theirs = percentile(seeks, fraction) * ms, percentile(baseline, fraction) * ms
        print(f"| {name} | {mine:.1f} ms | {theirs:.0f} ms | {theirs / mine:.0f}× faster |")
    print(f"| seek max | {max(seeks) * ms:.1f} ms | {max(baseline) * ms:.0f} ms | |")


def hour_arguments(description: str) -> argparse.ArgumentParser:
    """The options of a benchmark over the synthetic hour: its length, size and seeks."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--mib", type=float, default=55.0)
    parser.add_argument("--seeks", type=int, default=100)
    parser.add_argument("--baseline-seeks", type=int, default=10)
    return parser


def main() -> None:
    args = hour_arguments(__doc__.splitlines()[0]).parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hour.cast"
        size = generate(path, args.minutes, args.mib)
        run(path, size, args)


async def first_frame_in_app(path: Path) -> float:
    """Seconds from starting the real replay app (headless) until its view shows the recording."""
    from observer.app.replay_app import ReplayApp
    from observer.app.screens.replay import ReplayScreen

    started = time.perf_counter()
    with open_cast(path) as reader:
        header = reader.header
    app = ReplayApp(lambda palette: ReplayScreen(path, header, palette, autoplay=False))
    async with app.run_test(size=(124, 46)) as pilot:
        screen = app.screen
        # Shown: the screen is up, the first events are in the timeline and on the view.
        while not (
            isinstance(screen, ReplayScreen) and len(screen.timeline) and screen.view.frames
        ):
            if isinstance(screen, ReplayScreen) and len(screen.timeline):
                screen.action_step()  # show the first event (the recording starts with a pause)
            await pilot.pause(0.005)
            screen = app.screen
        shown = time.perf_counter() - started  # the view has flushed its first frame
        app.exit()
    return shown


def run(path: Path, size: int, args: argparse.Namespace) -> None:
    import asyncio

    tiny = path.with_name("tiny.cast")
    tiny.write_text('{"version": 2, "width": 120, "height": 40}\n[0.5, "o", "hello"]\n')
    asyncio.run(first_frame_in_app(tiny))  # imports and first-run costs, not measured
    in_app = asyncio.run(first_frame_in_app(path))
    in_app_tiny = asyncio.run(first_frame_in_app(tiny))
    rss_start = rss_mib()
    started = time.perf_counter()
    # As the replay screen loads: output stays in the file, the timeline keeps where it lies.
    source = FileSource(path)
    with open_cast_spans(path) as (reader, spans):
        assert spans is not None
        timeline = Timeline(reader.header.cols, reader.header.rows, source=source)
        events = cap_idle(reader, None)
        for event in events:
            timeline.append(event, spans.span)
            if len(timeline) >= 2000:
                break
        index = KeyframeIndex(timeline)
        player = Player(timeline, index)
        player.seek(0.0)
        first_frame = time.perf_counter() - started
        for event in events:
            timeline.append(event, spans.span)
    timeline.complete = True
    loaded = time.perf_counter() - started
    started = time.perf_counter()
    while not index.build(20_000):
        pass
    indexed = time.perf_counter() - started
    rnd = random.Random(1)
    moments = [rnd.uniform(0, timeline.duration) for _ in range(args.seeks)]
    seeks = []
    for moment in moments:
        began = time.perf_counter()
        player.seek(moment)
        seeks.append(time.perf_counter() - began)
    baseline = []
    for moment in moments[: args.baseline_seeks]:
        began = time.perf_counter()
        screen_at(timeline, timeline.count_at(moment))
        baseline.append(time.perf_counter() - began)
    began = time.perf_counter()
    matches = find(timeline, index, "thinking… 3.0s")
    searched = time.perf_counter() - began
    ms = 1000
    print(
        f"recording: {size / 1e6:.1f} MB, {len(timeline):,} events, "
        f"{timeline.duration / 60:.1f} min, {len(timeline.markers)} markers"
    )
    print(
        f"keyframes: {len(index.keyframes)} (spacing {index.spacing:g} s, "
        f"budget {index.budget // 1024} KiB)"
    )
    print()
    print_seeks("keyframes", seeks, baseline)
    print()
    print(f"samples: {len(seeks)} seeks with keyframes, {len(baseline)} re-feeds")
    print(f"first frame: {first_frame * ms:.0f} ms to read and show 0:00 (goal < 500 ms)")
    print(
        f"first frame in the real app (headless, from constructing it): {in_app * ms:.0f} ms; "
        f"the same app on a one-event recording: {in_app_tiny * ms:.0f} ms"
    )
    print(
        f"load all events: {loaded:.1f} s; build the index: {indexed:.1f} s "
        f"({timeline.output_bytes / indexed / 1e6:.1f} MB/s)"
    )
    print(f"search across the whole recording: {searched:.1f} s, {len(matches)} appearance(s)")
    print(f"peak RSS: {rss_mib():.0f} MiB (at start {rss_start:.0f} MiB)")


if __name__ == "__main__":
    main()
