"""The tile view: what a session asks of its peer, the screen's state or the byte stream.

A tile asks for the screen's state (the screen view: the rows that changed, at most ``fps``
frames a second) where the peer can send it and nothing records the session; a recording needs
every byte, and the full view asks for the stream again (the peer continues it with no gap).
In the screen view a frame's rows are painted into the model where the view shows them (a
tile's crop); the others wait, so a tile costs the rows it shows, and are painted when they are
read: when a frame or :meth:`WatchedSession.shown_changed` finds them shown, when the prompt
recognisers look at the screen, or when the full view asks for the stream. A tile that shows
only a row's first columns (it shows the screen from its left edge) has rows painted up to
there; the recognisers and the full view, which read rows whole, have them painted whole. A
view that draws the rows it shows from the frames itself (a dashboard tile: :meth:`line` and
:meth:`cursor`) has none painted for it: its model is fed the agent's notifications alone, and
the rows and the cursor wait for whoever reads the model (live rewind's history before a
keyframe too: :meth:`_unpainted`).
"""

from __future__ import annotations

from collections.abc import Callable

from observer.client.events import Outlet
from observer.client.lifecycle import Lifecycle
from observer.client.parse_queue import ParseQueue
from observer.protocol.events import ScreenReceived, SnapshotReceived
from observer.protocol.screen_frames import View
from observer.protocol.screen_view import ScreenView
from observer.terminal.sanitize import sanitize_title

TILE_FPS = 5
"""Frames a second a tile asks for in the screen view, and repaints at most: a tile is a glance,
and each frame of 40 tiles costs the compositor what a full-size view costs: a faster rate
costs more of a core for no shorter lag (docs/benchmarks.md, "Figures behind constants")."""

_NONE: set[int] = set()

RowsShown = Callable[[int, int, int, int], range]
"""``rows(cols, rows, x, y)``: the rows a view shows of a screen of that size, cursor at (x, y)."""


class TileView:
    """The view one session asks of its peer (see the module docstring).

    Args:
        life: the connection's life (its adapter encodes the ask).
        queue: the parse queue frames are fed through.
        outlet: where the ask is queued.
        recorded: the session is recorded (it never watches the screen's state).
    """

    def __init__(
        self, life: Lifecycle, queue: ParseQueue, outlet: Outlet, *, recorded: bool
    ) -> None:
        self._life, self._queue, self._outlet = life, queue, outlet
        self._recorded = recorded
        self.wanted: View = "stream"
        self.asked: View = "stream"
        """What this connection was asked for (every connection starts in the stream)."""
        self.framed = False
        """The last of the agent's output came as a screen frame (not as bytes)."""
        self._fps = TILE_FPS
        self._screen = ScreenView()
        """The remote screen as the screen view's frames describe it."""
        self._rows: RowsShown | None = None
        self._columns: int | None = None
        """How many columns from the first the view shows (``None``: all)."""
        self._read: tuple[range, set[int]] = (range(0), set())
        self._drawn = False
        """The view draws the rows it shows from the frames itself (:meth:`line`)."""
        self._cursor_unfed = False
        """The model has not been fed the last frame's cursor (the view took it: :meth:`cursor`)."""
        queue.unpainted = self._unpainted

    def allowed(self) -> bool:
        """Whether the screen view may be asked: only of a peer that can send it, and never for
        a recorded session or one that shows nothing (a recording needs every byte)."""
        caps = self._life.capabilities
        return self._queue.show and not self._recorded and caps is not None and caps.screen

    def connection_opened(self) -> None:
        """A new connection starts in the stream; ask again for what the user chose."""
        self.asked = "stream"
        self.ask()

    def choose(self, view: View, fps: int) -> None:
        """How the user sees the session (see :meth:`WatchedSession.choose_view`)."""
        self.wanted, self._fps = view, fps
        self.ask()
        self.paint_unread()  # a full view reads every row, even with no connection to ask on

    def ask(self) -> None:
        """Ask the peer for the view chosen, where allowed and not asked yet."""
        view = self.wanted if self.allowed() else "stream"
        adapter = self._life.adapter
        if view != self.asked and adapter is not None:
            self.asked = view
            if view == "screen":  # the peer's first frame paints it all: none kept from before
                self._paint_all()  # meanwhile the model shows what the last frames did
                self._screen = ScreenView()
            self._outlet.send(adapter.encode_view(view, self._fps))
            self.paint_unread()  # a full view reads every row: at once, not at the snapshot

    def show_rows(
        self, rows: RowsShown | None, columns: int | None = None, *, drawn: bool = False
    ) -> None:
        """Which rows the view shows (``None``: all of them), and how many columns of them
        from the first (``None``: all); paint those waiting. ``drawn``: the view draws them
        from the frames itself (:meth:`line`), so none is painted into the model for it."""
        self._rows, self._columns, self._drawn = rows, columns, drawn and rows is not None
        self.paint_unread()

    def drawing(self) -> bool:
        """Whether the view draws its rows from the frames (:meth:`line`) rather than the model."""
        return self._drawn and self.asked == "screen" and self.wanted == "screen"

    def cursor(self) -> tuple[int, int, bool] | None:
        """The cursor (column, row, visible) as the last frame places it, where the view draws
        from the frames (``None``: the model's)."""
        view = self._screen
        if not (self.drawing() and view.rows):
            return None
        return (*view.cursor, view.cursor_visible)

    def cursor_row(self) -> int:
        """The row the cursor is on, as the view shows it."""
        cursor = self.cursor()
        return self._queue.model.cursor_y if cursor is None else cursor[1]

    def line(self, row: int) -> str | None:
        """Row ``row`` as the last frame paints it (SGR and text), where the view draws it from
        the frames (``None``: the model holds it)."""
        if not self.drawing():
            return None
        lines = self._screen.lines
        return lines[row] if 0 <= row < len(lines) else None

    def frame(self, event: ScreenReceived) -> None:
        """Rows that changed: their repaint is fed like output; a frame that replaces the
        screen is fed like a snapshot."""
        life, queue = self._life, self._queue
        self.framed = True
        queue.chunks += 1
        life.next_offset = event.offset  # the stream, when asked for again, goes on from here
        life.remote_size = (event.cols, event.rows)
        life.title = sanitize_title(event.title) or life.title
        if not queue.show:
            return
        view = self._screen
        whole = event.full or (event.cols, event.rows) != (view.cols, view.rows)
        changed = view.apply(event)
        if whole:
            queue.drop_waiting_output()  # the frame replaces all of it
            data = view.repaint(changed)
            queue.queue(SnapshotReceived(data, event.cols, event.rows, event.offset, False))
        elif self.drawing():
            # The view draws the rows and the cursor: the model is fed what the agent sent to
            # be noticed alone; the rows wait unpainted and are reported changed, and the rows
            # the view shows (as far as it shows them) and the cursor go to the tap, as a model
            # would be fed them.
            assert self._rows is not None
            view.due(changed, _NONE)
            shown = changed.intersection(self._rows(view.cols, view.rows, *view.cursor))
            self._cursor_unfed = True
            unfed = view.painted(shown, self._columns) + view.repaint((), notifications=False)
            queue.rows_repainted(view.notified(), frozenset(changed), unfed)
        else:
            read = self._rows_read()
            columns = None if read is None else self._columns
            queue.rows_repainted(view.repaint(view.due(changed, read, columns), columns=columns))

    def paint_unread(self, also: range = range(0)) -> None:
        """Paint the rows that wait unpainted and are read now, and the rows in ``also``
        whole (the prompt recognisers read them whole)."""
        view = self._screen
        if not self._waiting():
            return
        read = self._rows_read()
        columns = None if read is None else self._columns
        rows = view.due(set(), read, columns)
        fed = rows or self._cursor_unfed  # (the repaint places the cursor)
        self._cursor_unfed = False
        data = view.repaint(rows, notifications=False, columns=columns) if fed else b""
        if read is not None and also:
            whole = view.due(set(), set(also))
            if whole:
                data += view.repaint(whole, notifications=False)
        if data:
            self._queue.paint(data)

    def _waiting(self) -> bool:
        """Whether the model lacks something the frames brought: a row left unpainted or
        painted only in part, or the cursor (and the model is fed at all)."""
        view = self._screen
        return bool(view.unpainted or view.cut or self._cursor_unfed) and self._queue.show

    def _paint_all(self) -> None:
        """Paint every row (and the cursor) the frames left unpainted into the model, whole."""
        view = self._screen
        if self._waiting():
            self._cursor_unfed = False
            self._queue.paint(view.repaint(view.due(set(), None), notifications=False))

    def _unpainted(self) -> bytes:
        """The repaint of the rows the view shows that wait unpainted (as far as it shows
        them), and the cursor: the model is then what the view showed, as if fed it (a view
        that paints the model shows every row: all of them)."""
        view = self._screen
        if not self._waiting():
            return b""
        self._cursor_unfed = False
        if not (self._drawn and self._rows is not None and view.rows):
            return view.repaint(view.due(set(), None), notifications=False)
        shown = set(self._rows(view.cols, view.rows, *view.cursor))
        rows = view.due(set(), shown, self._columns)
        return view.repaint(rows, notifications=False, columns=self._columns)

    def _rows_read(self) -> set[int] | None:
        """The rows of the screen view's screen that the view reads from the model (``None``:
        all; kept: not to be changed): none where it draws them from the frames."""
        view = self._screen
        if self._rows is None or self.asked != "screen" or self.wanted != "screen":
            return None
        if self._drawn:
            return _NONE
        rows = self._rows(view.cols, view.rows, *view.cursor)
        if rows != self._read[0]:  # the same rows at most frames: the set is made once
            self._read = (rows, set(rows))
        return self._read[1]
