"""Back at the desk: one line of what happened while the user did not look, and that ``←`` shows it.

"Did not look" is either the whole app out of focus (the terminal reports it: Textual's
``AppBlur``/``AppFocus``, xterm's focus events, mode 1004), or one session's full view closed (a
dashboard tile, opened again). Coming back says, for the sessions in front, what
:class:`~observer.client.happenings.Happenings` noted meanwhile
(:func:`~observer.client.happenings.while_away`): time away, notifications, who took the
keyboard, outages, exits. A glance away shorter than :data:`AWAY_AT_LEAST` says nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from observer.app.links import Link
from observer.app.rewind import SessionHistories
from observer.client.happenings import while_away

AWAY_AT_LEAST = 30.0
"""Seconds away before coming back is worth a line."""


class BackAtDesk:
    """Tells the user what happened while they were away (see the module docstring).

    Args:
        histories: Each session's history and what happened to it.
        say: Shows the line (a notification of the app).
    """

    def __init__(self, histories: SessionHistories, say: Callable[[str], object]) -> None:
        self.histories, self.say = histories, say
        self._blurred: float | None = None
        self._left: dict[int, float] = {}

    def blurred(self, now: float) -> None:
        """The app lost the focus (the user looks elsewhere)."""
        if self._blurred is None:
            self._blurred = now

    def focused(self, links: Sequence[Link], now: float) -> str:
        """The app has the focus again, showing ``links``: say what happened since it lost it."""
        since, self._blurred = self._blurred, None
        if since is None:
            return ""
        return self._tell(links, since, now)

    def left(self, link: Link, now: float) -> None:
        """``link``'s full view was closed."""
        self._left[id(link)] = now

    def opened(self, link: Link, now: float) -> str:
        """``link``'s full view was opened: say what happened since it was last closed."""
        since = self._left.pop(id(link), None)
        return "" if since is None else self._tell([link], since, now)

    def _tell(self, links: Sequence[Link], since: float, now: float) -> str:
        away = now - since
        if away < AWAY_AT_LEAST:
            return ""
        said = []
        for link in links:
            kept = self.histories.get(link)
            line = while_away(kept.happenings.since(since), away) if kept is not None else ""
            if line:
                name = link.label.partition(" · ")[0]
                said.append(f"{name}: {line}" if len(links) > 1 else line)
        text = " ".join(said)
        if text:
            self.say(text)
        return text
