"""Search across time: every moment a text appeared on the screen.

A text *appears* at the first event after which some screen row contains it while no row did
just before. Finding that exactly means feeding the recording through a model and looking at the
rows each event dirtied — the model is the slow part, so the search first picks the stretches
between keyframes where the text can appear, and feeds only those (from their keyframe):

- the stretch's output, with escape sequences removed, contains the text (colours and cursor
  steps inside a word do not hide it: SGR is dropped and a cursor-forward counts as a space); or
- the text is on the screen at the stretch's end but was not at its start (a full-screen program
  drew it with cursor moves, or the main screen came back from the alternate one).

Not found, by design: a text drawn out of order with cursor addressing *and* gone again before
the next keyframe (a few seconds later). Texts are matched within one row (not across a wrap).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from observer.asciicast.feeding import feed
from observer.replay.keyframes import Keyframe, KeyframeIndex, new_model
from observer.replay.timeline import OUTPUT, RESIZE, Timeline
from observer.terminal import TerminalModel

# ECMA-48: CSI = ESC [ params intermediates final; OSC/DCS/APC/PM/SOS strings end in ST or BEL.
_STRING = r"\x1b[\]P_^X][^\x07\x1b]*(?:\x07|\x1b\\)?"
_CSI = r"\x1b\[[0-?]*[ -/]*[@-~]"
_ESCAPES = re.compile(rf"{_STRING}|{_CSI}|\x1b[ -/]*[0-~]?|[\x00-\x08\x0b-\x1f\x7f]")
_CURSOR_FORWARD = re.compile(r"\x1b\[[0-9]*C")
SCREEN_CODES = frozenset((OUTPUT, RESIZE))


def visible_text(data: bytes) -> str:
    """Output with escape sequences and control characters removed (line feeds kept)."""
    text = data.decode("utf-8", "replace")
    if "\x1b" not in text and not any(c < " " and c != "\n" for c in text):
        return text
    return _ESCAPES.sub("", _CURSOR_FORWARD.sub(" ", text))


@dataclass(frozen=True, slots=True)
class Match:
    """One appearance of the searched text.

    Attributes:
        time: When it appeared (the time of the event that made it appear).
        count: Events applied at that moment (the player shows ``count`` events).
        row: A screen row holding it then.
    """

    time: float
    count: int
    row: int


Progress = Callable[[float], None]


def find(
    timeline: Timeline,
    index: KeyframeIndex,
    query: str,
    *,
    progress: Progress | None = None,
) -> list[Match]:
    """Every moment ``query`` appeared on the screen, in time order.

    Args:
        timeline: The recording (what is loaded so far is searched).
        index: Its keyframes (the more there are, the less is fed).
        query: The text; an empty or blank query finds nothing.
        progress: Called with the fraction done, now and then (e.g. from a worker thread).
    """
    if not query.strip():
        return []
    keyframes = list(index.keyframes)
    end = len(timeline)
    stretches = [
        (k, keyframes[i + 1] if i + 1 < len(keyframes) else None)
        for i, k in enumerate(keyframes)
        if k.index < end
    ] or [(keyframes[0], None)]
    matches: list[Match] = []
    tail = ""  # the end of the previous stretch's text, for a query split across stretches
    for done, (start, stop) in enumerate(stretches):
        stop_index = stop.index if stop is not None else end
        text = visible_text(timeline.output(start.index, stop_index))
        if _candidate(query, tail + text, start, stop):
            matches.extend(_scan(timeline, start, stop_index, query))
        tail = text[-len(query) :]
        if progress is not None:
            progress((done + 1) / len(stretches))
    return matches


def _on_screen(query: str, rows: Sequence[str]) -> bool:
    return any(query in row for row in rows)


def _candidate(query: str, text: str, start: Keyframe, stop: Keyframe | None) -> bool:
    if query in text:
        return True
    if stop is None:
        return True  # not indexed yet: the end screen is unknown, so look
    return _on_screen(query, stop.text) and not _on_screen(query, start.text)


def _row(model: TerminalModel, y: int) -> str:
    return "".join(cell.data for cell in model.line(y))


def _scan(timeline: Timeline, start: Keyframe, stop: int, query: str) -> list[Match]:
    """Feed events ``start.index``..``stop`` one at a time and note every appearance."""
    model = new_model(timeline.cols, timeline.rows)
    model.restore(start.snapshot)
    has = [query in _row(model, y) for y in range(model.rows)]
    present = any(has)
    found: list[Match] = []
    for index, event in enumerate(timeline.events(start.index, stop), start.index):
        if event.code not in SCREEN_CODES:
            continue
        fed = feed(model, (event,))
        if fed.whole:
            has = [False] * model.rows
        for y in range(model.rows) if fed.whole else fed.dirty:
            has[y] = query in _row(model, y)
        now = any(has)
        if now and not present:
            found.append(Match(timeline.time(index), index + 1, has.index(True)))
        present = now
    return found


class HasData(Protocol):
    """A screen cell (its text: a character and the zero-width ones joined to it, or ``""``)."""

    @property
    def data(self) -> str: ...


def occurrences(cells: Sequence[HasData], query: str) -> tuple[tuple[int, int], ...]:
    """Where ``query`` stands in a row, as ``(start, end)`` column ranges (end excluded).

    The row's text is its cells' text joined, as :func:`find` matches it; a wide character's
    range covers both its columns.
    """
    if not query:
        return ()
    columns = [x for x, cell in enumerate(cells) for _ in cell.data]
    text = "".join([cell.data for cell in cells])
    ranges = []
    start = text.find(query)
    while start >= 0:
        last = columns[start + len(query) - 1]
        wide = last + 1 < len(cells) and cells[last + 1].data == ""
        ranges.append((columns[start], last + (2 if wide else 1)))
        start = text.find(query, start + len(query))
    return tuple(ranges)


def following(matches: Sequence[Match], count: int) -> Match | None:
    """The first match shown after more than ``count`` events (``n``), wrapping to the first."""
    return next((m for m in matches if m.count > count), matches[0] if matches else None)


def preceding(matches: Sequence[Match], count: int) -> Match | None:
    """The last match shown after fewer than ``count`` events (``N``), wrapping to the last."""
    return next((m for m in reversed(matches) if m.count < count), matches[-1] if matches else None)


__all__ = ["Match", "find", "following", "occurrences", "preceding", "visible_text"]
