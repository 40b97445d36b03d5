"""Recordings made in the tests, and the bundled demo, as timelines."""

from __future__ import annotations

from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from observer.asciicast import Event, cap_idle
from observer.recording.castfiles import open_cast
from observer.replay import KeyframeIndex, Timeline


def timeline_of(
    events: Iterable[Event], cols: int = 40, rows: int = 10, *, complete: bool = True
) -> Timeline:
    timeline = Timeline(cols, rows)
    timeline.extend(events)
    timeline.complete = complete
    return timeline


def indexed(timeline: Timeline, **options: float) -> KeyframeIndex:
    index = KeyframeIndex(timeline, **options)  # type: ignore[arg-type]
    while not index.build(1000):
        pass
    return index


def demo_path() -> Path:
    return Path(str(resources.files("observer").joinpath("data/demo.cast")))


def load(path: Path, idle_limit: float | None = None) -> Timeline:
    with open_cast(path) as reader:
        timeline = Timeline(reader.header.cols, reader.header.rows)
        timeline.extend(cap_idle(reader, idle_limit))
    timeline.complete = True
    return timeline


def out(time: float, data: str) -> Event:
    return Event(time, "o", data)


def mark(time: float, label: str) -> Event:
    return Event(time, "m", label)
