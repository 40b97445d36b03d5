"""The status bar under a watched terminal: mode, crop, connection, agent state, endpoint, latency.

Everything it shows that came from the remote (endpoint label, identifier, title) is plain text
built with :class:`rich.text.Text`, never markup. The most important comes first, and a window too
narrow for the rest ends the line in ``…``.
"""

from __future__ import annotations

import time

from rich.text import Text
from textual.widget import Widget

from observer.app.links import Link, endpoint_said_once
from observer.app.widgets.one_line import fit_line
from observer.app.widgets.terminal_canvas import TerminalCanvas
from observer.client import state_words

REFRESH = 0.5


class StatusBar(Widget):
    """One line of state for one session; ``WATCH`` or ``CONTROL`` is always first."""

    DEFAULT_CSS = """
    StatusBar {
        height: 1;
        dock: bottom;
        background: $panel;
        color: $foreground;
    }
    """

    def __init__(
        self, link: Link, view: TerminalCanvas | None = None, *, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.link = link
        self.view = view
        """The view whose crop the bar shows (what it hides is the view's, not the session's)."""

    def on_mount(self) -> None:
        self.set_interval(REFRESH, self.refresh)

    def render(self) -> Text:
        return fit_line(
            self.describe(getattr(self.app, "clock", time.monotonic)()), self.size.width
        )

    def describe(self, now: float) -> Text:
        """The bar's text at time ``now``: everything from the session core's status."""
        status = self.link.session.status(now)
        variables = self.app.theme_variables
        text = Text(no_wrap=True, overflow="ellipsis", end="")
        if status.in_control:
            text.append(" CONTROL ", f"bold {variables['background']} on {variables['warning']}")
        else:
            text.append(" WATCH ", f"bold {variables['background']} on {variables['primary']}")
        if status.holder == "other" and status.live:
            text.append(" held by another client ", f"bold {variables['warning']}")
        elif status.in_control:
            text.append(" ctrl+] hands back ", "dim")
        elif status.requesting:
            text.append(" asking for control… ", "dim")
        elif status.may_take:
            text.append(" ctrl+t takes control ", "dim")
        crop = self.view.crop if self.view is not None else None
        if crop is not None and crop.cropped:
            text.append("│ ")
            text.append(crop.describe(), f"bold {variables['warning']}")
            text.append(" ")
        # Most important first: a narrow window cuts the end of the line.
        text.append("│ ")
        text.append(endpoint_said_once(state_words.connection(status), self.link.label))
        state = state_words.agent_now(status)  # each fact once; nothing stale shown as current
        if state is not None:
            text.append(" │ agent ")
            needs = status.attention is not None or state.startswith("waiting")
            text.append(state, f"bold {variables['warning']}" if needs else "")
        if self.link.session.recorded:
            text.append(" │ ")
            text.append("● REC", f"bold {variables['error']}")
        text.append(" │ ")
        text.append(self.link.label)
        connected = status.connection == "connected"  # else latency and watchers are stale
        if status.latency is not None and connected:
            milliseconds = status.latency * 1000
            text.append(
                f" │ {milliseconds:.1f} ms" if milliseconds < 10 else f" │ {milliseconds:.0f} ms"
            )
        if status.watchers is not None and connected:
            text.append(f" │ {status.watchers} watching")
        if status.title:
            text.append(" │ ")
            text.append(status.title, "italic")
        return text
