"""A quick reply from the dashboard: one line (or a key) for an agent that waits.

``enter`` sends the line followed by Enter (an empty line: just Enter, which accepts an agent's
default choice); ``ctrl+s`` sends it as keys with no Enter (``1`` or ``y`` in a menu that reacts
to a key); ``escape`` cancels. The dialog names the agent and says what sending does, so its
``enter`` is the one confirmation: the session core then takes the keyboard, types, and hands it
back.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class ReplyScreen(ModalScreen[bytes | None]):
    """Asks for the reply; dismisses with the keys to send, or None."""

    DEFAULT_CSS = """
    ReplyScreen {
        align: center middle;
    }
    ReplyScreen > #dialog {
        width: 72;
        max-width: 100%;
        height: auto;
        border: round $warning;
        background: $surface;
        padding: 0 1;
    }
    ReplyScreen #hint {
        color: $text-muted;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "send_keys", "Send without Enter"),
    ]

    def __init__(self, name: str, asks: str) -> None:
        super().__init__()
        self.session_name, self.asks = name, asks

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            question = Text(f"Reply to {self.session_name}", style="bold")
            if self.asks:
                question.append(f" — {self.asks}", style="")
            yield Static(question, id="question")
            yield Input(placeholder="a line for the agent (empty: just Enter)", id="reply")
            yield Static(
                "enter: send + Enter · ctrl+s: send without Enter · escape: cancel\n"
                "observer takes control, types it, and hands control back",
                id="hint",
            )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.encode() + b"\r")

    def action_send_keys(self) -> None:
        """Send what was typed as keys, with no Enter after it."""
        value = self.query_one(Input).value
        if value:
            self.dismiss(value.encode())

    def action_cancel(self) -> None:
        """Send nothing."""
        self.dismiss(None)
