"""Screen-sync for tiles: the rows of the server's model that changed, at most N times a second.

A client in the ``screen`` view (``{"type":"view","view":"screen","fps":N}``) gets no output
bytes: every ``1/N`` seconds, if the screen changed, one ``screen`` frame with the rows that
changed since its previous one (mosh's idea: synchronise the state, not the byte stream). Its
cost is bounded by the screen's size and the frame rate, whatever the agent prints.

The session keeps a version per row (:class:`RowVersions`, bumped by the model's dirty rows);
each row is painted once per version (:meth:`RowVersions.painted`) and the text shared by every
client that needs it. Each client remembers the versions it was sent (:class:`ScreenFeed`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from observer.protocol import frames
from observer.protocol.screen_frames import Screen
from observer.terminal.ansi import paint_row
from observer.terminal.cells import BLANK, Cell

SYNC_HOLD = 0.5
"""Longest a frame waits for a synchronized update (DEC mode 2026) to end: a tile shows no
half-drawn screen, nor freezes behind a program that never ends its update."""


class ScreenRows(Protocol):
    """What screen-sync reads of the server's model."""

    @property
    def cols(self) -> int: ...
    @property
    def rows(self) -> int: ...
    @property
    def title(self) -> str: ...
    @property
    def cursor_x(self) -> int: ...
    @property
    def cursor_y(self) -> int: ...
    @property
    def cursor_visible(self) -> bool: ...
    @property
    def synchronized(self) -> bool: ...
    def line(self, y: int) -> Sequence[Cell]: ...


def row_text(cells: Sequence[Cell]) -> str:
    """One row as SGR and text from its first column, trailing blanks left out, the pen
    starting from the terminal's default (the client resets it and clears the row first)."""
    out: list[str] = []
    paint_row(out, cells, len(cells), BLANK)
    return "".join(out)


class RowVersions:
    """A version per row of the model: bumped when the row changes; painted once per version."""

    def __init__(self, rows: int) -> None:
        self.generation = 0
        """Bumped at every resize: a client whose generation differs gets a full frame."""
        self._clock = 0
        self.versions = [0] * rows
        self._painted: dict[int, tuple[int, str]] = {}

    def bump(self, rows: Iterable[int]) -> None:
        """The model's dirty rows after a feed."""
        self._clock += 1
        for y in rows:
            if 0 <= y < len(self.versions):
                self.versions[y] = self._clock

    def resized(self, rows: int) -> None:
        """Every row is new."""
        self._clock += 1
        self.generation += 1
        self.versions = [self._clock] * rows
        self._painted.clear()

    def painted(self, model: ScreenRows, y: int) -> str:
        """Row ``y`` painted (:func:`row_text`), once per version whoever asks."""
        version = self.versions[y]
        cached = self._painted.get(y)
        if cached is None or cached[0] != version:
            cached = (version, row_text(model.line(y)))
            self._painted[y] = cached
        return cached[1]


class ScreenFeed:
    """One client's screen view: its frame rate and what it was sent.

    Args:
        fps: frames a second at most.
        clock: monotonic seconds.
    """

    def __init__(self, fps: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = 1.0 / fps
        self._clock = clock
        self.due = 0.0
        """When the next frame may go (monotonic seconds)."""
        self._sent: list[int] = []
        self._generation = -1
        self._rest: tuple[tuple[int, int], bool, str] | None = None
        self.frames = 0
        """``screen`` frames sent."""
        self.leaving = False
        """The client asked for the stream again: its snapshot is on its way."""

    def reset(self) -> None:
        """Send a full frame next (the client missed frames: its queue overflowed)."""
        self._generation = -1

    def frame(
        self, model: ScreenRows, rows: RowVersions, offset: int, *, force: bool = False
    ) -> str | None:
        """The next ``screen`` frame if one is due and something changed (or ``force``: now,
        even empty), else ``None``."""
        now = self._clock()
        if not force and (now < self.due or (model.synchronized and now < self.due + SYNC_HOLD)):
            return None
        full = self._generation != rows.generation or len(self._sent) != len(rows.versions)
        changed = [y for y, v in enumerate(rows.versions) if full or v != self._sent[y]]
        rest = ((model.cursor_x, model.cursor_y), model.cursor_visible, model.title)
        if not changed and rest == self._rest and not force:
            return None
        lines = tuple((y, rows.painted(model, y)) for y in changed)
        if full:  # blank rows are implied by "full"
            lines = tuple(line for line in lines if line[1])
        self._sent, self._generation, self._rest = list(rows.versions), rows.generation, rest
        self.due = now + self.interval
        self.frames += 1
        cursor = (min(model.cursor_x, model.cols - 1), min(model.cursor_y, model.rows - 1))
        message = frames.encode(
            Screen(offset, model.cols, model.rows, full, lines, cursor, rest[1], rest[2])
        )
        assert isinstance(message, str)
        return message


class Viewer(Protocol):
    """The part of a :class:`~observer.server.clients.Client` screen-sync uses."""

    screen: ScreenFeed | None
    overflowed: bool

    def push(self, message: str | bytes, frame: bytes | None = None) -> None: ...
    def push_unbounded(self, message: str | bytes, frame: bytes | None = None) -> None: ...
    def drop_backlog(self) -> None: ...


TICK = 1.0 / 30
"""How often the ticker looks for due frames (the highest frame rate a client may ask for)."""


class ScreenViews:
    """The screen viewers of one session: switching views, and a ticker that sends each its due
    frames (one task, running only while there is a viewer).

    Args:
        clients: the session's clients (the same list, kept up to date by the session).
        model: the session's model.
        rows: its row versions now.
        offset: the model's stream offset now.
        catch_up: parses the model's backlog (before a last frame at the end of the stream).
    """

    def __init__(
        self,
        clients: Sequence[Viewer],
        model: ScreenRows,
        rows: Callable[[], RowVersions],
        offset: Callable[[], int],
        catch_up: Callable[[], None],
    ) -> None:
        self._clients = clients
        self._model = model
        self._rows = rows
        self._offset = offset
        self._catch_up = catch_up
        self._task: asyncio.Task[None] | None = None

    def enter(self, client: Viewer, fps: int) -> None:
        """The client switches to the screen view (or changes its frame rate)."""
        if client.screen is None:
            client.drop_backlog()  # bytes it will not read as bytes any more
            client.screen = ScreenFeed(fps)
        else:  # a new rate; or staying after all, if it was leaving
            client.screen.interval = 1.0 / fps
            client.screen.leaving = False
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    def leave(self, client: Viewer) -> None:
        """Back to the stream: a last frame at the end of the stream, where the snapshot that
        the caller queues next stands (so the client's stream goes on with no gap)."""
        if client.screen is None:
            return
        self._catch_up()
        last = client.screen.frame(self._model, self._rows(), self._offset(), force=True)
        assert last is not None  # forced
        client.push_unbounded(last)
        client.screen = None

    def stop(self) -> None:
        """Stop ticking (the session closes)."""
        if self._task is not None:
            self._task.cancel()

    def send_due(self) -> int:
        """Queue every due frame; return how many clients are in the screen view."""
        viewers = 0
        for client in self._clients:
            if client.screen is None:
                continue
            viewers += 1
            if client.overflowed:
                continue
            message = client.screen.frame(self._model, self._rows(), self._offset())
            if message is not None:
                client.push(message)
        return viewers

    async def _run(self) -> None:
        while self.send_due():
            await asyncio.sleep(TICK)
