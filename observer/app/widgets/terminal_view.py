"""``TerminalView``: the remote screen, drawn with the line API.

Modelled on Textual's ``Log`` widget: ``render_line`` returns cached :class:`Strip` s keyed by
(row, row version, cursor column, palette); only rows the model reports dirty are refreshed, at
most ~60 times a second, and never while the remote holds a synchronized update open (DECSET 2026,
up to :data:`SYNC_TIMEOUT`). The remote size is authoritative: a smaller view crops and follows the
cursor, a larger one centres the screen. Scrollback can be browsed while output continues; the
bottom line then says how many new lines arrived and how to jump back to live.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import ClassVar, Protocol

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from observer.app.widgets.viewport import Geometry, Window, clamp_back
from observer.app.widgets.viewport import window as window_for
from observer.rendering import Palette, cells_to_segments
from observer.terminal import Cell, TerminalModel
from observer.terminal.keys import encode_key

FRAME = 1 / 60
FRAME_BEHIND = 1 / 20
"""Frame interval while the session has output waiting: each frame of a flood repaints every
row, and the time saved goes to parsing (the view then catches up sooner)."""
SYNC_TIMEOUT = 0.15
RELEASE_KEY = "ctrl+right_square_bracket"

Listener = Callable[[set[int], bool], None]


class ScreenSource(Protocol):
    """What a view draws: a live session's core, or a replay's model."""

    @property
    def model(self) -> TerminalModel:
        """The terminal to draw."""
        ...

    @property
    def behind(self) -> bool:
        """Output is waiting to be parsed: draw fewer frames."""
        ...

    @property
    def in_control(self) -> bool:
        """Keys typed go to the agent."""
        ...

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(dirty_rows, whole)`` after each change."""
        ...

    def unsubscribe(self, listener: Listener) -> None:
        """Stop calling ``listener``."""
        ...


class TerminalView(Widget, can_focus=True):
    """Draws a :class:`ScreenSource`'s terminal; sends keys only while it is in control."""

    DEFAULT_CSS = """
    TerminalView {
        width: 1fr;
        height: 1fr;
        background: $surface;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("shift+up", "scroll_back(1)", "Scroll up", show=False),
        Binding("shift+down", "scroll_back(-1)", "Scroll down", show=False),
        Binding("pageup,shift+pageup", "scroll_back_page(1)", "Page up", show=False),
        Binding("pagedown,shift+pagedown", "scroll_back_page(-1)", "Page down", show=False),
        Binding("end", "jump_to_live", "Live", show=False),
    ]

    class InputTyped(Message):
        """Bytes to send to the agent (only posted in control mode)."""

        def __init__(self, data: bytes) -> None:
            super().__init__()
            self.data = data

    class PasteRequested(Message):
        """Text pasted in control mode (the screen confirms multi-line pastes)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class ReleaseRequested(Message):
        """``ctrl+]`` in control mode."""

    class IgnoredInput(Message):
        """Something was typed or pasted while watching (not sent anywhere)."""

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
        self.back = 0
        self.new_lines = 0
        self.frames = 0
        self.send_input: Callable[[bytes], Awaitable[object]] | None = None
        """Where typed bytes go directly (the watch screen sets it); else ``InputTyped`` is posted.

        Sending from the key handler itself saves two trips through the message queues, each of
        which waits for a turn of the event loop behind the parsing of a flood.
        """
        self.resized_to: Callable[[int, int], object] | None = None
        """Told the view's size in cells whenever it changes (the watch screen sets it: the PTY
        follows the controller's window)."""
        self.clock: Callable[[], float] = time.monotonic
        """Monotonic seconds for frame pacing and the synchronized-update timeout."""
        self._cache: LRUCache[tuple[object, ...], Strip] = LRUCache(1024)
        self._versions: dict[int, int] = {}
        self._epoch = 0
        self._pending: set[int] = set()
        self._whole = False
        self._timer: Timer | None = None
        self._last_frame = 0.0
        self._sync_since: float | None = None
        self._window: Window | None = None
        self._window_key: tuple[object, ...] = ()
        self._cursor: tuple[int, int, bool] = (-1, -1, False)
        self._history_len = 0
        self._anchor: Sequence[Cell] | None = None
        """The newest scrollback row when last drawn scrolled back (to count rows added)."""
        self.highlights: Mapping[int, tuple[tuple[int, int], ...]] = {}
        """Column ranges of screen rows drawn as search matches (see :meth:`highlight`)."""

    @property
    def control(self) -> bool:
        """Whether keys go to the agent now (derived from the source, never kept here)."""
        return self.session.in_control

    # -- wiring ---------------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.session.subscribe(self.mark_dirty)
        self._history_len = len(self.session.model.history)

    def on_unmount(self) -> None:
        self.session.unsubscribe(self.mark_dirty)

    def set_palette(self, palette: Palette) -> None:
        """Redraw everything in other colours."""
        self.palette = palette
        self._cache.clear()
        self.refresh()

    def mark_dirty(self, rows: set[int], whole: bool = False) -> None:
        """Note changed rows; they are repainted at the next frame."""
        if whole:
            self._whole = True
            self._epoch += 1
        for row in rows:
            self._versions[row] = self._versions.get(row, 0) + 1
        self._pending |= rows
        self._schedule()

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
        frame = FRAME_BEHIND if self.session.behind else FRAME
        delay = max(0.001, self._last_frame + frame - self.clock())
        self._timer = self.set_timer(delay, self._flush)

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
        self._follow_history()
        old = self._window
        self._window = None
        window = self._layout()
        cursor = (model.cursor_x, model.cursor_y, model.cursor_visible)
        if cursor != self._cursor:
            self._pending |= {self._cursor[1], cursor[1]}
            self._cursor = cursor
        if self._whole or old != window or self.back:
            self.refresh()
        else:
            # Dirty rows are screen rows; the window counts lines of history + screen.
            history = self._history
            regions = [
                Region(0, window.pad_top + history + row - window.first, self.size.width, 1)
                for row in self._pending
                if window.first <= history + row < window.first + window.count
            ]
            if regions:
                self.refresh(*regions)
        self._pending.clear()
        self._whole = False

    def _follow_history(self) -> None:
        """While scrolled back, keep the same lines on screen as new ones arrive."""
        history = self.session.model.history
        length = len(history)
        grown = max(0, length - self._history_len)
        if self.back and self._anchor:
            # Once the scrollback is full it stops growing (the oldest rows leave as new ones
            # come): count the rows that entered after the last ones seen instead.
            grown = _rows_after(history, self._anchor, grown)
        self._history_len = length
        self._remember_anchor()
        if self.back and grown:
            self.back += grown
            self.new_lines += grown

    def _remember_anchor(self) -> None:
        history = self.session.model.history
        self._anchor = history[-1] if self.back and len(history) else None

    # -- geometry ---------------------------------------------------------------------------------

    @property
    def _history(self) -> int:
        model = self.session.model
        return 0 if model.alternate else len(model.history)

    def _layout(self) -> Window:
        model = self.session.model
        geometry = Geometry(
            cols=int(model.cols),
            rows=int(model.rows),
            cursor_x=int(model.cursor_x),
            cursor_y=int(model.cursor_y),
            history=self._history,
            width=self.size.width,
            height=self.size.height,
        )
        self.back = clamp_back(geometry, self.back)
        key = (id(model), geometry, self.back)
        if self._window is None or key != self._window_key:
            self._window_key = key
            self._window = window_for(geometry, self.back)
        return self._window

    def on_resize(self, event: events.Resize) -> None:
        self._window = None
        self.refresh()
        width, height = self.size  # the content area: the event's size includes the border
        if self.resized_to is not None and width > 0 and height > 0:
            self.resized_to(width, height)

    # -- drawing ----------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        # The window of the last frame: rows are drawn where that frame's refresh expects them
        # (and working it out again for each of 40 rows is a measurable part of a frame).
        window = self._window if self._window is not None else self._layout()
        if self.back and y == self.size.height - 1:
            return self._indicator(width)
        index = y - window.pad_top
        if index < 0 or index >= window.count:
            return Strip.blank(width, self._blank())
        strip = self._line(window.first + index)
        if window.left < 0:
            blank = self._blank()
            pad = -window.left
            return Strip.join(
                [
                    Strip.blank(pad, blank),
                    strip,
                    Strip.blank(max(0, width - pad - strip.cell_length), blank),
                ]
            )
        return strip.crop(window.left, window.left + width)

    def _blank(self) -> Style:
        return Style(bgcolor=self.rich_style.bgcolor)

    def _line(self, virtual: int) -> Strip:
        model = self.session.model
        history = self._history
        if virtual < history:
            cells = model.history[virtual]
            return Strip(cells_to_segments(cells, self.palette), len(cells))
        row = virtual - history
        if not 0 <= row < model.rows:
            return Strip.blank(model.cols)
        cursor = (
            model.cursor_x
            if (model.cursor_visible and row == model.cursor_y and not self.back)
            else None
        )
        key = (self._epoch, row, self._versions.get(row, 0), cursor, self.palette, model.cols)
        strip = self._cache.get(key)
        if strip is None:
            cells = model.line(row)
            matches = self.highlights.get(row, ())  # a change of them bumps the row's version
            strip = Strip(cells_to_segments(cells, self.palette, cursor, matches), model.cols)
            self._cache[key] = strip
        return strip

    def _indicator(self, width: int) -> Strip:
        text = (
            f" ↓ {self.new_lines} new lines — jump to live (end) "
            if self.new_lines
            else (" ↓ scrolled back — jump to live (end) ")
        )
        style = Style(color=self.palette.background, bgcolor=self.palette.ansi[11], bold=True)
        return Strip([Segment(text.center(width)[:width], style)], width)

    # -- scrolling ---------------------------------------------------------------------------------

    def action_scroll_back(self, lines: int) -> None:
        """Scroll ``lines`` into the history (negative: towards live)."""
        before = self.back
        self.back = max(0, self.back + lines)
        if before == 0 and self.back:
            self.new_lines = 0
            self._history_len = len(self.session.model.history)
            self._remember_anchor()
        self._window = None
        self.refresh()

    def action_scroll_back_page(self, pages: int) -> None:
        """Scroll by a page."""
        self.action_scroll_back(pages * max(1, self.size.height - 2))

    def action_jump_to_live(self) -> None:
        """Back to the live screen."""
        self.back = 0
        self.new_lines = 0
        self._window = None
        self.refresh()

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.action_scroll_back(3)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.action_scroll_back(-3)

    def on_click(self, event: events.Click) -> None:
        if self.back and event.y == self.size.height - 1:
            self.action_jump_to_live()

    # -- input -------------------------------------------------------------------------------------

    async def on_key(self, event: events.Key) -> None:
        if not self.control:
            if event.is_printable:
                self.post_message(self.IgnoredInput())
            return
        event.stop()
        event.prevent_default()
        if event.key == RELEASE_KEY:
            self.post_message(self.ReleaseRequested())
            return
        data: bytes | None
        if event.is_printable and event.character:
            data = event.character.encode()
        else:
            data = encode_key(event.key, application_cursor=self.session.model.application_cursor)
        if not data:
            return
        if self.send_input is not None:
            await self.send_input(data)
        else:
            self.post_message(self.InputTyped(data))

    def on_paste(self, event: events.Paste) -> None:
        event.stop()
        if self.control:
            self.post_message(self.PasteRequested(event.text))
        else:
            self.post_message(self.IgnoredInput())


def _rows_after(history: Sequence[Sequence[Cell]], anchor: Sequence[Cell], at_least: int) -> int:
    """How many rows follow ``anchor`` (searched from the newest, skipping ``at_least``).

    Equal rows are told apart only by position, so a repeated line can make this count short;
    if the anchor left the scrollback, every row in it is new.
    """
    length = len(history)
    for after in range(at_least, length):
        if history[length - 1 - after] == anchor:
            return after
    return length
