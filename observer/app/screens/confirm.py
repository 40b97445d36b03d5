"""A yes/no question in a small modal; ``y``/``enter`` say yes, ``n``/``escape`` say no.

The dialog fits any window: it is never wider or taller than the screen, the Yes/No buttons stay
on its last line, and a detail longer than the room left (a paste preview in a 10-row terminal)
scrolls between the question and the buttons instead of pushing them off the screen.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Resize
from textual.screen import ModalScreen
from textual.widgets import Button, Static

#: Rows the dialog needs besides its scrolling body: the border (2) and the buttons (1).
_FRAME_ROWS = 3


class ConfirmScreen(ModalScreen[bool]):
    """Asks one question; dismisses with True or False."""

    DEFAULT_CSS = """
    ConfirmScreen {
        align: center middle;
    }
    ConfirmScreen > #dialog {
        width: 64;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round $warning;
        background: $surface;
        padding: 0 1;
    }
    ConfirmScreen #body {
        height: auto;
        scrollbar-size-vertical: 1;
    }
    ConfirmScreen.-tall #body {
        padding: 1 1 0 1;
    }
    ConfirmScreen #detail {
        color: $text-muted;
        margin-top: 1;
    }
    ConfirmScreen #buttons {
        height: 1;
        align-horizontal: right;
    }
    ConfirmScreen.-tall #buttons {
        margin-top: 1;
    }
    ConfirmScreen #buttons Button {
        width: auto;
        min-width: 0;
        margin-left: 1;
    }
    """

    #: Below 16 rows the dialog drops its inner padding: every row goes to the text. (Textual
    #: declares this ``ClassVar[...] | None``, which mypy reads as an instance variable.)
    VERTICAL_BREAKPOINTS = [(0, "-short"), (16, "-tall")]  # noqa: RUF012
    AUTO_FOCUS = "#yes"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, detail: str = "") -> None:
        super().__init__()
        self.question = question
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            with VerticalScroll(id="body"):
                yield Static(Text(self.question, style="bold"), id="question")
                if self.detail:
                    yield Static(Text(self.detail), id="detail")
            with Horizontal(id="buttons"):
                yield Button("Yes (y)", id="yes", variant="warning", compact=True)
                yield Button("No (n)", id="no", compact=True)

    def on_resize(self, event: Resize) -> None:
        """Give the body the rows the buttons and the border leave, so they stay on screen."""
        extra = 1 if self.has_class("-tall") else 0  # the buttons' top margin
        body = self.query_one("#body")
        body.styles.max_height = max(1, event.size.height - _FRAME_ROWS - extra)

    @on(Button.Pressed, "#yes")
    def _yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#no")
    def _no(self) -> None:
        self.dismiss(False)

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)
