"""The question live rewind's ``/`` asks: what text to look for in the session so far."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class RewindSearchScreen(ModalScreen[str | None]):
    """Asks for the text; dismisses with it, or None."""

    DEFAULT_CSS = """
    RewindSearchScreen {
        align: center bottom;
    }
    RewindSearchScreen > #dialog {
        width: 72;
        max-width: 100%;
        height: auto;
        border: round $primary;
        background: $surface;
        padding: 0 1;
        margin-bottom: 1;
    }
    RewindSearchScreen #hint {
        color: $text-muted;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Input(placeholder="text that appeared on the screen", id="query")
            yield Static(
                "enter: the last time it appeared · then ctrl+up/ctrl+down: older/newer · escape",
                id="hint",
            )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value if event.value.strip() else None)

    def action_cancel(self) -> None:
        """Search for nothing."""
        self.dismiss(None)
