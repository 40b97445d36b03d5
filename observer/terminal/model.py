"""``TerminalModel``: the one object the rest of observer uses to emulate a terminal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

from pyte import modes as mo

from observer.terminal import ansi, snapshot
from observer.terminal.actions import MAX_CACHED
from observer.terminal.cells import Cell, Glyph, public
from observer.terminal.continuation import continuation
from observer.terminal.notifications import Event
from observer.terminal.screen import SYNCHRONIZED, VTScreen
from observer.terminal.size import MAX_SIZE, MIN_SIZE
from observer.terminal.snapshot import TerminalSnapshot
from observer.terminal.stream import VTStream

MIN_COLS, MAX_COLS = 2, MAX_SIZE
MIN_ROWS, MAX_ROWS = MIN_SIZE, MAX_SIZE


def clamp_size(cols: int, rows: int) -> tuple[int, int]:
    """Bring a requested geometry within what the model supports (2..1000 x 1..1000)."""
    return min(max(int(cols), MIN_COLS), MAX_COLS), min(max(int(rows), MIN_ROWS), MAX_ROWS)


class History(Sequence[Sequence[Cell]]):
    """The scrollback, oldest row first, read while output continues.

    Each row has the width the screen had when the row scrolled off; each is a copy of
    its cells, built when it is read. A row whose text continues on the next one
    (autowrap broke it) says so: :func:`~observer.terminal.cells.is_wrapped`.
    """

    def __init__(self, screen: VTScreen) -> None:
        self._rows, self._built = screen.history, screen.built

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, index: int) -> Sequence[Cell]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Sequence[Cell]]: ...
    def __getitem__(self, index: int | slice) -> Sequence[Cell] | Sequence[Sequence[Cell]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._rows)))]
        return public(self._built(self._rows[index]))


class TerminalModel:
    """A VT emulator over pyte that is fast, faithful and safe.

    Args:
        cols: width in cells (clamped to 2..1000).
        rows: height in rows (clamped to 1..1000).
        scrollback: rows of history kept for the main screen.
        caches: entries each of the parser's caches keeps (each costs ~2.5 KB: the 4,096 of a
            watched session's model hold up to ~10 MiB; a tile's, which parses a few rows a
            second, needs a few hundred).
    """

    def __init__(
        self, cols: int = 80, rows: int = 24, scrollback: int = 10_000, caches: int = MAX_CACHED
    ) -> None:
        cols, rows = clamp_size(cols, rows)
        self._screen = VTScreen(cols, rows, scrollback)
        self._stream = VTStream(self._screen, caches)
        self._screen.dirty.clear()

    # -- input -----------------------------------------------------------------------------

    def feed(self, data: bytes) -> set[int]:
        """Interpret output of the program. Never raises, never hangs.

        Args:
            data: bytes as the program wrote them; sequences may be split anywhere.

        Returns:
            The visible rows whose cells changed since the previous ``feed`` (or since a
            ``resize``/``restore``). Cursor moves alone do not mark rows.
        """
        screen = self._screen
        try:
            self._stream.feed(bytes(data))
        except Exception:  # defence in depth: the stream already guards each sequence
            screen.recover()
        dirty, screen.dirty = screen.dirty, set()
        if screen.dirty_all:
            screen.dirty_all = False
            return set(range(screen.lines))
        return {y for y in dirty if 0 <= y < screen.lines}

    def feed_unseen(self, data: bytes) -> set[int] | None:
        """:meth:`feed` ``data`` if its start cannot be seen: draws that erases after them
        empty (a UI redrawn several times: :mod:`observer.terminal.erased`), or lines that the
        rest scrolls off (a log, with no scrollback kept: :mod:`observer.terminal.scrolled`).
        That costs a scan and about the last draw's or a screenful's parse, whatever the
        length; ``None``, and nothing fed, where neither applies."""
        data = bytes(data)
        try:
            skipped = self._stream.skip_erased(data) or self._stream.skip_scrolled(data)
        except Exception:  # defence in depth, as in feed
            self._screen.recover()
            skipped = 0
        return self.feed(data[skipped:]) if skipped else None

    def resize(self, cols: int, rows: int) -> None:
        """Change the geometry (clamped); rows move through the scrollback as in tmux."""
        cols, rows = clamp_size(cols, rows)
        self._screen.resize(rows, cols)

    def take_notifications(self) -> list[Event]:
        """The agent's notifications seen since the last call, oldest first: desktop
        notifications (OSC 9, OSC 99, OSC 777) as :class:`NotificationSent`, BELs as
        :class:`BellRung`, ConEmu progress (OSC 9;4) as :class:`ProgressReported`. Texts are
        sanitized; at most the last 256 are kept between calls."""
        return self._screen.notifications.take()

    def take_replies(self) -> bytes:
        """Answers to DA/DSR queries seen since the last call (for the PTY, server only)."""
        replies, self._screen.replies = self._screen.replies, []
        return "".join(replies).encode("ascii")

    def snapshot(self) -> TerminalSnapshot:
        """An independent copy of the whole state (screen, scrollback, modes, parser)."""
        return snapshot.take(self._screen, self._stream)

    def restore(self, snap: TerminalSnapshot) -> None:
        """Return to a snapshot; it stays valid and can be restored again."""
        snapshot.restore(self._screen, self._stream, snap)

    def to_ansi(self, *, unfinished: bool = False) -> str:
        """A repaint that, fed to a fresh model of the same size, reproduces the screen,
        colours, attributes, cursor, its visibility, the title and the input modes.

        Args:
            unfinished: also end it with the input the parser holds unfinished (a sequence,
                a string or a UTF-8 character cut by the end of what was fed, and the
                character a REP would repeat), so that a fresh model fed the repaint and then
                the rest of the stream equals this one fed the whole stream. A character cut
                in the middle comes as ``surrogateescape`` code points: encode with
                ``text.encode("utf-8", "surrogateescape")``. Off by default: such a repaint
                may end inside a sequence, which a user's terminal must never get.
        """
        text = ansi.to_ansi(self._screen)
        if unfinished:
            text += continuation(self._screen, self._stream)
        return text

    # -- state -----------------------------------------------------------------------------

    @property
    def cols(self) -> int:
        """Width in cells."""
        return self._screen.columns

    @property
    def rows(self) -> int:
        """Height in rows."""
        return self._screen.lines

    @property
    def title(self) -> str:
        """The window title (OSC 0/2), sanitized."""
        return str(self._screen.title)

    @property
    def cursor_x(self) -> int:
        """Cursor column, 0-based (a pending wrap reports the last column)."""
        return min(self._screen.cursor.x, self._screen.columns - 1)

    @property
    def cursor_y(self) -> int:
        """Cursor row, 0-based."""
        return self._screen.cursor.y

    @property
    def cursor_visible(self) -> bool:
        """Whether the cursor is shown (DECTCEM)."""
        return not self._screen.cursor.hidden

    @property
    def alternate(self) -> bool:
        """Whether the alternate screen (modes 47/1047/1049) is active."""
        return self._screen.alternate

    @property
    def synchronized(self) -> bool:
        """Whether a synchronized update (mode 2026) is open: hold repaints until it ends."""
        return SYNCHRONIZED in self._screen.private_modes

    @property
    def application_cursor(self) -> bool:
        """DECCKM: arrow keys send ``ESC O`` sequences."""
        return 1 in self._screen.private_modes

    @property
    def bracketed_paste(self) -> bool:
        """Mode 2004: pastes are wrapped in ``ESC [ 200 ~`` .. ``ESC [ 201 ~``."""
        return 2004 in self._screen.private_modes

    @property
    def autowrap(self) -> bool:
        """DECAWM."""
        return mo.DECAWM in self._screen.mode

    @property
    def bells(self) -> int:
        """BEL characters seen so far."""
        return self._screen.bells

    @property
    def history(self) -> Sequence[Sequence[Cell]]:
        """Scrollback rows, oldest first (main screen only)."""
        return History(self._screen)

    def line(self, y: int) -> Sequence[Cell]:
        """Exactly ``cols`` cells of visible row ``y`` (a copy); a wide character is followed
        by a cell whose ``data`` is ``""``. Whether the row's text continues on the next row
        (autowrap broke it): :func:`~observer.terminal.cells.is_wrapped` of the result."""
        if not 0 <= y < self._screen.lines:
            raise IndexError(f"row {y} is outside the screen (0..{self._screen.lines - 1})")
        return public(self._screen.grid[y])

    def glyphs(self, y: int) -> Sequence[Glyph]:
        """Visible row ``y`` as the grid holds it, ``cols`` (text, pen) pairs, not copied: for
        drawing it at once (:func:`observer.render.rich_cells.glyphs_to_segments`), before the next feed."""
        return self._screen.grid[y]

    def all_narrow(self, text: str) -> bool:
        """Whether every character of ``text`` takes exactly one column, as this model draws
        it (one cell each)."""
        return self._screen.all_narrow(text)

    def row_key(self, y: int) -> tuple[object, ...]:
        """Visible row ``y`` as a value equal exactly when the row's cells are (cheap: no cells
        are built; for telling which rows a redraw really changed)."""
        return tuple(self._screen.grid[y])

    def text(self) -> list[str]:
        """The visible rows as text, trailing blanks trimmed (like ``tmux capture-pane -p``)."""
        return ["".join([cell[0] for cell in row]).rstrip() for row in self._screen.grid]
