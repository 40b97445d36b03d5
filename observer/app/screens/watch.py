"""The watch screen: one session full size, its status bar, and the take/release/interrupt flow.

Every decision (whether control can be taken, what a key sends, when control is handed back, the
remote's size) is the session core's; this screen asks the user to confirm and shows what the
core derives.

Frame or full window: the terminal is framed (the frame's colour says watch or control) only
while watching, when the remote screen fits inside the frame, and unless ``f`` asked for the full
window. Otherwise the view takes every cell but the status line: a window one row taller than the
remote shows all of it, and in control the PTY follows the window, as ``tmux attach`` does. The
core is told the size the view has in control (the window less the status line) whenever the
window changes, so a takeover sends one resize.
"""

from __future__ import annotations

import time
import webbrowser
from collections.abc import Callable, Iterable
from typing import ClassVar

from textual import events
from textual.actions import SkipAction
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Container

from observer.app.links import Link, live_screen
from observer.app.rewind import RewindSource
from observer.app.rewind_view import RewindKeys
from observer.app.screens.confirm import ConfirmScreen
from observer.app.screens.people import PeopleScreen, ask_to_hand_over, people_commands
from observer.app.screens.view_commands import ViewCommands
from observer.app.urls import describe
from observer.app.widgets.status_bar import StatusBar
from observer.app.widgets.terminal_view import TerminalView
from observer.render.rich_cells import Palette

HINT_EVERY = 10.0
STATUS_ROWS = 1
FRAME_CELLS = 2
"""Columns (and rows) the frame takes around the terminal."""
PAN_COLUMNS = 8


class WatchScreen(RewindKeys):
    """Watches one session; ``ctrl+t`` then ``y`` takes control, ``ctrl+]`` hands it back;
    ``←`` rewinds it (:mod:`observer.app.rewind_view`)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+t", "take_control", "Take control"),
        Binding("ctrl+right_square_bracket", "release_control", "Release", show=False),
        Binding("ctrl+x", "interrupt", "Interrupt"),
        Binding("f", "full_window", "Full window"),
        Binding("shift+left", f"pan({-PAN_COLUMNS})", "Pan left", show=False),
        Binding("shift+right", f"pan({PAN_COLUMNS})", "Pan right", show=False),
        Binding("ctrl+c", "copy_selection", "Copy", show=False),
        Binding("v", "select_with_keys", "Select", show=False),
        Binding("p", "people", "Who is here", show=False),
        Binding("escape", "back", "Dashboard", show=False),
    ]
    COMMANDS: ClassVar = {ViewCommands}

    def __init__(self, link: Link, palette: Palette, *, can_go_back: bool = False) -> None:
        super().__init__()
        self.link = link
        self.session = link.session
        self.palette = palette
        self.can_go_back = can_go_back
        self.full_window = False
        """``f``: no frame even when the remote screen would fit inside one."""
        self.opener: Callable[[str], object] = webbrowser.open
        """Opens a confirmed link (run in a thread; a false result means it could not)."""
        self._last_hint = -HINT_EVERY
        self._reported: tuple[int, int] | None = None

    def _now(self) -> float:
        return float(getattr(self.app, "clock", time.monotonic)())

    @property
    def view(self) -> TerminalView:
        """The terminal widget."""
        return self.query_one(TerminalView)

    @property
    def control(self) -> bool:
        """Whether keys typed now go to the agent (the core's mode table says)."""
        return self.session.in_control

    def compose(self) -> ComposeResult:
        live = live_screen(self.session)
        kept = self.app.histories.get(self.link) if hasattr(self.app, "histories") else None
        if kept is not None:
            self.source = RewindSource(live, kept.history, lambda: self.session.model)
        view = TerminalView(self.source or live, self.palette, id="terminal")
        view.send_input = self._typed
        view.interactive = view.mark_edges = True
        # The frame is the container's border, not the view's: a view without one draws its
        # rows itself (``TerminalCanvas.render_lines``), not through Textual's styles cache.
        with Container(id="frame"):
            yield view
        bar = StatusBar(self.link, view, id="status")
        if self.source is not None:
            bar.rewind_label = self.source.label
        yield bar

    def on_mount(self) -> None:
        self.view.focus()
        self.session_changed(self.link)
        if self.can_go_back and hasattr(self.app, "back_at_desk"):  # a tile opened
            self.app.back_at_desk.opened(self.link, self._now())

    def on_screen_resume(self) -> None:
        self.view.mark_dirty(set(), whole=True)
        self._report_size()
        self.session_changed(self.link)
        asked = self.session.status(self._now()).asked_by
        if asked and self.app.screen is self:  # asked while this view was elsewhere
            self.ask_to_hand_over(*asked[0])

    def on_resize(self, event: events.Resize) -> None:
        self._report_size()
        self._fit()

    def session_changed(self, link: Link) -> None:
        """Show what changed: the mode, the frame, the status bar."""
        if link is not self.link or not self.is_mounted:
            return
        self.set_class(self.control, "-control")
        self._fit()
        for bar in self.query(StatusBar):  # none yet: a change can come before the screen composed
            bar.refresh()

    # -- frame, full window, crop -----------------------------------------------------------------

    def _report_size(self) -> None:
        """Tell the core the view's size in control: the window less the status line."""
        width, height = self.size
        size = (width, height - STATUS_ROWS)
        if width > 0 and height > STATUS_ROWS and size != self._reported:
            self._reported = size  # told once: a Resize can come twice for one change
            self.session.view_resized(*size, self._now())

    @property
    def framed(self) -> bool:
        """Whether the terminal is drawn in a frame now (see the module docstring)."""
        if self.full_window or self.control:
            return False
        model, (width, height) = self.session.model, self.size
        fits_across = width >= model.cols + FRAME_CELLS
        return fits_across and height >= model.rows + FRAME_CELLS + STATUS_ROWS

    def _fit(self) -> None:
        self.set_class(self.framed, "-framed")

    def action_full_window(self) -> None:
        """Full window on or off (off: framed again when the remote screen fits)."""
        self.full_window = not self.full_window
        self._fit()

    def action_pan(self, columns: int) -> None:
        """Pan across a remote screen wider than the view."""
        self.view.action_pan(columns)

    def on_terminal_view_crop_changed(self) -> None:
        self._fit()  # the remote was resized: the frame may fit now, or no longer
        self.query_one(StatusBar).refresh()

    def on_terminal_view_copy_mode_changed(self) -> None:
        self.query_one(StatusBar).refresh()

    # -- copy and links ---------------------------------------------------------------------------

    def view_commands(self) -> Iterable[SystemCommand]:
        """This screen's commands in the palette."""
        yield SystemCommand("Copy the screen", "The remote screen as text", self.action_copy_screen)
        yield SystemCommand(
            "Copy the scrollback", "The history and the screen as text", self.action_copy_all
        )
        yield SystemCommand(
            "Full window", "No frame around the terminal, on or off (f)", self.action_full_window
        )

    def action_select_with_keys(self) -> None:
        """Select with the keys: arrows move, ``space`` anchors, ``y`` copies, ``escape`` leaves."""
        self.view.action_select_with_keys()

    def action_copy_selection(self) -> None:
        """Copy what the mouse selected (``ctrl+c`` while watching; nothing selected: skip)."""
        if not self.view.copy_selection():
            raise SkipAction()

    def action_copy_screen(self) -> None:
        """Copy the remote screen as text."""
        self._copy(self.view.screen_text(), "the screen")

    def action_copy_all(self) -> None:
        """Copy the scrollback and the screen as text."""
        self._copy(self.view.all_text(), "the scrollback and the screen")

    def _copy(self, text: str, what: str) -> None:
        self.app.copy_to_clipboard(text)
        lines = text.count("\n") + 1 if text else 0
        self.notify(f"Copied {what}: {lines} lines.", title="Clipboard", markup=False)

    def on_terminal_view_copied(self, message: TerminalView.Copied) -> None:
        count = len(message.text)
        self.notify(f"Copied {count} characters.", title="Clipboard", markup=False, timeout=2)

    def on_terminal_view_link_clicked(self, message: TerminalView.LinkClicked) -> None:
        url = message.url

        def answered(yes: bool | None) -> None:
            if yes:
                self.run_worker(
                    lambda: self._open(url), thread=True, group="links", exit_on_error=False
                )

        self.app.push_screen(ConfirmScreen("Open this link?", describe(message.link)), answered)

    def _open(self, url: str) -> None:
        """Open ``url`` (in a worker thread: a browser may take its time to start)."""
        if not self.opener(url):
            self.app.call_from_thread(self._not_opened, url)

    def _not_opened(self, url: str) -> None:
        self.app.copy_to_clipboard(url)
        self.notify(
            "No browser could open it: the address was copied to the clipboard.",
            title="Link",
            severity="warning",
            markup=False,
        )

    # -- taking and releasing control -------------------------------------------------------------

    def _refuse(self, title: str) -> bool:
        status = self.session.status(self._now())
        if status.may_take:
            return False
        self.notify(status.cannot_take, title=title, severity="warning", markup=False)
        return True

    def action_take_control(self) -> None:
        """Ask for confirmation, then ask for the keyboard (its holder, if somebody has it; live
        first: never while rewound)."""
        self.back_to_live()
        if self.control or self._refuse("Cannot take control"):
            return
        status = self.session.status(self._now())
        question = "Take control of this agent?"
        detail = "Every key you press will go to the agent until you press ctrl+] to hand it back."
        if status.arbitration == "none":
            detail += " This peer does not arbitrate control: if it is read-only, it ignores you."
        elif status.holder == "other":
            holder = status.holder_label or "the holder"
            question = f"Ask {holder} for the keyboard?"
            detail = f"{holder} is asked; you watch until they hand it over."

        def answered(yes: bool | None) -> None:
            if yes:
                self.session.take(self._now())

        self.app.push_screen(ConfirmScreen(question, detail), answered)

    def ask_to_hand_over(self, asker: int, label: str) -> None:
        """``label`` asks for the keyboard we hold: y hands it over, n keeps it."""
        ask_to_hand_over(self.app, self.session, self._now, asker, label)

    def action_people(self) -> None:
        """Show who is watching this agent."""
        self.app.push_screen(PeopleScreen(self.session.presence))

    def people_commands(self) -> Iterable[SystemCommand]:
        """The palette's entries for who is here and handing the keyboard over."""
        return people_commands(self.session, self._now, self.action_people)

    def action_release_control(self) -> None:
        """Hand the keyboard back and watch again."""
        self.session.release(self._now())

    def action_interrupt(self) -> None:
        """Send one Ctrl-C after confirmation, without staying in control (live first)."""
        self.back_to_live()
        if not self.control and self._refuse("Cannot interrupt"):
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.session.interrupt(self._now())

        self.app.push_screen(ConfirmScreen("Send Ctrl-C to the agent?"), answered)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``escape`` goes back only to a dashboard this view was opened from: without one, the
        key is not this screen's (and the keys panel does not list it)."""
        return self.can_go_back if action == "back" else True

    def action_back(self) -> None:
        """Back to the dashboard (only when opened from it)."""
        if self.can_go_back:
            if hasattr(self.app, "back_at_desk"):
                self.app.back_at_desk.left(self.link, self._now())
            self.dismiss()

    # -- input --------------------------------------------------------------------------------

    async def on_terminal_view_input_typed(self, message: TerminalView.InputTyped) -> None:
        await self._typed(message.data)

    async def _typed(self, data: bytes) -> None:
        self.session.type(data, self._now())

    def on_terminal_view_release_requested(self) -> None:
        self.action_release_control()

    def on_terminal_view_ignored_input(self) -> None:
        now = self._now()
        if now - self._last_hint >= HINT_EVERY:
            self._last_hint = now
            self.notify("You are watching: press ctrl+t to take control.", markup=False)

    def on_terminal_view_paste_requested(self, message: TerminalView.PasteRequested) -> None:
        text = message.text
        lines = text.rstrip("\n").count("\n") + 1
        if lines == 1:
            self.session.paste(text, self._now())
            return
        preview = "\n".join(text.splitlines()[:5])

        def answered(yes: bool | None) -> None:
            if yes:
                self.session.paste(text, self._now())

        self.app.push_screen(
            ConfirmScreen(f"Paste {lines} lines into the agent?", preview), answered
        )
