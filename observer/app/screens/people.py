"""Who is here, and handing the keyboard over: a small list, the holder's question, the palette.

The watch screen shows :class:`PeopleScreen` (``p``, or the palette's "Who is here"): one line
per connection, from the session core's :class:`~observer.client.people.Presence`. When somebody
asks for the keyboard this app holds, :func:`ask_to_hand_over` asks the user (``y`` hands it
over, ``n`` keeps it). Labels are the peer's text, cleaned by the protocol's decoder and shown as
:class:`~rich.text.Text`, never markup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from observer.app.screens.confirm import ConfirmScreen
from observer.client.people import Presence, describe
from observer.client.watched import WatchedSession


class PeopleScreen(ModalScreen[None]):
    """Who is connected to the session; any key in the bindings closes it."""

    DEFAULT_CSS = """
    PeopleScreen {
        align: center middle;
    }
    PeopleScreen > #people {
        width: 64;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round $primary;
        background: $surface;
        padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,p,q", "close", "Close")]

    def __init__(self, presence: Presence | None) -> None:
        super().__init__()
        self.presence = presence

    def compose(self) -> ComposeResult:
        with Vertical(id="people"):
            yield Static(Text("Who is here", style="bold"))
            if self.presence is None:
                yield Static(Text("This endpoint does not say who is connected."))
                return
            for line in describe(self.presence):
                yield Static(Text(line), classes="person")

    def action_close(self) -> None:
        """Close the list."""
        self.dismiss(None)


def ask_to_hand_over(
    app: App[object], session: WatchedSession, now: Callable[[], float], asker: int, label: str
) -> None:
    """Ask the user whether ``label`` (connection ``asker``) gets the keyboard."""

    def answered(yes: bool | None) -> None:
        status = session.status(now())
        if asker not in (number for number, _ in status.asked_by):
            app.notify(f"{label} no longer asks for the keyboard.", markup=False)
        elif yes:
            session.hand_over(asker, now())
        else:
            session.decline(asker, now())

    detail = "y hands it over: you watch from then on. n keeps it, and they are told."
    app.push_screen(ConfirmScreen(f"{label} asks for the keyboard", detail), answered)


def people_commands(
    session: WatchedSession, now: Callable[[], float], show: Callable[[], object]
) -> Iterable[SystemCommand]:
    """The palette's entries, where the peer says who is connected: who is here; while we hold
    the keyboard, one per person whose token may take it: hand it to them."""
    presence = session.presence
    if presence is None:
        return
    yield SystemCommand("Who is here", "Everybody watching this agent (p)", show)
    if not session.in_control:
        return
    for person in presence.others():
        if person.role == "control":
            yield SystemCommand(
                f"Hand the keyboard to {person.label}",
                "They type from now on; you watch",
                lambda to=person.id: session.hand_over(to, now()),
            )
