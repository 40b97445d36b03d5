"""The status bar under a watched terminal: mode, connection, endpoint, latency, agent state.

Everything it shows that came from the remote (endpoint label, identifier, title) is plain text
built with :class:`rich.text.Text`, never markup.
"""

from __future__ import annotations

import time

from rich.text import Text
from textual.widget import Widget

from observer.app.session import LiveSession

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

    def __init__(self, session: LiveSession, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = session
        self.control = False

    def on_mount(self) -> None:
        self.set_interval(REFRESH, self.refresh)

    def render(self) -> Text:
        return self.describe(getattr(self.app, "clock", time.monotonic)())

    def describe(self, now: float) -> Text:
        """The bar's text at time ``now``."""
        session = self.session
        variables = self.app.theme_variables
        text = Text(no_wrap=True, overflow="ellipsis")
        if self.control:
            text.append(" CONTROL ", f"bold {variables['background']} on {variables['warning']}")
        else:
            text.append(" WATCH ", f"bold {variables['background']} on {variables['primary']}")
        if session.holder == "other":
            text.append(" held by another client ", f"bold {variables['warning']}")
        elif not session.exited:
            text.append(" ctrl+] hands back " if self.control else " ctrl+t takes control ", "dim")
        # Most important first: a narrow window cuts the end of the line.
        text.append("│ ")
        text.append(self._connection(now))
        text.append(" │ agent ")
        state = session.status_line(now)
        text.append(state, f"bold {variables['warning']}" if state.startswith("waiting") else "")
        if session.source.recording:
            text.append(" │ ")
            text.append("● REC", f"bold {variables['error']}")
        text.append(" │ ")
        text.append(session.label)
        if session.latency is not None:
            milliseconds = session.latency * 1000
            text.append(
                f" │ {milliseconds:.1f} ms" if milliseconds < 10 else f" │ {milliseconds:.0f} ms"
            )
        text.append(f" │ {session.watchers} watching")
        if session.title:
            text.append(" │ ")
            text.append(session.title, "italic")
        return text

    def _connection(self, now: float) -> str:
        session = self.session
        if session.exited:
            return f"exited with status {session.exit_status}"
        if session.connection == "reconnecting":
            if session.retry_at is not None:
                return f"reconnecting in {max(0, round(session.retry_at - now))} s"
            return "reconnecting"
        if session.connection == "connected" and session.gaps:
            return f"connected (gap ×{session.gaps})"
        return session.connection
