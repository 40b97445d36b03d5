"""The status bar under a watched terminal: mode, crop, connection, agent state, endpoint, latency.

Everything it shows that came from the remote (endpoint label, identifier, title, people's
labels) is plain text built with :class:`rich.text.Text`, never markup. A click on it opens the
command palette, in control too, where every key goes to the agent: that is how a holder reaches
"Hand the keyboard to NAME". A window too narrow for the whole line keeps what
matters most (the ranks below), cuts the agent's own words short, and ends the line in ``…``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.text import Text
from textual import events
from textual.widget import Widget

from observer.app.links import Link, endpoint_said_once
from observer.app.widgets.one_line import Part, fit_parts
from observer.app.widgets.terminal_canvas import TerminalCanvas
from observer.app.widgets.terminal_view import TerminalView
from observer.client import state_words

REFRESH = 0.5
HOLDER_CELLS = 24
"""Cells who has the keyboard keeps in a narrow window (``alice has the keyboard``); a longer
name is cut there and gets the rest only where the hints fit."""

# What a window too narrow for the whole bar keeps, first to last (fit_parts): the mode, who holds
# the keyboard, the connection, the watchers and the title (16 cells of it) come before what the
# agent is doing, then how to take or hand back control, the rest of the title, the agent's own
# words (its question or prompt row, cut short first), the endpoint and the latency.
(
    MODE, HOLDER, CROP, CONNECTION, WATCHERS, TITLE_LEAST, AGENT, REC, HINT, TITLE, WORDS_LEAST,
    LABEL, WORDS, LATENCY,
) = range(14)  # fmt: skip


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
        self.rewind_label: Callable[[float], str] | None = None
        """How far back the view shows the session (``REWIND −2:35``; empty: live)."""

    def on_mount(self) -> None:
        self.set_interval(REFRESH, self.refresh)

    def on_click(self, event: events.Click) -> None:
        """Open the command palette (a mouse click is never the agent's, even in control)."""
        event.stop()
        self.app.action_command_palette()

    def render(self) -> Text:
        now = getattr(self.app, "clock", time.monotonic)()
        return fit_parts(self.parts(now), self.size.width)

    def describe(self, now: float) -> Text:
        """The bar's whole text at time ``now`` (before it is fitted to the width)."""
        return Text("", no_wrap=True, overflow="ellipsis", end="").join(
            part.text for part in self.parts(now)
        )

    def parts(self, now: float) -> list[Part]:
        """The bar's pieces at time ``now``, from the session core's status, each ranked by what
        a narrow window keeps (the ranks above)."""
        status = self.link.session.status(now)
        variables = self.app.theme_variables
        parts: list[Part] = []

        def add(text: str | Text, rank: int, style: str = "", **cut: int) -> None:
            piece = text if isinstance(text, Text) else Text(text, style, end="")
            parts.append(Part(piece, rank, **cut))

        if status.in_control:
            add(" CONTROL ", MODE, f"bold {variables['background']} on {variables['warning']}")
        else:
            add(" WATCH ", MODE, f"bold {variables['background']} on {variables['primary']}")
        copying = isinstance(self.view, TerminalView) and self.view.copy_mode is not None
        if copying:
            add(" COPY ", MODE, f"bold {variables['background']} on {variables['accent']}")
            add(" space marks · y copies · esc leaves ", HOLDER, "dim")  # how to get out
        rewound = self.rewind_label(now) if self.rewind_label is not None else ""
        if rewound:  # the view shows the past: said with the mode, and how to get back
            add(f" {rewound} ", MODE, f"bold {variables['background']} on {variables['error']}")
            add(" end: live ", HINT, "dim")
        warning = f"bold {variables['warning']}"
        elsewhere = status.holder == "other" and status.live
        if elsewhere or (status.in_control and status.asked_by):
            keyboard = f" {state_words.keyboard(status)} "
            add(keyboard, HINT, warning, shortest=HOLDER_CELLS, least=HOLDER)
            if elsewhere and status.may_take and not status.asking:
                add(" ctrl+t asks for it ", HINT, "dim")
        elif status.in_control:
            add(" ctrl+] hands back ", HINT, "dim")
        elif status.requesting:
            add(" asking for control… ", HOLDER, "dim")
        elif status.may_take and not copying:
            add(" ctrl+t takes control ", HINT, "dim")
        crop = self.view.crop if self.view is not None else None
        if crop is not None and crop.cropped:
            add(Text.assemble("│ ", (crop.describe(), f"bold {variables['warning']}"), " "), CROP)
        add("│ " + endpoint_said_once(state_words.connection(status), self.link.label), CONNECTION)
        state = state_words.agent_now(status)  # each fact once; nothing stale shown as current
        if state is not None:
            style = f"bold {variables['warning']}"
            needs = status.attention is not None or state.startswith("waiting")
            words = f": {status.attention.text}" if status.attention is not None else ""
            words = words if words != ": " and state.endswith(words) else ""
            said = state[: len(state) - len(words)]
            add(Text.assemble(" │ agent ", (said, style if needs else "")), AGENT)
            if words:
                add(words, WORDS, style, shortest=12, least=WORDS_LEAST, after=len(parts) - 1)
        if self.link.session.recorded:
            add(Text.assemble(" │ ", ("● REC", f"bold {variables['error']}")), REC)
        add(f" │ {self.link.label}", LABEL)
        connected = status.connection == "connected"  # else latency and watchers are stale
        if status.latency is not None and connected:
            ms = status.latency * 1000
            add(f" │ {ms:.1f} ms" if ms < 10 else f" │ {ms:.0f} ms", LATENCY)
        if status.watchers is not None and connected:
            add(f" │ {status.watchers} watching", WATCHERS)
        if status.title:
            add(
                Text.assemble(" │ ", (status.title, "italic")),
                TITLE,
                shortest=16,
                least=TITLE_LEAST,
            )
        return parts
