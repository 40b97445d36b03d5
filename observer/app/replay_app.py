"""``ReplayApp``: the observer app showing one recording, and a fixed replay scene for screenshots."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events

from observer.app.app import ObserverApp
from observer.app.screens.replay import ReplayScreen
from observer.recording.castfiles import open_cast
from observer.render.rich_cells import Palette

if TYPE_CHECKING:
    from textual.pilot import Pilot

    from observer.asciicast import Header


class ReplayApp(ObserverApp):
    """The app with no live sessions: it shows one :class:`ReplayScreen` (``observer replay``)."""

    CSS_PATH = str(Path(__file__).parent / "app.tcss")  # relative paths follow the subclass

    def __init__(self, screen: Callable[[Palette], ReplayScreen], **options: Any) -> None:
        super().__init__([], **options)
        self._make_screen = screen

    def on_mount(self, event: events.Mount) -> None:  # type: ignore[override]
        event.prevent_default()  # not ObserverApp's on_mount: there are no sessions to pump
        for problem in self.theme_problems:
            self.notify(
                str(problem), title="Theme not loaded", severity="error", markup=False, timeout=10
            )
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self.push_screen(self._make_screen(self.palette))


def replay_app(
    path: Path,
    header: Header | None = None,
    *,
    lenient: bool = False,
    idle_limit: float | None = None,
    speed: float = 1.0,
    autoplay: bool = True,
    **options: Any,
) -> ReplayApp:
    """The app replaying ``path`` (``options`` go to the app: ``theme``, ``clock``...).

    Args:
        path: The recording.
        header: Its header, when already read (``observer replay`` reads it first, so a damaged
            header is an error before the screen opens); read here otherwise.
        lenient: Skip damaged lines.
        idle_limit: Cap pauses to this many seconds.
        speed: Starting speed.
        autoplay: Start playing (else paused, on the first screen).
    """
    if header is None:
        with open_cast(path, lenient=lenient) as reader:
            header = reader.header
    known = header

    def screen(palette: Palette) -> ReplayScreen:
        return ReplayScreen(
            path,
            known,
            palette,
            lenient=lenient,
            idle_limit=idle_limit,
            speed=speed,
            autoplay=autoplay,
        )

    return ReplayApp(screen, **options)


def scene_app(path: Path, clock: Callable[[], float], *, theme: str = "observer-dark") -> ReplayApp:
    """A paused replay of ``path`` on a frozen clock (for ``observer screenshots`` and snapshots)."""
    return replay_app(path, autoplay=False, theme=theme, clock=clock)


async def scene_prepare(pilot: Pilot[int], query: str = "passed") -> None:
    """Wait for the index, search ``query`` and show its first appearance."""
    screen = pilot.app.screen
    assert isinstance(screen, ReplayScreen)
    for _ in range(600):
        if screen.index.done:
            break
        await asyncio.sleep(0.05)
    await pilot.press("slash", *query, "enter")
    for _ in range(600):
        if not screen.searched.running:
            break
        await asyncio.sleep(0.05)
    await pilot.pause(0.3)
