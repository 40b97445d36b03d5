"""What a dashboard's live-rewind histories keep in memory: a redrawing agent's tile adds an
event per gathering to its timeline, so a dashboard left open all day must gather coarsely
(one watched session keeps its finer steps), and keep a bounded number of events."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from observer.app.rewind import (
    TILE_COALESCE,
    TILE_EVENTS,
    TILE_KEYFRAME_SPACING,
    SessionHistories,
)
from observer.recording.history import SessionHistory
from observer.replay.rewind import Rewind
from observer.terminal import TerminalModel

MINUTES = 10
CHUNKS_A_SECOND = 20
"""An Ink-like agent's tile: a repaint every 50 ms."""


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _links(count: int, taps: list[tuple[Any, SessionHistory]]) -> list[Any]:
    """Links with a session's model and feed tap, as :class:`SessionHistories` uses them."""
    links = []
    for _ in range(count):
        model = TerminalModel(120, 40, scrollback=0)
        session = SimpleNamespace(model=model)
        session.tap_feed = lambda history, model=model: taps.append((model, history))
        links.append(SimpleNamespace(session=session))
    return links


def _events_after_redrawing(count: int) -> list[int]:
    """Each history's events after :data:`MINUTES` of redraws in ``count`` watched sessions."""
    clock = Clock()
    histories = SessionHistories(clock)
    taps: list[tuple[Any, SessionHistory]] = []
    histories.start(_links(count, taps))  # type: ignore[arg-type]
    try:
        for tick in range(MINUTES * 60 * CHUNKS_A_SECOND):
            clock.now = tick / CHUNKS_A_SECOND
            data = b"\x1b[%dH\x1b[38;2;200;100;50mthinking %d\x1b[0m" % (tick % 40 + 1, tick)
            for model, history in taps:
                model.feed(data)
                history.fed(data, model, clock.now)
        return [len(history.timeline) for _, history in taps]
    finally:
        histories.close()


@pytest.mark.parametrize("tiles", [2, 10])
def test_a_dashboards_histories_gather_a_redrawing_agent_coarsely(tiles: int) -> None:
    gatherings = MINUTES * 60 / TILE_COALESCE
    for events in _events_after_redrawing(tiles):
        assert gatherings * 0.9 <= events <= gatherings + 2


def test_one_watched_session_keeps_finer_steps_to_rewind_to() -> None:
    (events,) = _events_after_redrawing(1)
    assert events >= 4 * MINUTES * 60 / TILE_COALESCE


def test_a_tile_of_an_agent_that_draws_little_keeps_a_bounded_timeline() -> None:
    """A clock redrawn each second writes a few bytes an event: a tile's byte cap would keep
    days of them, each event in memory; past the events bound the oldest go, and the oldest
    moment kept still shows."""
    clock = Clock()
    histories = SessionHistories(clock)
    taps: list[tuple[Any, SessionHistory]] = []
    histories.start(_links(2, taps))  # type: ignore[arg-type]
    held = 0
    try:
        for second in range(3 * TILE_EVENTS):
            clock.now = float(second)
            data = b"\x1b[Hup %d s" % second
            for model, history in taps:
                model.feed(data)
                history.fed(data, model, clock.now)
                held = max(held, len(history.timeline))
        assert held <= TILE_EVENTS + TILE_EVENTS // 8 + 1  # the bound, and a spool file's share
        for model, history in taps:
            history.flush(model, clock.now)
            assert history.dropped > 0
            rewind = Rewind(history.timeline, history.keyframes)
            rewind.seek(0.0, clock.now)  # the oldest moment still held
            oldest = int(rewind.player.model.text()[0].split()[1])
            assert 2 * TILE_EVENTS - TILE_EVENTS // 4 <= oldest < 3 * TILE_EVENTS
            rewind.seek(clock.now - 10.0, clock.now)
            assert rewind.player.model.text()[0] == f"up {3 * TILE_EVENTS - 11} s"
    finally:
        histories.close()


def _keyframes_after(count: int, seconds: int) -> list[int]:
    """Each history's keyframes after ``seconds`` of a status line redrawn 5 times a second
    (a few KB a minute: the byte budget is never reached) in ``count`` watched sessions."""
    clock = Clock()
    histories = SessionHistories(clock)
    taps: list[tuple[Any, SessionHistory]] = []
    histories.start(_links(count, taps))  # type: ignore[arg-type]
    try:
        for tick in range(seconds * 5):
            clock.now = tick / 5
            data = b"\x1b[40H\x1b[2Kworking %d" % tick
            for model, history in taps:
                model.feed(data)
                history.fed(data, model, clock.now)
        return [len(history.keyframes.keyframes) for _, history in taps]
    finally:
        histories.close()


def test_a_tiles_history_snapshots_its_screen_less_often_than_one_watched_sessions() -> None:
    # Each keyframe is a snapshot of the whole screen: a dashboard's 40 tiles took several a
    # second, for histories that grow by a few KB a second.
    (watched,) = _keyframes_after(1, 120)
    assert watched >= 120 / 5 / 2  # every 5 s at first (thinned past its limit)
    for tile in _keyframes_after(2, 120):
        assert 2 <= tile <= 1 + 120 / TILE_KEYFRAME_SPACING + 1
