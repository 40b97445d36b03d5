"""Feeding a recording's events into a terminal model, up to a time or a marker.

The one place that says what an event does to a screen: output (``o``) is fed as UTF-8, a resize
(``r``) resizes, every other code (input, marker, exit, unknown) leaves the screen alone. Every
reader of recordings feeds through :func:`feed`: ``observer render`` (up to ``--at`` or
``--at-marker``), ``observer export`` (marker by marker), and the replay's keyframe index, seeks
and search (:mod:`observer.replay`).

Pure: the model is anything with ``feed(bytes)`` and ``resize(cols, rows)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from observer.asciicast.events import OUTPUT, RESIZE, Event
from observer.asciicast.transforms import until as events_until
from observer.terminal.size import parse_size

FEED_AT_ONCE = 1024 * 1024
"""Most characters of consecutive output joined into one ``feed`` (the model's screen is the same
however its input is split, and one call is much faster than one per event)."""


class Screen(Protocol):
    """What events are fed into (:class:`observer.terminal.TerminalModel` is one)."""

    def feed(self, data: bytes) -> set[int]:
        """Parse output; return the rows that changed."""

    def resize(self, cols: int, rows: int) -> object:
        """Change the size."""


@dataclass(slots=True)
class Fed:
    """What one :func:`feed` did.

    Attributes:
        dirty: Rows that changed.
        whole: The whole screen changed (a resize).
        stopped_at: The event ``stop`` accepted (not applied, and taken from the iterator), or
            ``None`` when the events ran out or passed ``until``.
    """

    dirty: set[int] = field(default_factory=set)
    whole: bool = False
    stopped_at: Event | None = None


def feed(
    model: Screen,
    events: Iterable[Event],
    *,
    until: float | None = None,
    stop: Callable[[Event], bool] | None = None,
) -> Fed:
    """Apply ``events`` to ``model`` in order, up to a time or up to the event ``stop`` accepts.

    Args:
        model: The terminal model.
        events: Events in time order. An iterator is consumed only as far as needed, so calling
            this again with the same iterator goes on from there (``export`` does, marker by
            marker).
        until: Apply the events at or before this time (the screen at that moment); the first
            later event is read but not applied (as :func:`observer.asciicast.until`).
        stop: Stop at the first event for which this is true, before applying it (e.g. a
            marker: ``lambda e: e.code == MARKER``).

    Returns:
        The rows changed, whether a resize happened, and the event that stopped it.

    Raises:
        ValueError: A resize event's size is not ``COLSxROWS`` within limits.
    """
    fed = Fed()
    pending: list[str] = []
    held = 0
    for event in events if until is None else events_until(events, until):
        if stop is not None and stop(event):
            fed.stopped_at = event
            break
        code = event.code
        if code == OUTPUT:
            pending.append(event.data)
            held += len(event.data)
            if held < FEED_AT_ONCE:
                continue  # a long range is joined in pieces, never held in memory whole
        elif code != RESIZE:
            continue
        if pending:
            fed.dirty |= model.feed("".join(pending).encode("utf-8", "replace"))
            pending.clear()
            held = 0
        if code == RESIZE:
            model.resize(*parse_size(event.data))
            fed.whole = True
    if pending:
        fed.dirty |= model.feed("".join(pending).encode("utf-8", "replace"))
    return fed


__all__ = ["FEED_AT_ONCE", "Fed", "Screen", "feed"]
