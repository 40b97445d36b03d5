"""The watch screen's rewind keys: back and forward in the session's history while it runs on.

``←`` goes back :data:`~observer.replay.rewind.STEP` seconds a press (held, the key repeats: a
scrub), ``→`` forward, ``[``/``]`` to the previous/next marker (notifications, takeovers,
outages, the exit), ``/`` finds the last time a text appeared (``ctrl+up``/``ctrl+down``:
older/newer), and ``end`` is live again. Letters stay free: in watch mode a letter typed still
shows the hint that ``ctrl+t`` takes control. Rewound, the view says how far back it is
(``REWIND −2:35``) and the status bar goes on saying the session's news. Control is never taken
while rewound: ``ctrl+t`` shows live first (the screen calls :meth:`RewindKeys.back_to_live`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import ClassVar

from textual import work
from textual.binding import Binding, BindingType
from textual.screen import Screen

from observer.app.rewind import RewindSource
from observer.app.rewind_search import RewindSearchScreen
from observer.errors import ObserverError
from observer.replay.playback import Moved
from observer.replay.rewind import Rewind
from observer.replay.search import Match, find, following, preceding
from observer.replay.timeline import Timeline

REWIND_BINDINGS: list[BindingType] = [
    Binding("left", "rewind(-1)", "Back 5 s"),
    Binding("right", "rewind(1)", "Forward 5 s", show=False),
    Binding("left_square_bracket", "rewind_marker(-1)", "[ marker", show=False),
    Binding("right_square_bracket", "rewind_marker(1)", "marker ]", show=False),
    Binding("slash", "rewind_search", "Search the past"),
    Binding("ctrl+up", "rewind_match(-1)", "Older match", show=False),
    Binding("ctrl+down", "rewind_match(1)", "Newer match", show=False),
    Binding("end", "back_to_live", "Live", show=False, priority=True),
]


class RewindKeys(Screen[None]):
    """The rewind actions of a screen whose view draws a :class:`RewindSource`."""

    BINDINGS: ClassVar[list[BindingType]] = REWIND_BINDINGS
    source: RewindSource | None = None
    """The view's source, when the session's history is kept."""
    found: list[Match]
    searched: Timeline | None = None
    """The history's timeline the matches are of."""

    def _clock(self) -> float:
        return float(getattr(self.app, "clock", time.monotonic)())

    def _moved(self, rewind: object) -> None:
        """After a move: the view and the status bar show where it is now."""
        self.refresh_bindings()
        for bar in self.query("StatusBar"):
            bar.refresh()

    def action_rewind(self, direction: int) -> None:
        """Back (-1) or forward (1) :data:`~observer.replay.rewind.STEP` seconds."""
        source = self.source
        if source is None:
            return
        self._move(lambda rewind, live: (rewind.back if direction < 0 else rewind.forward)(live))

    def action_rewind_marker(self, direction: int) -> None:
        """To the previous (-1) or next (1) marker; past the last one is live."""
        source = self.source
        if source is not None:
            self._move(lambda rewind, live: rewind.marker(direction, live))

    def _move(self, moving: Callable[[Rewind, float], Moved | None]) -> None:
        source = self.source
        assert source is not None
        if source.history.error is not None:
            self._stopped(source.history.error)
            return
        try:
            source.move(moving, self._clock())
        except (ObserverError, OSError) as error:  # its files were removed, or the disk failed
            self._stopped(error)
            source.go_live()
        self._moved(source.rewind)

    def _stopped(self, error: Exception) -> None:
        what = error.strerror if isinstance(error, OSError) else str(error)
        self.notify(
            f"Rewind is not available: the session's history could not be kept ({what}).",
            severity="error",
            markup=False,
        )

    def action_back_to_live(self) -> None:
        """Show live again (and scroll the view back to the screen)."""
        if self.source is not None:
            self.source.go_live()
        self.query_one("TerminalView").action_jump_to_live()  # type: ignore[attr-defined]
        self._moved(None)

    def back_to_live(self) -> None:
        """Live first (before control is taken)."""
        if self.source is not None and self.source.rewind.rewound:
            self.action_back_to_live()

    # -- search ---------------------------------------------------------------------------------

    def action_rewind_search(self) -> None:
        """Ask for a text, then show the last time it appeared."""
        if self.source is None:
            return

        def asked(query: str | None) -> None:
            if query and self.source is not None:
                self.source.now(self._clock())  # what was fed so far is searched too
                self._search(query)

        self.app.push_screen(RewindSearchScreen(), asked)

    @work(thread=True, exclusive=True, group="rewind-search")
    def _search(self, query: str) -> None:
        source = self.source
        assert source is not None
        timeline = source.history.timeline
        try:
            matches = find(timeline, source.history.keyframes, query)
        except (ObserverError, OSError) as error:
            self.app.call_from_thread(self._stopped, error)
            return
        self.app.call_from_thread(self._found, query, matches, timeline)

    def _found(self, query: str, matches: list[Match], timeline: Timeline) -> None:
        self.found, self.searched = matches, timeline
        if not matches:
            self.notify(f"{query!r} did not appear in the session so far.", markup=False)
            return
        self._jump(matches[-1])
        count = len(matches)
        self.notify(
            f"{count} found: the last shown; ctrl+up older, ctrl+down newer.",
            markup=False,
            timeout=4,
        )

    def _jump(self, match: Match) -> None:
        source = self.source
        assert source is not None
        if source.history.timeline is not self.searched:  # it dropped its oldest since
            self.notify("The history changed since the search: search again.", markup=False)
            return
        self._move(lambda rewind, live: rewind.jump(match, live))

    def action_rewind_match(self, direction: int) -> None:
        """The older (-1) or newer (1) appearance of the searched text."""
        source = self.source
        found = getattr(self, "found", [])
        if source is None or not found:
            return
        position = source.rewind.player.position if source.rewind.rewound else 1 << 62
        step = following(found, position) if direction > 0 else preceding(found, position)
        if step is not None:
            self._jump(step)
