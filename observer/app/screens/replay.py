"""The replay screen: a recording in the same ``TerminalView``, with a timeline, seeking and search.

The file is read and its keyframe index built by one thread worker while playback already runs:
the screen shows whatever is loaded, and seeks get faster as keyframes appear. Every frame the
playback clock (pure, fed the app's clock) says where playback is, and the :class:`Player` moves
the model there; the view repaints the rows that changed (or everything after a seek).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Input
from textual.worker import get_current_worker

from observer.app.app import ObserverApp
from observer.app.replay_search import SearchState
from observer.app.widgets.replay_status import ReplayState, ReplayStatus, status_text
from observer.app.widgets.terminal_view import TerminalView
from observer.app.widgets.timeline import TimelineBar
from observer.asciicast import Header
from observer.errors import ObserverError
from observer.recording.castfiles import FileSource, load_timeline
from observer.render.rich_cells import Palette
from observer.replay import KeyframeIndex, Match, Moved, Playback, Player, Timeline, find, following
from observer.terminal import TerminalModel

FRAME = 1 / 30
BATCH = 2000
"""Events read (or indexed) between checks for cancellation."""
YIELD_EVERY = 100
"""Events read (or indexed) between voluntary hand-overs of the GIL to the UI thread."""


class ReplayScreen(Screen[None]):
    """Plays one recording; see the bindings for the keys."""

    CSS_PATH = "replay.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "play_pause", "Play/pause"),
        Binding("left", "skip(-5)", "-5 s"),
        Binding("right", "skip(5)", "+5 s"),
        Binding("shift+left", "skip(-30)", "-30 s", show=False),
        Binding("shift+right", "skip(30)", "+30 s", show=False),
        Binding("left_square_bracket", "marker(-1)", "[ marker"),
        Binding("right_square_bracket", "marker(1)", "marker ]"),
        Binding("plus,equals_sign", "faster", "Faster", show=False),
        Binding("minus", "slower", "Slower", show=False),
        Binding("full_stop", "step", "Step", show=False),
        Binding("slash", "search", "Search"),
        Binding("n", "match(1)", "Next match", show=False),
        Binding("N,shift+n", "match(-1)", "Previous match", show=False),
        Binding("escape", "close_search", "Close search", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(
        self,
        path: Path,
        header: Header,
        palette: Palette,
        *,
        lenient: bool = False,
        idle_limit: float | None = None,
        speed: float = 1.0,
        autoplay: bool = True,
    ) -> None:
        super().__init__()
        self.path = path
        self.header = header
        self.palette = palette
        self.lenient = lenient
        self.idle_limit = idle_limit
        # Output stays in the file: the timeline keeps where each event lies and reads it back.
        self.source = FileSource(path)
        self.timeline = Timeline(header.cols, header.rows, source=self.source)
        self.index = KeyframeIndex(self.timeline)
        self.playback = Playback(self.timeline, self.index, speed=speed, autoplay=autoplay)
        self.player, self.clock = self.playback.player, self.playback.clock
        self.session = _PlayerScreen(self.player)
        self.searched = SearchState()
        self.skipped = 0

    @property
    def view(self) -> TerminalView:
        """The terminal widget."""
        return self.query_one(TerminalView)

    def now(self) -> float:
        """The app's clock (injected in tests)."""
        clock: Callable[[], float] = getattr(self.app, "clock", None) or _monotonic
        return clock()

    def compose(self) -> ComposeResult:
        yield TerminalView(self.session, self.palette, id="terminal")
        yield Input(placeholder="search the whole recording, enter to find", id="search")
        yield TimelineBar(id="timeline")
        yield ReplayStatus(id="status")

    def on_unmount(self) -> None:
        self.source.close()

    def on_mount(self) -> None:
        self.view.focus()
        self.load()
        self.playback.start(self.now())
        self.set_interval(FRAME, self.tick)
        self.tick()

    # -- loading (thread worker) -------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load")
    def load(self) -> None:
        """Read the file into the timeline, then build the keyframe index."""
        worker = get_current_worker()

        def between(count: int) -> bool:
            # Otherwise the UI thread waits a whole switch interval (5 ms) for the GIL at each
            # of its many small steps, and the first frame comes late.
            time.sleep(0)
            if count % BATCH == 0:
                if worker.is_cancelled:
                    return False
                self.index.build(BATCH // 4)
            return True

        try:
            self.skipped = load_timeline(
                self.path,
                self.timeline,
                lenient=self.lenient,
                idle_limit=self.idle_limit,
                every=YIELD_EVERY,
                between=between,
            )
            while not worker.is_cancelled and not self.index.build(YIELD_EVERY):
                time.sleep(0)
        except ObserverError as error:
            self.app.call_from_thread(self._fail, error)
            return
        if self.skipped:
            self.app.call_from_thread(self._note_skipped)

    def _fail(self, error: ObserverError) -> None:
        if isinstance(self.app, ObserverApp) and self.app.fatal is None:
            self.app.fatal = error
        self.app.exit(1)

    def _note_skipped(self) -> None:
        self.notify(
            f"Skipped {self.skipped} damaged line(s) of {self.path.name}; the rest plays.",
            title="Damaged recording",
            severity="warning",
            markup=False,
        )

    # -- every frame --------------------------------------------------------------------------------

    def tick(self) -> None:
        """Move the screen to where the clock says playback is; update timeline and status."""
        now = self.now()
        self._moved(self.playback.frame, now)

    def _moved(self, move: Callable[..., object], *args: Any) -> None:
        """Do what moves the playback, then repaint what changed and the status."""
        try:
            moved = move(*args)
        except ObserverError as error:  # the file was changed or removed while it played
            self._fail(error)
            return
        if isinstance(moved, Moved):
            self.view.mark_dirty(moved.dirty, moved.whole)
            self._highlight()
        self._update(self.now())

    def _highlight(self) -> None:
        """Mark where the searched text is on the screen shown (every appearance, as less does)."""
        model = self.player.model
        self.view.highlight(self.searched.highlights([model.line(y) for y in range(model.rows)]))

    def _update(self, now: float) -> None:
        position = self.clock.time(now)
        self.query_one(TimelineBar).show(
            duration=self.timeline.duration,
            position=position,
            markers=[m.time for m in self.timeline.markers],
            matches=[m.time for m in self.searched.matches],
            loaded=self.timeline.complete,
        )
        self.query_one(ReplayStatus).show(self.state(now))

    def state(self, now: float) -> ReplayState:
        """What the status line shows at ``now``."""
        position = self.clock.time(now)
        marker = self.timeline.marker_at(position)
        return ReplayState(
            playing=self.clock.playing,
            position=position,
            duration=self.timeline.duration,
            loaded=self.timeline.complete,
            speed=self.clock.speed,
            marker=marker.label if marker is not None else None,
            query=self.searched.query,
            found=self.searched.describe(self.player.position),
            indexing=not self.index.done,
            # The title at the position shown (the program may change it; OSC 0/2).
            title=self.player.model.title or self.header.title,
        )

    def status(self, now: float) -> Text:
        """The status line at ``now``, as text."""
        return status_text(self.state(now), self.app.theme_variables)

    # -- actions ------------------------------------------------------------------------------------

    def action_play_pause(self) -> None:
        """Play or pause."""
        self._moved(self.playback.toggle, self.now())

    def action_skip(self, seconds: float) -> None:
        """Seek relative to the current position."""
        self._moved(self.playback.skip, seconds, self.now())

    def action_marker(self, direction: int) -> None:
        """Seek to the previous (-1) or next (1) marker."""
        marker = self.playback.marker(direction, self.now())
        if marker is None:
            self.notify("No more markers that way.", markup=False)
            return
        self._moved(self.playback.seek, marker.time, self.now())

    def action_faster(self) -> None:
        """Next speed up."""
        self._moved(self.clock.faster, self.now())

    def action_slower(self) -> None:
        """Next speed down."""
        self._moved(self.clock.slower, self.now())

    def action_step(self) -> None:
        """Apply one more event (pauses first)."""
        if self.playback.at_end:
            self.notify("This is the end of the recording.", markup=False)
        self._moved(self.playback.step, self.now())

    # -- search -------------------------------------------------------------------------------------

    def action_search(self) -> None:
        """Open the search input."""
        box = self.query_one("#search", Input)
        box.add_class("-open")
        box.focus()

    def action_close_search(self) -> None:
        """Close the search input without searching."""
        box = self.query_one("#search", Input)
        if box.has_class("-open"):
            box.remove_class("-open")
            self.view.focus()

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        self.action_close_search()
        query = message.value
        if not query.strip():
            return
        self.searched.start(query)
        self.search(query)

    @work(thread=True, exclusive=True, group="search")
    def search(self, query: str) -> None:
        """Find every appearance of ``query`` (in a thread: it feeds the terminal model)."""

        try:
            matches = find(self.timeline, self.index, query, progress=self.searched.progress)
        except ObserverError as error:  # the file was changed or removed while it played
            self.app.call_from_thread(self._fail, error)
            return
        self.app.call_from_thread(self._found, query, matches)

    def _found(self, query: str, matches: list[Match]) -> None:
        if not self.searched.finish(query, matches):
            return
        self._highlight()
        if not matches:
            self.notify(f"{query!r} never appears on the screen.", markup=False)
            self._update(self.now())
            return
        self._jump(following(matches, self.player.position - 1))

    def _jump(self, match: Match | None) -> None:
        if match is not None:
            self._moved(self.playback.jump, match, self.now())

    def action_match(self, direction: int) -> None:
        """Show the next (1) or previous (-1) moment the searched text appeared."""
        if not self.searched.matches:
            hint = "No matches." if self.searched.query else "Search with / first."
            self.notify(hint, markup=False)
            return
        self._jump(self.searched.step(self.player.position, direction))

    # -- timeline clicks and ignored input ----------------------------------------------------------

    def on_timeline_bar_seek(self, message: TimelineBar.Seek) -> None:
        self._moved(self.playback.seek, message.time, self.now())

    def on_terminal_view_ignored_input(self, message: TerminalView.IgnoredInput) -> None:
        message.stop()  # replay has no one to type to; the keys are the player's


def _monotonic() -> float:
    return time.monotonic()


class _PlayerScreen:
    """The player's model as a view's source (the replay screen marks rows dirty itself)."""

    behind = False
    in_control = False

    def __init__(self, player: Player) -> None:
        self._player = player

    @property
    def model(self) -> TerminalModel:
        """The model the player feeds."""
        return self._player.model

    def subscribe(self, listener: object) -> None:
        """Nothing to subscribe to: the screen repaints after each step itself."""

    def unsubscribe(self, listener: object) -> None:
        """See :meth:`subscribe`."""
