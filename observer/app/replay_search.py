"""What the replay screen knows about its search: the query, its matches, how far it got.

The search itself (:func:`observer.replay.find`) runs in a thread worker of the screen; this
object holds its state for the status line, the timeline's match marks, ``n``/``N`` and the
highlights on the screen shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from observer.replay import Match, following, occurrences, preceding
from observer.replay.search import HasData


@dataclass
class SearchState:
    """One search across a recording (a new query replaces it)."""

    query: str = ""
    matches: list[Match] = field(default_factory=list)
    running: bool = False
    done: float = 0.0
    """Fraction of the recording searched so far (written by the search thread)."""

    def progress(self, fraction: float) -> None:
        """How far the search thread got (0..1)."""
        self.done = fraction

    def start(self, query: str) -> None:
        """A new search for ``query`` begins."""
        self.query, self.matches, self.running, self.done = query, [], True, 0.0

    def finish(self, query: str, matches: list[Match]) -> bool:
        """The search for ``query`` ended; False if a newer query replaced it meanwhile."""
        if query != self.query:
            return False
        self.matches, self.running = matches, False
        return True

    def describe(self, position: int) -> str:
        """``searching… 40%``, ``not found`` or ``2/5 found`` (2: the match shown at ``position``)."""
        if self.running:
            return f"searching… {self.done:.0%}"
        if not self.matches:
            return "not found"
        shown = [i for i, m in enumerate(self.matches) if m.count == position]
        where = f"{shown[0] + 1}/" if shown else ""
        return f"{where}{len(self.matches)} found"

    def step(self, position: int, direction: int) -> Match | None:
        """The next (1) or previous (-1) match from ``position`` events, wrapping around."""
        return (following if direction > 0 else preceding)(self.matches, position)

    def highlights(
        self, rows: Sequence[Sequence[HasData]]
    ) -> dict[int, tuple[tuple[int, int], ...]]:
        """Where the query stands on the rows shown: ``{row: ((start, end), ...)}``."""
        if not self.query:
            return {}
        found = {y: occurrences(row, self.query) for y, row in enumerate(rows)}
        return {y: ranges for y, ranges in found.items() if ranges}
