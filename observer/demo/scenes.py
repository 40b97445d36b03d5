"""The app's views as fixed scenes, played from the bundled demo-agent recording.

Each :class:`Scene` builds the real :class:`~observer.app.app.ObserverApp` on scripted sessions cut
from ``observer/data/agent-demo.cast`` (the demo agent recorded in a real PTY) at its markers, with
a frozen clock so states such as "waiting 12s" are the same on every run. ``observer screenshots``
saves them as SVG; ``tests/snapshots`` compares them with pytest-textual-snapshot.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, cast

from observer.app.links import ConnectionChanged, LatencyMeasured, ScriptedLink, Step
from observer.client.recording_policy import RecordingPolicy
from observer.client.watched import WatchedSession
from observer.protocol.events import (
    ControlChanged,
    Exited,
    OutputReceived,
    PresenceChanged,
    Resized,
    SessionStarted,
)
from observer.recording.castfiles import open_cast
from observer.render.svg import mend_svg
from observer.terminal.size import parse_size

if TYPE_CHECKING:
    from textual.pilot import Pilot

    from observer.app.app import ObserverApp

Steps = list[tuple[float, Step]]
APP_SIZE = (102, 33)
"""The recording's 100x30 terminal plus the view's border and the status bar."""
FULL_WINDOW_SIZE = (100, 31)
"""The recording's terminal plus the status line: the full-window view shows all of it."""
CROPPED_SIZE = (80, 24)


def bundled_recording() -> Path:
    """The demo agent's recording shipped in the package."""
    return Path(str(resources.files("observer").joinpath("data/agent-demo.cast")))


@dataclass
class Clock:
    """A clock that moves only when told (so screenshots show fixed durations)."""

    now: float = 1000.0

    def __call__(self) -> float:
        return self.now


def steps_from(
    path: Path, identifier: str, *, until: str | None = None, extra: int = 0, watchers: int = 2
) -> Steps:
    """Scripted steps replaying ``path`` up to marker ``until`` (plus ``extra`` output events)."""
    steps: Steps = []
    with open_cast(path) as reader:
        header = reader.header
        steps.append((0.0, ConnectionChanged("connected")))
        started = SessionStarted(
            identifier, "watch", header.cols, header.rows, 0, "none", watchers, ""
        )
        steps.append((0.0, started))
        steps.append((0.0, LatencyMeasured(0.004)))
        offset, remaining = 0, None
        for event in reader:
            if event.code == "m" and event.data == until:
                remaining = extra
            if remaining is not None and (remaining <= 0 or event.code != "o"):
                if remaining <= 0:
                    break
                continue
            if event.code == "o":
                data = event.data.encode()
                steps.append((0.0, OutputReceived(data, offset)))
                offset += len(data)
                if remaining is not None:
                    remaining -= 1
            elif event.code == "r":
                steps.append((0.0, Resized(*parse_size(event.data))))
            elif event.code == "x":
                steps.append((0.0, Exited(int(event.data))))
    return steps


def scripted_link(
    steps: Steps, label: str, clock: Clock, *, recording: str | None = None
) -> ScriptedLink:
    """A scripted session with an endpoint-like label, on the scene's clock."""
    policy = RecordingPolicy(_Unwritten) if recording else None
    return ScriptedLink(WatchedSession(recording=policy), steps, label=label, clock=clock)


class _Unwritten:
    """A scene's recording: the status bar shows it recording; nothing is kept (no file)."""

    def __init__(self, cols: int, rows: int, title: str) -> None:
        self.size = (cols, rows)

    def output(self, data: bytes) -> None:
        """Dropped: a scene has nothing to keep."""

    def input(self, data: bytes) -> None:
        """Dropped."""

    def marker(self, label: str = "") -> None:
        """Dropped."""

    def resize(self, cols: int, rows: int) -> None:
        """Dropped."""

    def exit(self, status: int) -> None:
        """Dropped."""

    def close(self) -> None:
        """Nothing to close."""


Prepare = Callable[["Pilot[int]", Clock], Awaitable[None]]


async def _settle(pilot: Pilot[int], clock: Clock, seconds: float = 0.0) -> None:
    app = cast("ObserverApp", pilot.app)
    for link in app.links:
        if isinstance(link, ScriptedLink):
            await asyncio.wait_for(link.drained.wait(), 30)
    await pilot.pause(0.3)
    clock.now += seconds
    app.check_agents()  # the timer may not have ticked yet: notify deterministically now
    for screen in pilot.app.screen_stack:
        for widget in screen.query("StatusBar"):
            widget.refresh()
        update = getattr(screen, "update_titles", None)  # the dashboard's tiles
        if update is not None:
            update()
        grid = getattr(screen, "grid", None)
        if grid is not None:  # each tile whole, as its session stands (the clock is frozen: a
            grid.resume()  # tile waiting for a synchronized update to end would wait for ever)
    await pilot.pause(0.1)


@dataclass
class Scene:
    """One view of the app."""

    name: str
    description: str
    build: Callable[[Path, Clock], ObserverApp]
    prepare: Prepare
    size: tuple[int, int] = APP_SIZE
    clock: Clock = field(default_factory=Clock)

    def app(self, recording: Path | None = None) -> ObserverApp:
        """A fresh app for this scene (its clock restarted)."""
        self.clock = Clock()
        return self.build(recording or bundled_recording(), self.clock)


def _one(
    until: str | None,
    extra: int = 0,
    *,
    theme: str = "observer-dark",
    control: bool = False,
    recording: str | None = None,
) -> Callable[[Path, Clock], ObserverApp]:
    def build(path: Path, clock: Clock) -> ObserverApp:
        from observer.app.app import ObserverApp

        steps = steps_from(path, "build-7", until=until, extra=extra)
        if control:
            steps.append((0.0, ControlChanged("you")))
        label = "build-7 · wss://sandbox.example.com"  # as observer watch labels it
        link = scripted_link(steps, label, clock, recording=recording)
        return ObserverApp([link], theme=theme, clock=clock)

    return build


def _dashboard(path: Path, clock: Clock) -> ObserverApp:
    from observer.app.app import ObserverApp

    plans: Sequence[tuple[str, str | None, int]] = (
        ("build-7", "full screen", 0),
        ("review-2", "full screen", 25),
        ("docs-1", "question", 0),
        ("tests-4", None, 0),
    )
    links = []
    for identifier, until, extra in plans:
        steps = steps_from(path, identifier, until=until, extra=extra)
        if identifier == "tests-4":
            steps.append((0.0, PresenceChanged(1)))
        links.append(scripted_link(steps, f"{identifier} · wss://sandbox.example.com", clock))
    return ObserverApp(links, clock=clock)


async def _idle(pilot: Pilot[int], clock: Clock) -> None:
    await _settle(pilot, clock, 3.0)


async def _waiting(pilot: Pilot[int], clock: Clock) -> None:
    await _settle(pilot, clock, 12.0)


async def _confirm(pilot: Pilot[int], clock: Clock) -> None:
    await _settle(pilot, clock, 12.0)
    await pilot.press("ctrl+t")
    await pilot.pause(0.2)


def _replay(path: Path, clock: Clock) -> ObserverApp:
    from observer.app.replay_app import scene_app

    return scene_app(path, clock)


async def _replay_search(pilot: Pilot[int], clock: Clock) -> None:
    from observer.app.replay_app import scene_prepare

    await scene_prepare(pilot)


SCENES: tuple[Scene, ...] = (
    Scene(
        "watch", "watching an agent at work", _one("full screen", recording="build-7.cast"), _idle
    ),
    Scene("fullscreen", "the agent's full-screen moment", _one("full screen", 30), _idle),
    Scene(
        "full-window",
        "a window of the remote's size: no frame, every cell the agent's",
        _one("full screen"),
        _idle,
        size=FULL_WINDOW_SIZE,
    ),
    Scene(
        "cropped",
        "a window smaller than the remote: cropped, and it says so",
        _one("full screen"),
        _idle,
        size=CROPPED_SIZE,
    ),
    Scene("confirm", "ctrl+t asks before taking control", _one("question"), _confirm),
    Scene("control", "in control: the answer was typed", _one("answered", 3, control=True), _idle),
    Scene("dashboard", "four agents at once", _dashboard, _waiting, size=(160, 50)),
    Scene("theme-dracula", "the Dracula theme", _one("question", theme="dracula"), _waiting),
    Scene(
        "theme-solarized-light",
        "the Solarized light theme",
        _one("question", theme="solarized-light"),
        _waiting,
    ),
    Scene("replay", "replaying a recording: timeline, markers, search", _replay, _replay_search),
)
"""Every scene, in the order the screenshots are listed."""


async def save_scene(scene: Scene, out: Path, recording: Path | None = None) -> Path:
    """Run ``scene`` headless and save it as ``out/<name>.svg``."""
    app = scene.app(recording)
    async with app.run_test(size=scene.size, notifications=True) as pilot:
        await scene.prepare(pilot, scene.clock)
        path = out / f"{scene.name}.svg"
        svg = app.export_screenshot(title=f"observer — {scene.description}")
        path.write_text(mend_svg(svg), "utf-8")
    return path
