"""A timer's callback is counted once, not with ``inspect.signature`` at each firing: every tile's
frame timer fires up to five times a second (observer.app.callback_counts)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any
from weakref import WeakKeyDictionary

import pytest
from textual import _callback
from textual.app import App
from textual.widget import Widget

from observer.app import callback_counts

FIRINGS = 40


class Ticking(Widget):
    """Sets a fresh one-shot timer each time it fires, as a tile's view does for each frame."""

    def __init__(self) -> None:
        super().__init__()
        self.fired = 0

    def on_mount(self) -> None:
        self.set_timer(0.001, self.tick)

    def tick(self) -> None:
        self.fired += 1
        if self.fired < FIRINGS:
            self.set_timer(0.001, self.tick)


class TickingApp(App[None]):
    def compose(self) -> Iterator[Widget]:
        yield Ticking()


@pytest.fixture
def signatures(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The timer's callables Textual asks ``inspect.signature`` about (the widget's ``tick``
    and the ``call_next`` that ``set_timer`` wraps it in), in order."""
    asked: list[object] = []
    real = _callback.signature

    def counting(func: Callable[..., Any]) -> Any:
        if getattr(func, "__name__", "") in ("tick", "call_next"):
            asked.append(func)
        return real(func)

    monkeypatch.setattr(_callback, "signature", counting)
    monkeypatch.setattr(callback_counts, "signature", counting)
    monkeypatch.setattr(callback_counts, "_bound_counts", WeakKeyDictionary())
    monkeypatch.setattr(_callback, "count_parameters", callback_counts._textual_count)
    return asked


async def fire(install: bool) -> None:
    if install:
        callback_counts.install()
    app = TickingApp()
    async with app.run_test() as pilot:
        ticking = app.query_one(Ticking)
        for _ in range(200):
            if ticking.fired >= FIRINGS:
                break
            await pilot.pause(0.01)
        assert ticking.fired == FIRINGS


async def test_textual_alone_asks_for_a_signature_at_each_firing(signatures: list[object]) -> None:
    await fire(install=False)
    assert len(signatures) >= 2 * FIRINGS  # the premise: what install() is for


async def test_installed_a_timer_callback_is_counted_once(signatures: list[object]) -> None:
    await fire(install=True)
    assert len(signatures) <= 2  # each counted once, then remembered


def target(a: int, b: int, c: int = 0) -> None: ...


class Holder:
    def method(self, a: int, b: int) -> None: ...


@pytest.mark.parametrize(
    "func",
    [
        target,
        Holder().method,
        partial(target, 1),
        partial(Holder().method, 1),
        partial(partial(target, 1), 2),
        partial(target, c=3),
        partial(Holder().method, b=2),
        partial([].append, True),  # a builtin's bound method: no function to remember it by
        lambda: None,
    ],
)
def test_the_count_is_textuals_own(func: Callable[..., Any]) -> None:
    ours = callback_counts.count_parameters(func)  # first: Textual's may remember its count
    assert ours == callback_counts._textual_count(func)
