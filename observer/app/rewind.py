"""Live rewind in the app: each session's history from the moment it connected, and a view of it.

:class:`SessionHistories` starts one :class:`~observer.recording.history.SessionHistory` per
session when the app starts (in a private temporary folder, removed when the app ends), and
writes into it what :class:`~observer.client.happenings.Happenings` notes from the session's
status (notifications, takeovers, outages, the exit) as markers. A dashboard's many sessions
keep fewer keyframes each (:data:`TILE_KEYFRAMES`) and fewer events (:data:`TILE_EVENTS`).

:class:`RewindSource` is what the watch screen's view draws: the live screen, or the
:class:`~observer.replay.rewind.Rewind` player's model while rewound. Live changes reach the view
only while it shows live; the session goes on meanwhile (the status bar says its news).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from observer.app.links import Link, LiveScreen
from observer.app.widgets.screen_source import Listener
from observer.client.happenings import Happenings
from observer.client.status import SessionStatus
from observer.recording.history import SessionHistory
from observer.replay.playback import Moved
from observer.replay.rewind import Rewind
from observer.terminal import TerminalModel

PREFIX = "observer-rewind-"
"""Start of the name of each app's history folder in the temporary directory."""
OWNER = "pid"
"""The file in a history folder naming the process that keeps it (see :func:`sweep_orphans`)."""
TILE_KEYFRAMES = 12
"""Keyframes each session keeps when several are watched (a dashboard of up to 100): about
a MiB each for a 120x40 screen; a seek there feeds more of the history."""
TILE_KEYFRAME_SPACING = 30.0
"""Seconds of a tile's history between keyframes at first (one watched session: 5 s). A tile's
history grows by a few KB a second (the rows it shows, a few frames a second), and each keyframe
is a snapshot of the whole screen, a dashboard's 40 tiles taking several a second: the byte
budget between keyframes (what a seek feeds at most) comes first for a busy tile anyway."""
TILE_COALESCE = 0.5
"""Seconds of output one event of a tile's history gathers (one watched session: 0.1 s). The
timeline of where each event lies is what a history keeps in memory (under 32 bytes an
event); a dashboard of redrawing agents adds an event per tile at every gathering, so it is
what keeps a dashboard left open all day from growing by megabytes an hour. A tile is
rewound to the half second."""
TILE_CAP = 64 * 1024 * 1024
"""Bytes of spool files each tile keeps (one watched session: 256 MiB): hours of a redrawing
agent's screen; the timeline's memory is bounded by what the files keep, and by
:data:`TILE_EVENTS`."""
TILE_SEGMENT = 4 * 1024 * 1024
"""Bytes per spool file of a tile (the oldest file is deleted past :data:`TILE_CAP`)."""
TILE_EVENTS = 3600
"""Events each tile keeps (half an hour of an agent that never stops, gathered every
:data:`TILE_COALESCE` s; longer where it pauses): an agent that draws little a second reaches
:data:`TILE_CAP` only after days, and the timeline holds every event until then. With it, a
tile's timeline holds at most an eighth more (about 110 KB), reached within the first hour."""


@dataclass
class Kept:
    """One session's history and what happened to it."""

    history: SessionHistory
    happenings: Happenings


class SessionHistories:
    """Every watched session's history (see the module docstring).

    Args:
        clock: Monotonic seconds (the app's).
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._kept: dict[int, Kept] = {}
        self._folder: Path | None = None

    def start(self, links: list[Link]) -> None:
        """Keep a history of each of ``links`` from now on."""
        if self._folder is None:
            sweep_orphans()
            try:  # mkdtemp makes it 0700: the history holds whatever the agents showed
                self._folder = Path(tempfile.mkdtemp(prefix=PREFIX))
                (self._folder / OWNER).write_text(str(os.getpid()))
            except OSError:  # no temporary folder: watched without rewind
                return
        tiles = len(links) > 1
        for number, link in enumerate(links):
            folder = self._folder / str(number)
            session = link.session
            try:
                folder.mkdir(mode=0o700)
                history = _history(folder, session.model, self.clock(), tiles)
            except OSError:  # no room for a history: the session is watched without rewind
                continue
            session.tap_feed(history)
            self._kept[id(link)] = Kept(history, Happenings())

    def get(self, link: Link) -> Kept | None:
        """``link``'s history, if one is kept."""
        return self._kept.get(id(link))

    def seen(self, link: Link, status: SessionStatus, now: float) -> None:
        """Note what changed in ``link``'s ``status``; new moments become markers."""
        kept = self._kept.get(id(link))
        if kept is None:
            return
        for happened in kept.happenings.seen(status, now):
            kept.history.marker(happened.label, now)

    def close(self) -> None:
        """Stop keeping histories and delete them."""
        for kept in self._kept.values():
            kept.history.close()
        self._kept.clear()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None


def sweep_orphans(temporary: Path | None = None) -> int:
    """Delete the history folders of observers that ended without deleting their own (``kill
    -9``, a crash, a power cut): folders in ``temporary`` (default: the system's) whose
    :data:`OWNER` file names a process that no longer runs. Another user's folders cannot be
    read and are left; so are folders without the file. Returns how many were deleted."""
    swept = 0
    for folder in Path(temporary or tempfile.gettempdir()).glob(PREFIX + "*"):
        try:
            pid = int((folder / OWNER).read_text())
        except (OSError, ValueError):
            continue
        if not _running(pid):
            shutil.rmtree(folder, ignore_errors=True)
            swept += 1
    return swept


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: only whether the process exists (kill(2))
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process of that number
        return True
    return True


def _history(folder: Path, model: TerminalModel, now: float, tile: bool) -> SessionHistory:
    """A session's history: bounded for a tile (:data:`TILE_CAP`), finer for one session."""
    if not tile:
        return SessionHistory(folder, model, now)
    return SessionHistory(
        folder,
        model,
        now,
        keyframes=TILE_KEYFRAMES,
        spacing=TILE_KEYFRAME_SPACING,
        coalesce=TILE_COALESCE,
        cap=TILE_CAP,
        segment=TILE_SEGMENT,
        events=TILE_EVENTS,
    )


class RewindSource:
    """The watch view's screen: live, or a moment of the session's history (a ``ScreenSource``).

    Args:
        live: The session's live screen.
        history: Its history.
        model: The live model now (so the history can be brought up to date before a seek).
    """

    def __init__(
        self, live: LiveScreen, history: SessionHistory, model: Callable[[], TerminalModel]
    ) -> None:
        self.live, self.history = live, history
        self._live_model = model
        self.rewind = Rewind(history.timeline, history.keyframes)
        self._listeners: list[Listener] = []

    @property
    def model(self) -> TerminalModel:
        """The player's model while rewound, else the live one."""
        return self.rewind.player.model if self.rewind.rewound else self.live.model

    @property
    def behind(self) -> bool:
        """Live output waits to be parsed (nothing does while rewound)."""
        return not self.rewind.rewound and self.live.behind

    @property
    def in_control(self) -> bool:
        """Keys typed go to the agent."""
        return self.live.in_control

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(dirty_rows, whole)`` after each change of what is shown."""
        if not self._listeners:
            self.live.subscribe(self._live_changed)
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        """Stop calling ``listener``."""
        if listener in self._listeners:
            self._listeners.remove(listener)
        if not self._listeners:
            self.live.unsubscribe(self._live_changed)

    def _live_changed(self, rows: set[int], whole: bool) -> None:
        if not self.rewind.rewound:
            self._tell(rows, whole)

    def _tell(self, rows: set[int], whole: bool) -> None:
        for listener in list(self._listeners):
            listener(rows, whole)

    def now(self, now: float) -> float:
        """The history's time at ``now``, with what the live model was fed written first."""
        self.history.flush(self._live_model(), now)
        return self.history.time_of(now)

    def move(self, moving: Callable[[Rewind, float], Moved | None], now: float) -> None:
        """Move with ``moving(rewind, live_time)``; the view repaints whatever it then shows."""
        live = self.now(now)
        was = self.rewind.rewound
        if self.rewind.timeline is not self.history.timeline:  # the history dropped its oldest
            at, self.rewind = self.rewind.at, Rewind(self.history.timeline, self.history.keyframes)
            if at is not None:
                self.rewind.seek(at, live)
        moved = moving(self.rewind, live)
        if moved is not None or was:
            self._tell(set(), True)

    def go_live(self) -> None:
        """Show live again."""
        if self.rewind.rewound:
            self.rewind.go_live()
            self._tell(set(), True)

    def label(self, now: float) -> str:
        """``REWIND −2:35`` while rewound; empty while live."""
        return self.rewind.label(self.history.time_of(now))
