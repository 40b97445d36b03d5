"""Replay keeps where output lies in the file, not the output: same screens, bounded memory."""

from __future__ import annotations

import json
import random
import tracemalloc
from pathlib import Path

import pytest

from observer.asciicast import Event, cap_idle
from observer.asciicast.feeding import FEED_AT_ONCE
from observer.errors import CastFormatError
from observer.recording.castfiles import FileSource, open_cast, open_cast_spans
from observer.recording.recorder import Recorder
from observer.replay import KeyframeIndex, Player, Timeline, screen_at
from observer.replay.keyframes import new_model
from tests.unit.replay.casts import demo_path


def load_spans(path: Path, idle_limit: float | None = None) -> Timeline:
    """As the replay screen loads a recording."""
    with open_cast_spans(path) as (reader, spans):
        timeline = Timeline(reader.header.cols, reader.header.rows, source=FileSource(path))
        for event in cap_idle(reader, idle_limit):
            timeline.append(event, spans.span if spans is not None else None)
    timeline.complete = True
    return timeline


def load_memory(path: Path) -> Timeline:
    with open_cast(path) as reader:
        timeline = Timeline(reader.header.cols, reader.header.rows)
        timeline.extend(cap_idle(reader, None))
    timeline.complete = True
    return timeline


def recorded(path: Path, chunks: int = 300, seed: int = 3) -> Path:
    """A real recording: coloured lines, UTF-8 split across chunks, resizes, markers, input."""
    rnd = random.Random(seed)
    now = [0.0]

    def clock() -> float:
        now[0] += rnd.uniform(0.01, 0.5)
        return now[0]

    with Recorder(path, cols=60, rows=12, clock=clock) as rec:
        pending = b""
        for i in range(chunks):
            text = f"\x1b[3{i % 8}mline {i} é→ {'x' * rnd.randint(0, 90)}\x1b[0m\r\n".encode()
            data, pending = pending + text[: len(text) - 1], text[len(text) - 1 :]
            rec.output(data)
            if i % 50 == 25:
                rec.resize(rnd.randint(30, 90), rnd.randint(5, 20))
            if i % 70 == 10:
                rec.marker(f"m{i}")
                rec.input(b"y")
        rec.output(pending)
    return path


def test_a_timeline_read_back_from_the_file_equals_one_held_in_memory(tmp_path: Path) -> None:
    path = recorded(tmp_path / "s.cast")
    lazy, held = load_spans(path), load_memory(path)
    assert len(lazy) == len(held) and lazy.output_bytes == held.output_bytes
    assert lazy.markers == held.markers
    for index in range(len(held)):
        assert lazy.code(index) == held.code(index)
        assert lazy.time(index) == held.time(index)
        assert lazy.payload(index) == held.payload(index)
        assert lazy.size(index) == held.size(index)
    assert list(lazy.payloads(0, len(lazy))) == list(held.payloads(0, len(held)))


def test_seeks_on_a_timeline_read_back_from_the_file_match_refeeding(tmp_path: Path) -> None:
    for path in (recorded(tmp_path / "s.cast"), demo_path()):
        lazy, held = load_spans(path), load_memory(path)
        index = KeyframeIndex(lazy, spacing=1.0, budget=2048)
        while not index.build(100):
            pass
        player = Player(lazy, index)
        rnd = random.Random(5)
        for count in [rnd.randrange(len(lazy) + 1) for _ in range(25)] + [0, len(lazy)]:
            player.show(count)
            assert player.model.text() == screen_at(held, count).text(), (path, count)


def test_lines_with_comments_crlf_and_bad_bytes_are_read_back_exactly(tmp_path: Path) -> None:
    path = tmp_path / "odd.cast"
    header = json.dumps({"version": 3, "term": {"cols": 20, "rows": 4}}).encode()
    path.write_bytes(
        b"\xef\xbb\xbf" + header + b"\n# a comment\n\n"
        b'[0.5, "o", "caf\xc3\xa9 \xff bad"]\r\n'
        b'  [0.25, "o", "spaced"]  \n'
        b'[0.25, "m", "mark"]\n'
        b'[1, "o", "int time \\u001b[1mbold"]\n'
        b'[0.1, "o", "last, no newline"]'
    )
    lazy, held = load_spans(path), load_memory(path)
    assert [lazy.payload(i) for i in range(len(lazy))] == [
        held.payload(i) for i in range(len(held))
    ]
    assert lazy.payload(0) == "café \ufffd bad".encode()


def test_a_v1_recording_is_kept_in_memory(tmp_path: Path) -> None:
    path = tmp_path / "v1.cast"
    document = {"version": 1, "width": 20, "height": 4, "stdout": [[0.5, "hello"], [1.0, " v1"]]}
    path.write_text(json.dumps(document, indent=2))
    timeline = load_spans(path)
    assert timeline.output(0, len(timeline)) == b"hello v1"


def test_output_read_back_from_the_file_is_not_held_in_memory(tmp_path: Path) -> None:
    path = tmp_path / "big.cast"
    with Recorder(path, cols=80, rows=24) as rec:
        for i in range(400):
            rec.output((f"{i:05d} " + "y" * 5000 + "\r\n").encode())  # 2 MB in all
    size = path.stat().st_size
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        lazy = load_spans(path)
        lazy_held = tracemalloc.get_traced_memory()[0] - before
        held = load_memory(path)
        memory_held = tracemalloc.get_traced_memory()[0] - before - lazy_held
    finally:
        tracemalloc.stop()
    assert memory_held > size * 0.9  # the comparison: every output byte in memory
    assert lazy_held < size * 0.02
    assert lazy.output(0, len(lazy)) == held.output(0, len(held))


def test_a_recording_changed_on_disk_while_replayed_is_a_clear_error(tmp_path: Path) -> None:
    path = recorded(tmp_path / "s.cast")
    timeline = load_spans(path)
    path.write_bytes(path.read_bytes()[:200])  # cut, as if rewritten
    with pytest.raises(CastFormatError, match="changed on disk while it was replayed"):
        list(timeline.payloads(0, len(timeline)))


def test_applying_more_than_one_feed_at_once_gives_the_same_screen() -> None:
    timeline = Timeline(40, 5)
    line = "\x1b[1m" + "z" * 300 + "\x1b[0m\r\n"
    count = FEED_AT_ONCE // len(line) * 3
    timeline.extend(Event(i / 100, "o", f"{i} {line}") for i in range(count))
    model = new_model(40, 5)
    model.feed(timeline.output(0, len(timeline)))
    assert screen_at(timeline, len(timeline)).text() == model.text()
