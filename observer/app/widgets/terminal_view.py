"""``TerminalView``: a terminal canvas that takes keys, pastes, the wheel and the mouse.

Keys go to the agent only while the source is in control (then every key does, except
``ctrl+]``); while watching they scroll the history (``shift+up``/``shift+down``, page keys,
``end`` back to live). The wheel scrolls, ``shift`` + wheel (or a sideways wheel) pans across a
cropped screen, in watch and in control alike: the mouse sends nothing to the agent.

With :attr:`TerminalView.interactive` (the watch screen's view), a drag selects cells; letting go
copies their text to the host's clipboard through the terminal (OSC 52, Textual's
``App.copy_to_clipboard``) and posts :class:`TerminalView.Copied`. While watching, the keys can
select too (:meth:`TerminalView.action_select_with_keys`, tmux's copy mode: arrows move, ``space``
anchors, ``y`` or ``enter`` copies, ``escape`` leaves). A click on a web link (an OSC 8
hyperlink or an address in the text, :func:`~observer.app.urls.url_at`) posts
:class:`TerminalView.LinkClicked`: the screen shows the target before anything opens it; a
link of another scheme is only shown.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message

from observer.app.urls import FoundLink, not_opened, url_at
from observer.app.widgets.key_selection import KeySelection
from observer.app.widgets.selection import Point, Selection
from observer.app.widgets.terminal_canvas import TerminalCanvas
from observer.terminal.keys import encode_key

RELEASE_KEY = "ctrl+right_square_bracket"
WHEEL_LINES = 3
WHEEL_COLUMNS = 8


class TerminalView(TerminalCanvas, can_focus=True):
    """Draws a source's terminal; sends keys only while it is in control."""

    # Textual selects characters of text widgets; this view selects cells itself (on_mouse_*).
    ALLOW_SELECT = False

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

    class Copied(Message):
        """A drag selected ``text``, and it was copied to the clipboard."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class LinkClicked(Message):
        """A click on a web link in the agent's text (the screen shows it before opening)."""

        def __init__(self, link: FoundLink) -> None:
            super().__init__()
            self.link = link
            self.url = link.target
            """What would open."""

    class CropChanged(Message):
        """What the view hides of the remote screen changed (:attr:`crop`)."""

    class CopyModeChanged(Message):
        """Copy mode started or ended (:attr:`copy_mode`): the status line says which."""

    send_input: Callable[[bytes], Awaitable[object]] | None = None
    """Where typed bytes go directly (the watch screen sets it); else ``InputTyped`` is posted.

    Sending from the key handler itself saves two trips through the message queues, each of
    which waits for a turn of the event loop behind the parsing of a flood.
    """
    interactive = False
    """Select and copy with the mouse, open links (the watch screen's view)."""
    _press: Point | None = None
    """Where the mouse button went down (a drag selects from there)."""
    _dragged = False
    _keys: KeySelection | None = None

    @property
    def copy_mode(self) -> KeySelection | None:
        """Selecting with the keys (None: the keys do what they always do)."""
        return self._keys

    @copy_mode.setter
    def copy_mode(self, keys: KeySelection | None) -> None:
        if (keys is None) != (self._keys is None):
            self.post_message(self.CopyModeChanged())
        self._keys = keys

    def marked_point(self) -> Point | None:
        """Copy mode's point: drawn unlike the agent's cursor, so the two are never confused."""
        return self._keys.point if self._keys is not None else None

    @property
    def control(self) -> bool:
        """Whether keys go to the agent now (derived from the source, never kept here)."""
        return self.session.in_control

    def crop_changed(self) -> None:
        self.post_message(self.CropChanged())

    # -- scrolling and panning ------------------------------------------------------------------

    def action_scroll_back(self, lines: int) -> None:
        """Scroll ``lines`` into the history (negative: towards live)."""
        self.scroll.scroll(lines, self.geometry, self.session.model.history)
        self.moved()

    def action_scroll_back_page(self, pages: int) -> None:
        """Scroll by a page."""
        self.action_scroll_back(pages * max(1, self.size.height - 2))

    def action_pan(self, columns: int) -> None:
        """Pan ``columns`` right (negative: left) across a screen wider than the view."""
        self.scroll.pan(columns, self.geometry)
        self.moved()

    def action_jump_to_live(self) -> None:
        """Back to the live screen, following the cursor."""
        self.scroll.live()
        self.moved()

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        if event.shift:
            self.action_pan(-WHEEL_COLUMNS)
        else:
            self.action_scroll_back(WHEEL_LINES)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        if event.shift:
            self.action_pan(WHEEL_COLUMNS)
        else:
            self.action_scroll_back(-WHEEL_LINES)

    def on_mouse_scroll_left(self, event: events.MouseScrollLeft) -> None:
        event.stop()
        self.action_pan(-WHEEL_COLUMNS)

    def on_mouse_scroll_right(self, event: events.MouseScrollRight) -> None:
        event.stop()
        self.action_pan(WHEEL_COLUMNS)

    # -- selecting, copying, links --------------------------------------------------------------

    def on_mouse_down(self, event: events.MouseDown) -> None:
        if not self.interactive or event.button != 1:
            return
        self.copy_mode = None
        self._press = self._cell_at(event)
        self._dragged = False
        self.select(None)
        if self._press is not None:
            self.capture_mouse()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if self._press is None:
            return
        point = self._cell_at(event, clamp=True)
        if point is not None and (self._dragged or point != self._press):
            self._dragged = True
            self.select(Selection(self._press, point))

    def on_mouse_up(self, event: events.MouseUp) -> None:
        if self._press is None:
            return
        self._press = None
        self.release_mouse()
        if self._dragged and self.selection is not None:
            self.copy_selection()

    def on_click(self, event: events.Click) -> None:
        if self.scroll.scrolled and event.y - self.gutter.top == self.size.height - 1:
            self.action_jump_to_live()
            return
        point = self._cell_at(event)
        if not self.interactive or self._dragged or point is None:
            return
        link = url_at(self.cells, point.line, point.column)
        if link is not None and link.opens:
            self.post_message(self.LinkClicked(link))
        elif link is not None:
            self.notify(not_opened(link), title="Link", severity="warning", markup=False)

    def _cell_at(self, event: events.MouseEvent, *, clamp: bool = False) -> Point | None:
        """The terminal cell under the mouse (its offset counts the frame; cells do not)."""
        gutter = self.gutter
        return self.point_at(event.x - gutter.left, event.y - gutter.top, clamp=clamp)

    def select(self, selection: Selection | None) -> None:
        """Show ``selection`` (None: no selection)."""
        if selection != self.selection:
            self.selection = selection
            self.moved()

    def copy_selection(self) -> bool:
        """Copy the selected text to the host's clipboard (False: nothing is selected)."""
        if self.selection is None:
            return False
        text = self.selection.text(self.cells)
        self.app.copy_to_clipboard(text)
        self.post_message(self.Copied(text))
        return True

    def action_select_with_keys(self) -> None:
        """Copy mode: a cell at the cursor (or the view's first) that the arrows move."""
        model, window = self.session.model, self._layout()
        line = self._history + model.cursor_y
        if not window.first <= line < window.first + window.count:
            line = window.first
        column = min(max(model.cursor_x, window.left, 0), max(0, window.left) + self.size.width - 1)
        self.copy_mode = KeySelection(Point(line, column))
        self.select(self.copy_mode.selection)

    def _copy_mode_key(self, key: str) -> bool:
        """Handle ``key`` in copy mode; False when it is not one of copy mode's."""
        keys = self.copy_mode
        if keys is None:
            return False
        if keys.move(key, self._history + self.session.model.rows, self.session.model.cols):
            self._show(keys.point)
        elif key in ("space", "v"):
            keys.anchor_here()
        elif key in ("y", "enter"):
            self.copy_selection()
            self.copy_mode = None
            return True
        elif key == "escape":
            self.copy_mode = None
            self.select(None)
            return True
        else:
            return False
        self.select(keys.selection)
        return True

    def _show(self, point: Point) -> None:
        """Scroll or pan so that ``point`` is in view."""
        window = self._layout()
        rows = min(window.count, self.size.height - (1 if self.scroll.scrolled else 0))
        if point.line < window.first:
            self.action_scroll_back(window.first - point.line)
        elif point.line >= window.first + rows:
            self.action_scroll_back(window.first + rows - 1 - point.line)
        left = max(0, window.left)
        if point.column < left:
            self.action_pan(point.column - left)
        elif point.column >= left + self.size.width:
            self.action_pan(point.column - left - self.size.width + 1)

    # -- input ----------------------------------------------------------------------------------

    async def on_key(self, event: events.Key) -> None:
        if not self.control:
            if self._copy_mode_key(event.key):
                event.stop()
                event.prevent_default()
            elif event.is_printable and event.key not in self.app.active_bindings:
                self.post_message(self.IgnoredInput())
            return
        self.copy_mode = None
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
        if self.scroll.scrolled or self.scroll.left is not None:
            self.action_jump_to_live()  # typing shows where the typing goes, as terminals do
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
