"""``ReplayStatus``: the replay's one-line status — state, time, speed, marker, search, title.

The screen derives a :class:`ReplayState` every frame; the widget re-renders only when the line's
text (or the theme) changes, so a paused replay does not re-render 30 times a second. Labels and the
title come from the recording: they are shown as text, through the one sanitizer. A window too
narrow for the line ends it in ``…`` (the state and time come first).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rich.text import Text

from observer.app.widgets.one_line import OneLine
from observer.replay.clock import clock_text
from observer.terminal.sanitize import sanitize


@dataclass(frozen=True, slots=True)
class ReplayState:
    """What the status line shows."""

    playing: bool
    position: float
    duration: float
    loaded: bool
    speed: float
    marker: str | None
    """The label of the marker the position is in, if any."""
    query: str
    """The searched text (empty: no search)."""
    found: str
    """How the search stands: ``searching… 40%``, ``not found``, ``2/5 found``."""
    indexing: bool
    title: str | None


def speed_text(speed: float) -> str:
    """``0.25×``, ``2×``."""
    return f"{speed:g}×"


def status_text(state: ReplayState, variables: Mapping[str, str]) -> Text:
    """The status line for ``state``, coloured with the theme's ``variables``."""
    text = Text(no_wrap=True, overflow="ellipsis")
    if state.playing:
        text.append(" ▶ PLAY ", f"bold {variables['background']} on {variables['primary']}")
    else:
        text.append(" ⏸ PAUSE ", f"bold {variables['background']} on {variables['warning']}")
    text.append(f" {clock_text(state.position)} / {clock_text(state.duration)}")
    if not state.loaded:
        text.append(" (loading)")
    text.append(f" │ {speed_text(state.speed)}")
    if state.marker is not None:
        text.append(" │ ◆ ")
        text.append(sanitize(state.marker) or "(unnamed)", f"bold {variables['warning']}")
    if state.query:
        text.append(" │ ")
        text.append(sanitize(repr(state.query)))
        text.append(f" {state.found}")
    if state.indexing:
        text.append(" │ indexing")
    if state.title:
        text.append(" │ ")
        text.append(sanitize(state.title), "italic")
    return text


class ReplayStatus(OneLine):
    """The status line of the replay screen."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._key: tuple[str, str] | None = None

    def show(self, state: ReplayState) -> None:
        """Show ``state`` (re-rendered only when the line's text or the theme changed)."""
        text = status_text(state, self.app.theme_variables)
        key = (text.plain, self.app.theme)
        if key != self._key:
            self._key = key
            self.update(text)
