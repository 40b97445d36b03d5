"""``TerminalCanvas``: the remote screen drawn with the line API (what every terminal view shares).

Modelled on Textual's ``Log`` widget: ``render_line`` returns cached :class:`Strip` s keyed by
the row's cells (its list in the model's grid, checked against a copy), cursor column, palette
and place in the view, so a row that scrolls up is drawn from the strip it had: a scroll by *n*
lines composes *n* rows. Only rows the model reports dirty are refreshed, through
``refresh(*regions)``, and never while the remote holds a synchronized update open (DECSET 2026,
up to ``SYNC_TIMEOUT``). Frames are paced to what changes and to what a person reads
(:mod:`observer.app.widgets.frame_pace`). The remote size is authoritative: a smaller view crops and follows the cursor (and says what it
hides: :attr:`TerminalCanvas.crop`), a larger one centres the screen.
Scrolled or panned (:attr:`TerminalCanvas.scroll`), the bottom line says how many new lines
arrived and how to jump back to live. Interaction (keys, mouse) is
:class:`~observer.app.widgets.terminal_view.TerminalView`'s.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter
from textual.geometry import Region
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from observer.app.widgets import strips
from observer.app.widgets.frame_pace import (
    FRAME,
    SYNC_TIMEOUT,
    ScreenModel,
    frame_interval,
    scrolled_past,
)
from observer.app.widgets.painted_rows import (
    PaintedRows,
    edge_style,
    pointed_style,
    scrolled_bar,
    selected_style,
)
from observer.app.widgets.screen_source import ScreenSource
from observer.app.widgets.scrolling import Scroll
from observer.app.widgets.selection import Point, Selection, line_text
from observer.app.widgets.strips import filtered as _filtered
from observer.app.widgets.viewport import Crop, Geometry, Window, crop, row_runs, window
from observer.render.rich_cells import Palette
from observer.terminal import Cell


class TerminalCanvas(Widget):
    """Draws a :class:`ScreenSource`'s terminal, scrolled, panned and selected as told."""

    def __init__(
        self,
        session: ScreenSource,
        palette: Palette,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.session = session
        self.palette = palette
        self.scroll = Scroll()
        """Where the user moved the view (the view's own state, not the session's)."""
        self.selection: Selection | None = None
        self.mark_edges = False
        """Mark rows that continue past a cropped edge (the watch screen's view)."""
        self.frames = 0
        self.frame = FRAME
        """Seconds between frames at most (a dashboard tile draws a few a second)."""
        self.paced: Callable[[], bool] = lambda: False
        """Whether the peer paces the session's changes already (the screen view: a few frames
        a second): each is drawn as it comes (at once, without a timer, unless the last was
        drawn less than :data:`FRAME` ago). Held to :attr:`frame` too, a frame that came a
        little early waited most of a frame."""
        self.clock: Callable[[], float] = time.monotonic
        """Monotonic seconds for frame pacing and the synchronized-update timeout."""
        self.highlights: Mapping[int, tuple[tuple[int, int], ...]] = {}
        """Column ranges of screen rows drawn as search matches (see :meth:`highlight`)."""
        self._painted = PaintedRows()
        self._blank_style: Style | None = None
        self._background: Color | None = None
        self._pending: set[int] = set()
        self._whole = False
        self._timer: Timer | None = None
        self._last_frame = 0.0
        self._sync_since: float | None = None
        self._window: Window | None = None
        self._window_drawn: Window | None = None
        """The window the last frame drew (what reading :attr:`crop` works out is not drawn)."""
        self._window_key: tuple[object, ...] = ()
        self._crop: Crop | None = None
        self._crop_told: Crop | None = None
        """The crop :meth:`crop_changed` last told of (reading :attr:`crop` works it out anew:
        a status bar reading it between a resize and the frame must not hide the change)."""
        self._cursor: tuple[int, int, bool] = (-1, -1, False)
        self._bottom: tuple[ScreenModel, object] | None = None
        """The model and its bottom screen row's cells (its list) when the last frame was drawn."""

    @property
    def crop(self) -> Crop | None:
        """What the view hides of the remote screen now (None before it has a size)."""
        if not self.size.area:
            return None
        self._layout()
        return self._crop

    def crop_changed(self) -> None:
        """Called after a frame that changed :attr:`crop` (a subclass tells someone)."""

    # -- wiring ---------------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.session.subscribe(self.mark_dirty)
        self.scroll.follow(self.session.model.history)

    def on_unmount(self) -> None:
        self.session.unsubscribe(self.mark_dirty)

    def set_palette(self, palette: Palette) -> None:
        """Redraw everything in other colours."""
        self.palette = palette
        self._painted.clear()
        self._blank_style = self._background = None  # the theme changed
        self.refresh()

    def notify_style_update(self) -> None:
        self._blank_style = self._background = None
        super().notify_style_update()

    def mark_dirty(self, rows: set[int], whole: bool = False) -> None:
        """Note changed rows; they are repainted at the next frame."""
        if whole:
            self._whole = True
        self._pending |= rows
        self._schedule()

    def moved(self) -> None:
        """The scroll or the selection changed: draw everything again now."""
        self._window = None
        self.refresh()

    def highlight(self, matches: Mapping[int, tuple[tuple[int, int], ...]]) -> None:
        """Draw these ``(start, end)`` column ranges of screen rows as search matches."""
        changed = {
            row
            for row in {*matches, *self.highlights}
            if matches.get(row) != self.highlights.get(row)
        }
        self.highlights = dict(matches)
        if changed:
            self.mark_dirty(changed)

    def _schedule(self) -> None:
        if self._timer is not None or not self.is_mounted:
            return
        paced = self.paced()
        model, session = self.session.model, self.session
        most = self._whole or 2 * len(self._pending) > model.rows
        frame = frame_interval(
            FRAME if paced else self.frame,
            most_rows=most,
            in_control=session.in_control,
            scrolled_past=most and scrolled_past(model, self._bottom),
            behind=session.behind,
        )
        delay = self._last_frame + frame - self.clock()
        if paced and delay <= 0:
            # A frame the peer paced, due now: drawn at once. A timer for it cost a task, two
            # sleeps and two posted callbacks: 200 a second for 40 tiles at 5 frames a second.
            self._flush()
            return
        self._timer = self.set_timer(max(0.001, delay), self._flush)

    def _flush(self) -> None:
        self._timer = None
        now = self.clock()
        model = self.session.model
        if model.synchronized:
            if self._sync_since is None:
                self._sync_since = now
            if now - self._sync_since < SYNC_TIMEOUT:
                self._timer = self.set_timer(FRAME, self._flush)
                return
        else:
            self._sync_since = None
        self._last_frame = now
        self.frames += 1
        self._bottom = (model, model.glyphs(model.rows - 1))
        self.scroll.follow(model.history)
        old = self._window_drawn
        self._window = None
        window = self._window_drawn = self._layout()
        cursor = (model.cursor_x, model.cursor_y, model.cursor_visible)
        if cursor != self._cursor:
            self._pending |= {self._cursor[1], cursor[1]}
            self._cursor = cursor
        if self._whole or old != window or self.scroll.scrolled:
            self.refresh()
        else:
            # Dirty rows are screen rows; the window counts lines of history + screen. Rows
            # one below the other are one region (each costs Textual's refresh and compositor).
            history, width = self._history, self.size.width
            shown = sorted(
                window.pad_top + history + row - window.first
                for row in self._pending
                if window.first <= history + row < window.first + window.count
            )
            regions = [Region(0, top, width, height) for top, height in row_runs(shown)]
            if regions:
                self.refresh(*regions)
        self._pending.clear()
        self._whole = False
        if self._crop != self._crop_told:
            self._crop_told = self._crop
            self.crop_changed()

    # -- geometry -------------------------------------------------------------------------------

    @property
    def _history(self) -> int:
        model = self.session.model
        return 0 if model.alternate else len(model.history)

    @property
    def geometry(self) -> Geometry:
        """Sizes, cursor and history length, as the window is worked out from them."""
        model = self.session.model
        return Geometry(
            cols=int(model.cols),
            rows=int(model.rows),
            cursor_x=int(model.cursor_x),
            cursor_y=int(model.cursor_y),
            history=self._history,
            width=self.size.width,
            height=self.size.height,
        )

    def rows_shown(self, cols: int, rows: int, cursor_x: int, cursor_y: int) -> range:
        """The rows this view shows of a screen of ``cols`` x ``rows`` with no history and the
        cursor at ``(cursor_x, cursor_y)`` (a tile's crop, for
        :meth:`~observer.client.watched.WatchedSession.show_rows`)."""
        size = self.size
        geometry = Geometry(cols, rows, cursor_x, cursor_y, 0, size.width, size.height)
        shown = window(geometry, self.scroll.top, self.scroll.left)
        return range(shown.first, shown.first + shown.count)

    def _layout(self) -> Window:
        geometry = self.geometry
        key = (id(self.session.model), geometry, self.scroll.top, self.scroll.left)
        if self._window is None or key != self._window_key:
            self._window = self.scroll.window(geometry)
            self._window_key = key
            self._crop = crop(geometry, self._window)
        return self._window

    def on_resize(self) -> None:
        self._window = None
        self._painted.fit(self.size.height)
        self._whole = True  # every row moves; the rows' strips stay valid
        self._schedule()

    def point_at(self, x: int, y: int, *, clamp: bool = False) -> Point | None:
        """The terminal cell under view cell ``(x, y)``; with ``clamp``, the nearest one."""
        window = self._window if self._window is not None else self._layout()
        index = y - window.pad_top
        rows = window.count
        if self.scroll.scrolled:
            rows = min(rows, self.size.height - 1)  # the bar's row shows no line
        if not 0 <= index < rows:
            if not clamp or rows <= 0:
                return None
            index = min(max(index, 0), rows - 1)
        return Point(window.first + index, max(0, x + window.left))

    def cells(self, line: int) -> Sequence[Cell]:
        """The cells of virtual line ``line`` (none outside the history and the screen)."""
        model = self.session.model
        history = self._history
        if 0 <= line < history:
            return model.history[line]
        if 0 <= line - history < model.rows:
            return model.line(line - history)
        return ()

    def screen_text(self) -> str:
        """The remote screen as text (trailing blanks dropped)."""
        history = self._history
        return line_text(self.cells, range(history, history + self.session.model.rows))

    def all_text(self) -> str:
        """The scrollback and the screen as text."""
        return line_text(self.cells, range(self._history + self.session.model.rows))

    # -- drawing --------------------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        """The rows in ``crop`` as :meth:`render_line` draws them, through the app's line
        filters, cropped. Textual's own path (its styles cache) adds nothing to a view without
        a border, padding, outline, tint, hatch or opacity, but cost as much again as drawing
        the rows (measured with 40 tiles); a view with any of those takes Textual's path."""
        styles = self.styles
        if (
            any(styles.gutter)
            or any(edge for edge, _ in styles.outline)
            or styles.tint.a
            or styles.text_opacity != 1.0
            or (styles.has_rule("hatch") and styles.hatch != "none")
            or self.opacity != 1.0
        ):
            return super().render_lines(crop)
        width = self.size.width  # a walk up the DOM: once, not per row
        filters = tuple(self.get_line_filters())
        if filters and self._background is None:  # background_colors walks every ancestor
            self._background = self.background_colors[1]
        background = self._background
        lines = [self._line(y, width, filters, background) for y in crop.line_range]
        left, right = crop.column_span
        if (left, right) != (0, width):
            lines = [line.crop(left, right) for line in lines]
        return lines

    def render_line(self, y: int) -> Strip:
        return self._line(y, self.size.width, (), None)

    def _line(
        self, y: int, width: int, filters: tuple[LineFilter, ...], background: Color | None
    ) -> Strip:
        """Row ``y`` of the view through ``filters`` (the app's line filters, on the
        ``background``). A screen row is filtered once per version, where it is kept: the
        truecolour filter went through every segment of every row drawn, each frame."""
        # The window of the last frame: rows are drawn where that frame's refresh expects them
        # (and working it out again for each of 40 rows is a measurable part of a frame).
        window = self._window if self._window is not None else self._layout()
        if self.scroll.scrolled and y == self.size.height - 1:
            bar = scrolled_bar(self.scroll.new_lines, width, edge_style(self.palette))
            return _filtered(bar, filters, background)
        index = y - window.pad_top
        if index < 0 or index >= window.count:
            return self._painted.outside(width, self._blank(), filters, background)
        line = window.first + index
        row, model = line - self._history, self.session.model
        cursor = model.cursor_x if row == model.cursor_y and model.cursor_visible else None
        looks = (
            self.palette,
            None if self.scroll.scrolled else cursor,
            self.highlights.get(row, ()),
        )
        strip = self._painted.placed(
            model, self._history, line, (window.left, width, self._blank()), looks,
            filters=filters, background=background,
        )  # fmt: skip
        span = self.selection.span(line) if self.selection is not None else None
        changed = False
        if span is not None:
            strip = strips.overlaid(
                strip, span[0] - window.left, span[1] - window.left, selected_style(self.palette)
            )
            changed = True
        point = self.marked_point()
        if point is not None and point.line == line:
            column = point.column - window.left
            strip = strips.overlaid(strip, column, column + 1, pointed_style(self.palette))
            changed = True
        if self.mark_edges and window.left >= 0 and self.session.model.cols > width:
            sides = strips.hidden_sides(self.cells(line), window.left, width)
            if any(sides):
                strip = strips.marked(
                    strip, sides, edge_style(self.palette), self._cursor_column(line, window)
                )
                changed = True
        # What was laid over the filtered row is filtered too (filters change a filtered
        # strip no further: its colours are truecolour already).
        return _filtered(strip, filters, background) if changed else strip

    def _cursor_column(self, line: int, window: Window) -> int | None:
        model = self.session.model
        if line - self._history != model.cursor_y or not model.cursor_visible:
            return None
        return model.cursor_x - window.left

    def _blank(self) -> Style:
        if self._blank_style is None:  # rich_style walks the CSS of every ancestor: once
            self._blank_style = Style(bgcolor=self.rich_style.bgcolor)
        return self._blank_style

    def marked_point(self) -> Point | None:
        """A cell drawn as :func:`pointed_style` (a view that selects with the keys says which)."""
        return None
