"""The watch screen: one session full size, its status bar, and the take/release/interrupt flow."""

from __future__ import annotations

import time
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen

from observer.app.screens.confirm import ConfirmScreen
from observer.app.session import LiveSession
from observer.app.widgets.status_bar import StatusBar
from observer.app.widgets.terminal_view import TerminalView
from observer.rendering import Palette
from observer.terminal.keys import encode_paste

CTRL_C = b"\x03"
HINT_EVERY = 10.0


class WatchScreen(Screen[None]):
    """Watches one session; ``ctrl+t`` then ``y`` takes control, ``ctrl+]`` hands it back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+t", "take_control", "Take control"),
        Binding("ctrl+right_square_bracket", "release_control", "Release", show=False),
        Binding("ctrl+x", "interrupt", "Interrupt"),
        Binding("escape", "back", "Dashboard", show=False),
    ]

    def __init__(
        self, session: LiveSession, palette: Palette, *, can_go_back: bool = False
    ) -> None:
        super().__init__()
        self.session = session
        self.palette = palette
        self.can_go_back = can_go_back
        self.interrupt_pending = False
        self.last_input = 0.0
        self._last_hint = -HINT_EVERY

    def _now(self) -> float:
        return float(getattr(self.app, "clock", time.monotonic)())

    @property
    def view(self) -> TerminalView:
        """The terminal widget."""
        return self.query_one(TerminalView)

    @property
    def control(self) -> bool:
        """Whether this client holds the keyboard now (as the endpoint told us)."""
        return self.session.holder == "you"

    def compose(self) -> ComposeResult:
        view = TerminalView(self.session, self.palette, id="terminal")
        view.send_input = self._typed
        yield view
        yield StatusBar(self.session, id="status")

    def on_mount(self) -> None:
        self.view.focus()
        self.set_interval(1.0, self.release_if_idle)
        self.sync_control()

    def on_screen_resume(self) -> None:
        self.view.mark_dirty(set(), whole=True)
        self.sync_control()

    def sync_control(self) -> None:
        """Follow the session's holder: mode shown, border colour, whether keys are sent."""
        control = self.control
        if control and not self.view.control:
            self.last_input = self._now()
        self.view.control = control
        bar = self.query_one(StatusBar)
        bar.control = control
        bar.refresh()
        self.set_class(control, "-control")
        if control and self.interrupt_pending:
            self.interrupt_pending = False
            self.run_worker(self._send_interrupt_and_release())

    async def _send_interrupt_and_release(self) -> None:
        await self.session.source.send_input(CTRL_C)
        await self.session.source.release_control()
        self.notify("Sent Ctrl-C to the agent")

    # -- taking and releasing control -------------------------------------------------------------

    def _cannot_take(self) -> str | None:
        session = self.session
        if session.exited:
            return "The agent has exited; there is nothing to type into."
        if not session.source.capabilities.control:
            return "This connection is watch-only."
        if session.holder == "other":
            return (
                "Another client holds control of this session. You can take it once they "
                "hand it back (ctrl+] on their side)."
            )
        return None

    def action_take_control(self) -> None:
        """Ask for confirmation, then ask the endpoint for the keyboard."""
        if self.control:
            return
        reason = self._cannot_take()
        if reason:
            self.notify(reason, title="Cannot take control", severity="warning", markup=False)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.run_worker(self.session.source.request_control())

        self.app.push_screen(
            ConfirmScreen(
                "Take control of this agent?",
                "Every key you press will go to the agent until you press ctrl+] to hand it back.",
            ),
            answered,
        )

    async def action_release_control(self) -> None:
        """Hand the keyboard back and watch again."""
        if self.control:
            await self.session.source.release_control()

    def action_interrupt(self) -> None:
        """Send one Ctrl-C after confirmation, without staying in control."""
        reason = None if self.control else self._cannot_take()
        if reason:
            self.notify(reason, title="Cannot interrupt", severity="warning", markup=False)
            return

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            if self.control:
                self.run_worker(self.session.source.send_input(CTRL_C))
            else:
                self.interrupt_pending = True
                self.run_worker(self.session.source.request_control())

        self.app.push_screen(ConfirmScreen("Send Ctrl-C to the agent?"), answered)

    def action_back(self) -> None:
        """Back to the dashboard (only when opened from it)."""
        if self.can_go_back:
            self.dismiss()

    # -- input --------------------------------------------------------------------------------

    async def on_terminal_view_input_typed(self, message: TerminalView.InputTyped) -> None:
        await self._typed(message.data)

    async def _typed(self, data: bytes) -> None:
        if self.control:
            self.last_input = self._now()
            await self.session.source.send_input(data)

    async def on_terminal_view_release_requested(self) -> None:
        await self.action_release_control()

    def on_terminal_view_ignored_input(self) -> None:
        now = self._now()
        if now - self._last_hint >= HINT_EVERY:
            self._last_hint = now
            self.notify("You are watching: press ctrl+t to take control.", markup=False)

    def on_terminal_view_paste_requested(self, message: TerminalView.PasteRequested) -> None:
        text = message.text
        lines = text.rstrip("\n").count("\n") + 1
        if lines == 1:
            self.run_worker(self._paste(text))
            return
        preview = "\n".join(text.splitlines()[:5])

        def answered(yes: bool | None) -> None:
            if yes:
                self.run_worker(self._paste(text))

        self.app.push_screen(
            ConfirmScreen(f"Paste {lines} lines into the agent?", preview), answered
        )

    async def _paste(self, text: str) -> None:
        if self.control:
            self.last_input = self._now()
            data = encode_paste(text, bracketed=self.session.model.bracketed_paste)
            await self.session.source.send_input(data)

    async def release_if_idle(self) -> None:
        """Hand control back after the app's ``idle_release`` seconds without typing."""
        idle_release = getattr(self.app, "idle_release", 300.0)
        if self.control and self._now() - self.last_input >= idle_release:
            await self.session.source.release_control()
            self.notify(
                f"Back to watching after {idle_release:.0f} s without typing.", markup=False
            )
