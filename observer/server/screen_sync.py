"""Screen-sync for tiles: the rows of the server's model that changed, at most N times a second.

A client in the ``screen`` view (``{"type":"view","view":"screen","fps":N}``) gets no output
bytes: every ``1/N`` seconds, if the screen changed, one ``screen`` frame with the rows that
changed since its previous one (mosh's idea: synchronise the state, not the byte stream). Its
cost is bounded by the screen's size and the frame rate, whatever the agent prints.

The session keeps a version per row (:class:`RowVersions`, bumped by the model's dirty rows);
each row is painted once per version (:meth:`RowVersions.painted`) and the text shared by every
client that needs it; a row written again the same (an Ink UI redraws its whole region for each
change of a line or two) keeps its content's version, so it is not sent again. Each client
remembers the versions it was sent (:class:`ScreenFeed`).

A repaint of rows cannot carry what the agent sent to be noticed (OSC 9/99/777 notifications,
BEL, OSC 9;4 progress): the model reports those, the session keeps the latest in a
:class:`NotificationLog`, and each frame lists those since the client's previous frame (a bell
alone makes a frame). A notification or a bell does not wait for the next frame's turn: the
ticker wakes and sends it at once (at most :data:`TICK` after the previous frame), since a tile's
agent asking for someone is what the dashboard is for; progress reports wait their turn.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from observer.protocol import frames
from observer.protocol.screen_frames import Screen
from observer.server.notification_log import NotificationLog
from observer.terminal.ansi import paint_glyphs
from observer.terminal.cells import BLANK, Glyph

SYNC_HOLD = 0.5
"""Longest a frame waits for a synchronized update (DEC mode 2026) to end: a tile shows no
half-drawn screen, nor freezes behind a program that never ends its update."""

TICK = 1.0 / 30
TIMER_SLACK = 0.001
"""How often the ticker looks for due frames (the highest frame rate a client may ask for)."""


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
    def row_key(self, y: int) -> tuple[object, ...]: ...
    def glyphs(self, y: int) -> Sequence[Glyph]: ...


def row_text(glyphs: Sequence[Glyph]) -> str:
    """One row (as the model's grid holds it) as SGR and text from its first column, trailing
    blanks left out, the pen starting from the terminal's default (the client resets it and
    clears the row first)."""
    out: list[str] = []
    paint_glyphs(out, glyphs, len(glyphs), BLANK)
    return "".join(out)


class RowVersions:
    """A version per row of the model: bumped when the row is written; painted once per version,
    and the row's content keeps its version while it is written the same."""

    def __init__(self, rows: int) -> None:
        self.generation = 0
        """Bumped at every resize: a client whose generation differs gets a full frame."""
        self._clock = 0
        self.versions = [0] * rows
        self._painted: dict[int, tuple[int, int, tuple[object, ...], str]] = {}
        """Row -> (the version looked at, the version its cells last changed, the row's key
        (:meth:`~observer.terminal.TerminalModel.row_key`), its text)."""

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

    def painted(self, model: ScreenRows, y: int) -> tuple[int, str]:
        """Row ``y`` painted (:func:`row_text`), once per version whoever asks: the version at
        which its cells last changed, and the text (a row written the same is not painted)."""
        version = self.versions[y]
        cached = self._painted.get(y)
        if cached is not None and cached[0] == version:
            return cached[1], cached[3]
        key = model.row_key(y)  # cheap: no cell is built
        if cached is not None and cached[2] == key:
            cached = (version, cached[1], cached[2], cached[3])
        else:
            cached = (version, version, key, row_text(model.glyphs(y)))
        self._painted[y] = cached
        return cached[1], cached[3]


class ScreenFeed:
    """One client's screen view: its frame rate and what it was sent.

    Args:
        fps: frames a second at most.
        clock: monotonic seconds.
        noticed: the number of the last notification the client saw otherwise (in the stream).
    """

    def __init__(
        self, fps: int, clock: Callable[[], float] = time.monotonic, noticed: int = 0
    ) -> None:
        self.interval = 1.0 / fps
        self._clock = clock
        self.due = 0.0
        """When the next frame may go (monotonic seconds)."""
        self._sent_at = -TICK
        """When the previous frame went (a notification may go a tick after it)."""
        self._seen: list[int] = []
        """Each row's version when last looked at."""
        self._sent: list[int] = []
        """Each row's content version when last sent."""
        self._noticed = noticed
        """The number of the last notification sent (:class:`NotificationLog`)."""
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
        self,
        model: ScreenRows,
        rows: RowVersions,
        offset: int,
        notices: NotificationLog | None = None,
        *,
        force: bool = False,
    ) -> str | None:
        """The next ``screen`` frame if one is due and something changed or was notified (or
        ``force``: now, even empty), else ``None``."""
        now = self._clock()
        due = self.due_at(notices)
        if not force and (now < due or (model.synchronized and now < due + SYNC_HOLD)):
            return None
        full = self._generation != rows.generation or len(self._seen) != len(rows.versions)
        lines = self._changed_rows(model, rows, full)
        rest = ((model.cursor_x, model.cursor_y), model.cursor_visible, model.title)
        notified = notices.since(self._noticed) if notices is not None else ()
        if not lines and not full and not notified and rest == self._rest and not force:
            return None
        if notices is not None:
            self._noticed = notices.last
        self._generation, self._rest = rows.generation, rest
        self.due, self._sent_at = now + self.interval, now
        self.frames += 1
        cursor = (min(model.cursor_x, model.cols - 1), min(model.cursor_y, model.rows - 1))
        message = frames.encode(
            Screen(offset, model.cols, model.rows, full, lines, cursor, rest[1], rest[2], notified)
        )
        assert isinstance(message, str)
        return message

    def due_at(self, notices: NotificationLog | None) -> float:
        """When the next frame may go: a notification or a bell not yet sent goes a tick after
        the previous frame (the agent asks for someone), anything else at :attr:`due`."""
        if notices is not None and notices.last_urgent > self._noticed:
            return min(self.due, self._sent_at + TICK)
        return self.due

    def _changed_rows(
        self, model: ScreenRows, rows: RowVersions, full: bool
    ) -> tuple[tuple[int, str], ...]:
        """The rows whose content changed since they were last sent (every non-blank row of a
        ``full`` frame: blank rows are implied by it)."""
        versions = rows.versions
        if full:
            self._seen, self._sent = [-1] * len(versions), [-1] * len(versions)
        seen, sent = self._seen, self._sent
        lines = []
        for y, version in enumerate(versions):
            if version == seen[y]:
                continue
            seen[y] = version
            content, text = rows.painted(model, y)
            if content != sent[y]:
                sent[y] = content
                if text or not full:
                    lines.append((y, text))
        return tuple(lines)


class Viewer(Protocol):
    """The part of a :class:`~observer.server.clients.Client` screen-sync uses."""

    screen: ScreenFeed | None
    overflowed: bool

    def push(self, message: str | bytes, frame: bytes | None = None) -> None: ...
    def push_unbounded(self, message: str | bytes, frame: bytes | None = None) -> None: ...
    def drop_backlog(self) -> None: ...


class ScreenViews:
    """The screen viewers of one session: switching views, and a ticker that sends each its due
    frames (one task, running only while there is a viewer).

    Args:
        clients: the session's clients (the same list, kept up to date by the session).
        model: the session's model.
        rows: its row versions now.
        offset: the model's stream offset now.
        catch_up: parses the model's backlog (before a last frame at the end of the stream).
        current: parses output the model holds back (before each round of frames: a frame shows
            the screen as it is, not as it was up to a hold ago).
        notices: what the agent sent to be noticed, as the model reported it.
    """

    def __init__(
        self,
        clients: Sequence[Viewer],
        model: ScreenRows,
        *,
        rows: Callable[[], RowVersions],
        offset: Callable[[], int],
        catch_up: Callable[[], None],
        current: Callable[[], None] = lambda: None,
        notices: NotificationLog,
    ) -> None:
        self._clients = clients
        self._notices = notices
        self._model = model
        self._rows = rows
        self._offset = offset
        self._catch_up = catch_up
        self._current = current
        self._task: asyncio.Task[None] | None = None
        self._sleep: asyncio.Future[None] | None = None
        notices.on_urgent = self.wake

    def enter(self, client: Viewer, fps: int) -> None:
        """The client switches to the screen view (or changes its frame rate)."""
        if client.screen is None:
            client.drop_backlog()  # bytes it will not read as bytes any more
            # The model parses what the client was sent first: its notifications came in the
            # stream; the frames carry those after (not those of the bytes just dropped).
            self._catch_up()
            client.screen = ScreenFeed(fps, noticed=self._notices.last)
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
        last = client.screen.frame(
            self._model, self._rows(), self._offset(), self._notices, force=True
        )
        assert last is not None  # forced
        client.push_unbounded(last)
        client.screen = None

    def stop(self) -> None:
        """Stop ticking (the session closes)."""
        if self._task is not None:
            self._task.cancel()

    def send_due(self) -> float | None:
        """Queue every due frame; return the seconds until the next may be due (None: no
        client is in the screen view)."""
        viewers = 0
        wait = 1.0
        current = False
        for client in self._clients:
            feed = client.screen
            if feed is None:
                continue
            viewers += 1
            if not client.overflowed:
                if not current and feed.due_at(self._notices) <= time.monotonic():
                    self._current()
                    current = True
                message = feed.frame(self._model, self._rows(), self._offset(), self._notices)
                if message is not None:
                    client.push(message)
            due = feed.due_at(self._notices) - time.monotonic()
            # Due later: wake then (a hair after: a timer may fire early, and a frame asked for
            # before it is due waits a whole tick more). Due already but nothing changed: look
            # again in a tick.
            wait = min(wait, due + TIMER_SLACK if due > 0 else TICK)
        return wait if viewers else None

    def wake(self) -> None:
        """Look for due frames now (a notification or a bell came: it goes at once)."""
        if self._sleep is not None and not self._sleep.done():
            self._sleep.set_result(None)

    async def _run(self) -> None:
        # Wake when the next frame may be due (a frame not sent for want of a change is due at
        # once, so the ticker looks again each TICK until one comes), or at a notification.
        loop = asyncio.get_running_loop()
        while (wait := self.send_due()) is not None:
            self._sleep = sleep = loop.create_future()
            timer = loop.call_later(wait, _done, sleep)
            try:
                await sleep
            finally:
                timer.cancel()
                self._sleep = None


def _done(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
