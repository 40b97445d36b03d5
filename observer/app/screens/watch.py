"""The watch screen: one session full size, its status bar, and the take/release/interrupt flow.

Every decision (whether control can be taken, what a key sends, when control is handed back) is
the session core's; this screen asks the user to confirm and shows what the core derives.
"""

from __future__ import annotations

import time
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen

from observer.app.links import Link
from observer.app.screens.confirm import ConfirmScreen
from observer.app.widgets.status_bar import StatusBar
from observer.app.widgets.terminal_view import TerminalView
from observer.rendering import Palette

HINT_EVERY = 10.0


class WatchScreen(Screen[None]):
    """Watches one session; ``ctrl+t`` then ``y`` takes control, ``ctrl+]`` hands it back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+t", "take_control", "Take control"),
        Binding("ctrl+right_square_bracket", "release_control", "Release", show=False),
        Binding("ctrl+x", "interrupt", "Interrupt"),
        Binding("escape", "back", "Dashboard", show=False),
    ]

    def __init__(self, link: Link, palette: Palette, *, can_go_back: bool = False) -> None:
        super().__init__()
        self.link = link
        self.session = link.session
        self.palette = palette
        self.can_go_back = can_go_back
        self._last_hint = -HINT_EVERY

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
        view = TerminalView(self.session, self.palette, id="terminal")
        view.send_input = self._typed
        view.resized_to = lambda cols, rows: self.session.view_resized(cols, rows, self._now())
        yield view
        yield StatusBar(self.link, id="status")

    def on_mount(self) -> None:
        self.view.focus()
        self.session_changed(self.link)

    def on_screen_resume(self) -> None:
        self.view.mark_dirty(set(), whole=True)
        self.session_changed(self.link)

    def session_changed(self, link: Link) -> None:
        """Show what changed: the mode, the border colour, the status bar."""
        if link is not self.link or not self.is_mounted:
            return
        self.set_class(self.control, "-control")
        self.query_one(StatusBar).refresh()

    # -- taking and releasing control -------------------------------------------------------------

    def _refuse(self, title: str) -> bool:
        status = self.session.status(self._now())
        if status.may_take:
            return False
        self.notify(status.cannot_take, title=title, severity="warning", markup=False)
        return True

    def action_take_control(self) -> None:
        """Ask for confirmation, then ask for the keyboard."""
        if self.control or self._refuse("Cannot take control"):
            return
        detail = "Every key you press will go to the agent until you press ctrl+] to hand it back."
        if self.session.status(self._now()).arbitration == "none":
            detail += " This peer does not arbitrate control: if it is read-only, it ignores you."

        def answered(yes: bool | None) -> None:
            if yes:
                self.session.take(self._now())

        self.app.push_screen(ConfirmScreen("Take control of this agent?", detail), answered)

    def action_release_control(self) -> None:
        """Hand the keyboard back and watch again."""
        self.session.release(self._now())

    def action_interrupt(self) -> None:
        """Send one Ctrl-C after confirmation, without staying in control."""
        if not self.control and self._refuse("Cannot interrupt"):
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.session.interrupt(self._now())

        self.app.push_screen(ConfirmScreen("Send Ctrl-C to the agent?"), answered)

    def action_back(self) -> None:
        """Back to the dashboard (only when opened from it)."""
        if self.can_go_back:
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
