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
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Input, Static
from textual.worker import get_current_worker

from observer.app.app import ObserverApp
from observer.app.session import LiveSession
from observer.app.source import ScriptedSource
from observer.app.widgets.terminal_view import TerminalView
from observer.app.widgets.timeline import TimelineBar
from observer.asciicast import OUTPUT, Header, cap_idle
from observer.castfiles import FileSource, open_cast_spans
from observer.errors import ObserverError
from observer.rendering import Palette
from observer.replay import (
    KeyframeIndex,
    Match,
    PlaybackClock,
    Player,
    Timeline,
    find,
    following,
    next_marker,
    occurrences,
    preceding,
    previous_marker,
)
from observer.terminal.sanitize import sanitize

FRAME = 1 / 30
BATCH = 2000
"""Events read (or indexed) between checks for cancellation."""
YIELD_EVERY = 100
"""Events read (or indexed) between voluntary hand-overs of the GIL to the UI thread."""


def clock_text(seconds: float) -> str:
    """``M:SS.s`` (or ``H:MM:SS``) for the status line."""
    seconds = max(0.0, seconds)
    if seconds >= 3600:
        whole = int(seconds)
        return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"
    return f"{int(seconds // 60)}:{seconds % 60:04.1f}"


def speed_text(speed: float) -> str:
    """``0.25×``, ``2×``."""
    return f"{speed:g}×"


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
        self.player = Player(self.timeline, self.index)
        self.clock = PlaybackClock(speed=speed)
        self.autoplay = autoplay
        self.opening = not autoplay
        """Paused at the start: move to the first output once it is loaded (not a blank 0:00)."""
        self.session = LiveSession(ScriptedSource([], label=str(path), hold_open=False))
        self.session.model = self.player.model
        self.matches: list[Match] = []
        self.query_text = ""
        self.searching = False
        self.search_done = 0.0
        """Fraction of the recording searched so far (written by the search thread)."""
        self.skipped = 0
        self.pinned: int | None = None
        self._status_key: tuple[str, str] = ("", "")
        """Events shown while paused after a step or a match (several events share a time)."""

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
        yield Static(id="status")

    def on_unmount(self) -> None:
        self.source.close()

    def on_mount(self) -> None:
        self.view.focus()
        self.load()
        if self.autoplay:
            self.clock.play(self.now())
        self.set_interval(FRAME, self.tick)
        self.tick()

    # -- loading (thread worker) -------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load")
    def load(self) -> None:
        """Read the file into the timeline, then build the keyframe index."""
        worker = get_current_worker()
        try:
            with open_cast_spans(self.path, lenient=self.lenient) as (reader, spans):
                timeline = self.timeline
                for count, event in enumerate(cap_idle(reader, self.idle_limit), 1):
                    # cap_idle never reads ahead: spans still points at this event's line.
                    timeline.append(event, spans.span if spans is not None else None)
                    if count % YIELD_EVERY == 0:
                        # Otherwise the UI thread waits a whole switch interval (5 ms) for the
                        # GIL at each of its many small steps, and the first frame comes late.
                        time.sleep(0)
                    if count % BATCH == 0:
                        if worker.is_cancelled:
                            return
                        self.index.build(BATCH // 4)
                timeline.complete = True
                self.skipped = reader.skipped
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
        if self.timeline.duration > self.clock.duration:
            self.clock.grow(self.timeline.duration, now)
        if self.opening:
            self._open_on_first_screen(now)
        if self.clock.playing or self.pinned is None:
            # Paused, the screen still follows the clock's position while the file loads (the
            # events at 0:00 arrive after the first frame); a step or a match pins it instead.
            self._show(self.timeline.count_at(self.clock.time(now)))
        if self.clock.playing and self.timeline.complete and self.clock.at_end(now):
            self.clock.pause(now)
        self._update(now)

    def _open_on_first_screen(self, now: float) -> None:
        """Start paused where the recording first draws something, as a poster frame."""
        first = self.timeline.first(OUTPUT)
        if first is None:
            self.opening = not self.timeline.complete
            return
        self.opening = False
        self.clock.seek(self.timeline.time(first), now)
        self.pinned = first + 1  # that event's screen, as a step to it shows it
        self._show(first + 1)

    def _show(self, count: int) -> None:
        if count == self.player.position:
            return
        try:
            dirty, whole = self.player.show(count)
        except ObserverError as error:  # the file was changed or removed while it played
            self._fail(error)
            return
        self.view.mark_dirty(dirty, whole)
        self._highlight()

    def _highlight(self) -> None:
        """Mark where the searched text is on the screen shown (every appearance, as less does)."""
        model, query = self.player.model, self.query_text
        if not query:
            self.view.highlight({})
            return
        found = {y: occurrences(model.line(y), query) for y in range(model.rows)}
        self.view.highlight({y: ranges for y, ranges in found.items() if ranges})

    def _update(self, now: float) -> None:
        position = self.clock.time(now)
        self.query_one(TimelineBar).show(
            duration=self.timeline.duration,
            position=position,
            markers=[m.time for m in self.timeline.markers],
            matches=[m.time for m in self.matches],
            loaded=self.timeline.complete,
        )
        status = self.status(now)
        key = (status.plain, self.app.theme)
        if key != self._status_key:  # paused, nothing changes: do not re-render 30 times a second
            self._status_key = key
            self.query_one("#status", Static).update(status)

    def status(self, now: float) -> Text:
        """The status line: state, time / duration, speed, marker, search, loading."""
        variables = self.app.theme_variables
        text = Text(no_wrap=True, overflow="ellipsis")
        if self.clock.playing:
            text.append(" ▶ PLAY ", f"bold {variables['background']} on {variables['primary']}")
        else:
            text.append(" ⏸ PAUSE ", f"bold {variables['background']} on {variables['warning']}")
        position = self.clock.time(now)
        text.append(f" {clock_text(position)} / {clock_text(self.timeline.duration)}")
        if not self.timeline.complete:
            text.append(" (loading)")
        text.append(f" │ {speed_text(self.clock.speed)}")
        marker = self.timeline.marker_at(position)
        if marker is not None:
            text.append(" │ ◆ ")
            text.append(sanitize(marker.label) or "(unnamed)", f"bold {variables['warning']}")
        if self.query_text:
            text.append(" │ ")
            text.append(repr(self.query_text))
            text.append(self._match_state())
        if not self.index.done:
            text.append(" │ indexing")
        if self.header.title:
            text.append(" │ ")
            text.append(sanitize(self.header.title), "italic")
        return text

    def _match_state(self) -> str:
        if self.searching:
            return f" searching… {self.search_done:.0%}"
        if not self.matches:
            return " not found"
        shown = [i for i, m in enumerate(self.matches) if m.count == self.player.position]
        where = f"{shown[0] + 1}/" if shown else ""
        return f" {where}{len(self.matches)} found"

    # -- actions ------------------------------------------------------------------------------------

    def _seek(self, time: float) -> None:
        self.opening = False
        now = self.now()
        self.clock.grow(self.timeline.duration, now)
        position = self.clock.seek(time, now)
        self.pinned = None
        self._show(self.timeline.count_at(position))
        self._update(now)

    def action_play_pause(self) -> None:
        """Play or pause."""
        self.opening = False
        now = self.now()
        self.clock.toggle(now)
        if self.clock.playing:
            self.pinned = None
        self._update(now)

    def action_skip(self, seconds: float) -> None:
        """Seek relative to the current position."""
        self._seek(self.clock.time(self.now()) + seconds)

    def action_marker(self, direction: int) -> None:
        """Seek to the previous (-1) or next (1) marker."""
        position = self.clock.time(self.now())
        markers = self.timeline.markers
        marker = (next_marker if direction > 0 else previous_marker)(markers, position)
        if marker is None:
            self.notify("No more markers that way.", markup=False)
            return
        self._seek(marker.time)

    def action_faster(self) -> None:
        """Next speed up."""
        self.clock.faster(self.now())
        self._update(self.now())

    def action_slower(self) -> None:
        """Next speed down."""
        self.clock.slower(self.now())
        self._update(self.now())

    def action_step(self) -> None:
        """Apply one more event (pauses first)."""
        self.opening = False
        now = self.now()
        if self.clock.playing:
            self.clock.pause(now)
        position = self.player.position
        if position >= len(self.timeline):
            self.notify("This is the end of the recording.", markup=False)
            return
        self.clock.seek(self.timeline.time(position), now)
        self.pinned = position + 1
        self._show(position + 1)
        self._update(now)

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
        self.query_text, self.matches, self.searching = query, [], True
        self.search_done = 0.0
        self.search(query)

    @work(thread=True, exclusive=True, group="search")
    def search(self, query: str) -> None:
        """Find every appearance of ``query`` (in a thread: it feeds the terminal model)."""

        def progress(fraction: float) -> None:
            self.search_done = fraction

        try:
            matches = find(self.timeline, self.index, query, progress=progress)
        except ObserverError as error:  # the file was changed or removed while it played
            self.app.call_from_thread(self._fail, error)
            return
        self.app.call_from_thread(self._found, query, matches)

    def _found(self, query: str, matches: list[Match]) -> None:
        if query != self.query_text:
            return
        self.matches, self.searching = matches, False
        self._highlight()
        if not matches:
            self.notify(f"{query!r} never appears on the screen.", markup=False)
            self._update(self.now())
            return
        self._jump(following(matches, self.player.position - 1))

    def _jump(self, match: Match | None) -> None:
        if match is None:
            return
        self.opening = False
        now = self.now()
        self.clock.pause(now)
        self.clock.seek(match.time, now)
        self.pinned = match.count
        self._show(match.count)
        self._update(now)

    def action_match(self, direction: int) -> None:
        """Show the next (1) or previous (-1) moment the searched text appeared."""
        if not self.matches:
            hint = "Search with / first." if not self.query_text else "No matches."
            self.notify(hint, markup=False)
            return
        step = following if direction > 0 else preceding
        self._jump(step(self.matches, self.player.position))

    # -- timeline clicks and ignored input ----------------------------------------------------------

    def on_timeline_bar_seek(self, message: TimelineBar.Seek) -> None:
        self._seek(message.time)

    def on_terminal_view_ignored_input(self, message: TerminalView.IgnoredInput) -> None:
        message.stop()  # replay has no one to type to; the keys are the player's


def _monotonic() -> float:
    return time.monotonic()
