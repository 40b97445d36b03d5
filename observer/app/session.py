"""One watched session's state: the terminal model plus what the status bar shows.

:class:`LiveSession` is fed the source's events by the app's worker and tells its subscribed views
which rows changed. It knows no widgets; time is passed in, so its rules (idle, waiting, exited)
are tested without a clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from observer.app.source import ConnectionChanged, ConnectionState, LatencyMeasured, SessionSource
from observer.protocol.events import (
    ControlChanged,
    ErrorReported,
    Exited,
    Holder,
    OutputReceived,
    PresenceChanged,
    ProtocolViolation,
    Resized,
    SessionStarted,
    SnapshotReceived,
    TitleChanged,
)
from observer.terminal import TerminalModel
from observer.terminal.sanitize import sanitize

AgentState = Literal["starting", "active", "idle", "waiting", "exited"]

#: No output for this long: the agent is idle.
IDLE_AFTER = 2.0
#: A bell, then no output for this long: it waits for someone.
WAIT_AFTER_BELL = 1.0
#: A prompt-looking cursor line with no output for this long: it waits for someone.
WAIT_AFTER_PROMPT = 4.0
_PROMPT_ENDINGS = ("?", ":", ">", "$", "#", "❯", "›", "»", "(y/n)", "[Y/n]", "[y/N]")

_RESET = b"\x18\x1b\\\x1bc"
"""CAN ends any control sequence the output before a snapshot left open (ECMA-48 8.3.8), ST any
control string, then RIS returns the model to its power-on state, keeping its scrollback."""

Listener = Callable[[set[int], bool], None]


@dataclass(frozen=True, slots=True)
class Notice:
    """Something a person should be told about (``severity`` as Textual's ``notify``)."""

    text: str
    severity: Literal["information", "warning", "error"] = "information"


@dataclass
class LiveSession:
    """The client's picture of one remote terminal."""

    source: SessionSource
    scrollback: int = 10_000
    model: TerminalModel = field(init=False)
    identifier: str = ""
    title: str = ""
    connection: ConnectionState = "connecting"
    retry_at: float | None = None
    reason: str = ""
    latency: float | None = None
    watchers: int = 0
    holder: Holder = "none"
    exit_status: int | None = None
    exited: bool = False
    gaps: int = 0
    resyncs: int = 0
    snapshots: int = 0
    behind: bool = False
    """Output is waiting to be parsed (set by the pump): views draw fewer frames meanwhile."""
    """Snapshots applied (joins, resyncs, gaps): each answers everything this client sent before."""
    last_output: float | None = None
    bell_in_last_output: bool = False
    """The latest output rang the bell (agents ring it when they ask something)."""
    _listeners: list[Listener] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.model = TerminalModel(cols=80, rows=24, scrollback=self.scrollback)

    @property
    def label(self) -> str:
        """Endpoint and identifier, safe to print."""
        return sanitize(self.source.label)

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(dirty_rows, whole_screen)`` after each change of the screen."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        """Stop calling ``listener``."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _changed(self, dirty: set[int], whole: bool) -> None:
        for listener in list(self._listeners):
            listener(dirty, whole)

    def apply(self, event: object, now: float) -> Notice | None:
        """Apply one source event; return what to tell the user, if anything."""
        if isinstance(event, OutputReceived):
            self._output(event.data, now)
        elif isinstance(event, SnapshotReceived):
            self._replace(event.data, event.cols, event.rows, now)
            self.snapshots += 1
            if event.gap:
                self.gaps += 1
                return Notice(
                    "Some output was missed while disconnected; showing the current screen"
                )
        elif isinstance(event, SessionStarted):
            self.identifier = sanitize(event.identifier)
            self.title = sanitize(event.title)
            self.holder, self.watchers = event.holder, event.watchers
            self.connection, self.retry_at = "connected", None
            if (event.cols, event.rows) != (self.model.cols, self.model.rows):
                self.model.resize(event.cols, event.rows)
                self._changed(set(), True)
        elif isinstance(event, Resized):
            self.model.resize(event.cols, event.rows)
            self._changed(set(), True)
        elif isinstance(event, ControlChanged):
            self.holder = event.holder
        elif isinstance(event, PresenceChanged):
            self.watchers = event.watchers
        elif isinstance(event, TitleChanged):
            self.title = sanitize(event.title)
        elif isinstance(event, Exited):
            self.exited, self.exit_status = True, event.status
            self.holder = "none"  # nothing left to type into
            return Notice(f"The agent exited with status {event.status}", "warning")
        elif isinstance(event, ErrorReported):
            return Notice(sanitize(event.message) or sanitize(event.code), "warning")
        elif isinstance(event, ProtocolViolation):
            return Notice(
                f"The endpoint sent something malformed: {sanitize(event.reason)}", "warning"
            )
        elif isinstance(event, ConnectionChanged):
            return self._connection(event, now)
        elif isinstance(event, LatencyMeasured):
            self.latency = event.seconds
        return None

    def _output(self, data: bytes, now: float) -> None:
        bells = self.model.bells
        dirty = self.model.feed(data)
        self.last_output = now
        self.bell_in_last_output = self.model.bells != bells
        self.title = sanitize(self.model.title) or self.title
        self._changed(dirty, False)

    def _replace(self, data: bytes, cols: int, rows: int, now: float) -> None:
        if (cols, rows) == (self.model.cols, self.model.rows):
            # The same model, reset: the scrollback stays browsable across a resync, and no
            # model with thousands of rows is left for the garbage collector to find.
            self.model.feed(_RESET + data)
        else:
            self.model = TerminalModel(cols=cols, rows=rows, scrollback=self.scrollback)
            self.model.feed(data)
        self.last_output = now
        self.title = sanitize(self.model.title) or self.title
        self._changed(set(), True)

    def _connection(self, event: ConnectionChanged, now: float) -> Notice | None:
        was = self.connection
        self.connection = event.state
        self.reason = sanitize(event.reason)
        self.retry_at = now + event.retry_in if event.retry_in is not None else None
        if event.state == "reconnecting" and was == "connected":
            return Notice(f"Disconnected from {self.label}; reconnecting", "warning")
        if event.state == "closed" and not self.exited:
            reason = f": {self.reason}" if self.reason else ""
            return Notice(f"Connection to {self.label} closed{reason}", "error")
        if event.state == "connected" and was == "reconnecting":
            return Notice(f"Reconnected to {self.label}")
        return None

    def agent_state(self, now: float) -> tuple[AgentState, float]:
        """The agent's state and for how long it has been quiet (seconds)."""
        if self.exited:
            return "exited", 0.0
        if self.last_output is None:
            return "starting", 0.0
        quiet = max(0.0, now - self.last_output)
        if self.bell_in_last_output and quiet >= WAIT_AFTER_BELL:
            return "waiting", quiet
        if quiet >= WAIT_AFTER_PROMPT and self._cursor_line_is_prompt():
            return "waiting", quiet
        if quiet >= IDLE_AFTER:
            return "idle", quiet
        return "active", quiet

    def _cursor_line_is_prompt(self) -> bool:
        model = self.model
        row = model.line(model.cursor_y)
        text = "".join(cell.data for cell in row[: model.cursor_x]).rstrip()
        return text.endswith(_PROMPT_ENDINGS)

    def status_line(self, now: float) -> str:
        """A short plain-text state for a dashboard tile's title line."""
        if self.connection == "reconnecting":
            return "reconnecting"
        if self.connection in ("connecting", "closed") and not self.exited:
            return self.connection
        state, quiet = self.agent_state(now)
        if state == "exited":
            return f"exited {self.exit_status}"
        if state in ("idle", "waiting"):
            return f"{state} {int(quiet)}s"
        return state
