"""The client session core: everything that decides what one watched session *is*, with no I/O.

One :class:`WatchedSession` per watched session; the watch screen, every dashboard tile,
``watch --record``, ``observer record`` and the tests all drive it (docs/client-core.md). Time is passed in; nothing here touches a socket, a clock, a loop or a widget.

In:
    the connection's life (:meth:`opened` with the peer's adapter, :meth:`received`,
    :meth:`failed`, :meth:`closed`, :meth:`measured`) and the user's intentions (:meth:`take`,
    :meth:`release`, :meth:`type`, :meth:`paste`, :meth:`interrupt`, :meth:`view_resized`,
    :meth:`choose_view`, :meth:`mark`, :meth:`tick`).
Out:
    what to send (:meth:`data_to_send`, with ``on_outgoing`` called when there is some), what to
    feed the model (:meth:`feed`, the output waiting in one inbox), what to record (through the
    :class:`~observer.client.recording_policy.RecordingPolicy`), and a derived
    :meth:`status` plus :meth:`take_notices`.

It owns: stream offsets and resume; resync and skip-ahead; the one client copy of the mode table
(strict: a pair it does not know raises); control per peer capability (a peer that arbitrates
nothing is taken on our side); the reconnect policy per peer; the recording policy; the resize
policy (the PTY follows the controller's view while in control, unless the remote size is kept;
watchers never resize); the view asked of the peer (a tile asks for the screen's state where
the peer can send it, a recorder never: :meth:`WatchedSession.screen_allowed`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from observer.client import DEFAULT_IDLE_RELEASE, DEFAULT_SCROLLBACK
from observer.client.agent_state import WAIT_AFTER_PROMPT, agent_state
from observer.client.attention import AttentionTracker, rows_read
from observer.client.catch_up import CatchUp
from observer.client.recognisers import Match, Recognisers
from observer.client.reconnect import Backoff, Decision, ReconnectPolicy, Retry, Stop
from observer.client.recording_policy import RESET, RecordingPolicy
from observer.client.status import ConnectionState, Notice, SessionStatus, Severity
from observer.protocol.adapter import Adapter, Message
from observer.protocol.events import (
    Capabilities,
    ControlChanged,
    ControlRefused,
    EchoChanged,
    ErrorReported,
    Event,
    Exited,
    Holder,
    OutputReceived,
    PresenceChanged,
    ProtocolViolation,
    Resized,
    ScreenReceived,
    SessionStarted,
    SnapshotReceived,
    TitleChanged,
)
from observer.protocol.modes import ControlEvent, ControlMode, allows, may_send_input, next_mode
from observer.protocol.screen_frames import View
from observer.protocol.screen_view import ScreenView
from observer.terminal import BellRung, TerminalModel
from observer.terminal.actions import MAX_CACHED
from observer.terminal.keys import encode_paste
from observer.terminal.sanitize import sanitize_title

CTRL_C = b"\x03"
TILE_FPS = 5
"""Frames a second a tile asks for in the screen view, and repaints at most: a tile is a glance,
and each frame of 40 tiles costs the compositor what a full-size view costs: a faster rate
costs more of a core for no shorter lag (docs/benchmarks.md, "Figures behind constants")."""

TILE_CACHES = 256
"""Entries each parser cache of a tile's model keeps (see :class:`TerminalModel`)."""

Listener = Callable[[set[int], bool], None]


@dataclass(frozen=True, slots=True)
class JoinRequest:
    """What the next connection asks for (the transport builds the URL and adapter from it)."""

    control: bool
    since: int | None
    cols: int
    rows: int


@dataclass(frozen=True, slots=True)
class Opened:
    """A connection came up: the ``count``-th of this session, resuming from ``since``."""

    count: int
    since: int | None


@dataclass(frozen=True, slots=True)
class _Reset:
    """Start the model afresh (a peer rejoined with no snapshot)."""


@dataclass(frozen=True, slots=True)
class _Chunk:
    """Output waiting to be parsed: the ``number``-th chunk received."""

    number: int
    data: bytes


_Step = _Chunk | SnapshotReceived | Resized | _Reset


class WatchedSession:
    """One watched session (see the module docstring).

    Args:
        identifier: the session identifier asked for.
        want_control: ask for the keyboard at connect.
        size: the view's size until the view says (cols, rows); also ttyd's init size.
        scrollback: lines of scrollback the model keeps (0 for tiles).
        recording: the recording policy, if this session is recorded.
        reconnect: the reconnect policy (default: reconnect, fail fast on the first attempt).
        follow_size: while in control, resize the remote PTY to the view (False: keep its size).
        idle_release: hand control back after this many seconds without typing.
        show: feed a terminal model (False for a headless recorder: nothing is parsed).
        stop_at_exit: end the session when the program exits (a recorder); otherwise it stays
            connected and inspectable, as the server keeps it.
        recognisers: the rules that name the agent's notifications and prompts (the app loads
            them from ``agents.toml``; none: only notifications and bells are recognised).
    """

    def __init__(
        self,
        *,
        identifier: str = "",
        want_control: bool = False,
        size: tuple[int, int] = (80, 24),
        scrollback: int = DEFAULT_SCROLLBACK,
        recording: RecordingPolicy | None = None,
        reconnect: ReconnectPolicy | None = None,
        follow_size: bool = True,
        idle_release: float = DEFAULT_IDLE_RELEASE,
        show: bool = True,
        stop_at_exit: bool = False,
        recognisers: Recognisers | None = None,
    ) -> None:
        self.identifier = identifier
        self.recording = recording
        self.reconnect = reconnect or ReconnectPolicy(Backoff(0.5, 10.0))
        self.follow_size = follow_size
        self.idle_release = idle_release
        self.show = show
        self.stop_at_exit = stop_at_exit
        self.close_requested = False
        """The session is over: the transport should close the connection (after sending)."""
        self.scrollback = scrollback
        # A tile (no scrollback) parses a few rows a second: small parser caches, not ~10 MiB.
        self._caches = TILE_CACHES if scrollback == 0 else MAX_CACHED
        self.model = TerminalModel(size[0], size[1], scrollback, self._caches)
        self.catch_up = CatchUp()
        self.attention = AttentionTracker(recognisers)
        """What the agent's notifications, bells and prompts mean (:mod:`.attention`)."""
        self.on_outgoing: Callable[[], object] | None = None
        """Called when :meth:`data_to_send` has something (the transport wakes its writer)."""
        self.on_status: Callable[[], object] | None = None
        """Called when the status or the notices changed (the app refreshes its bars)."""
        self.on_event: Callable[[Event | Opened | Decision], object] | None = None
        """Called with every peer event as it is applied, every connection opened and every
        reconnect decision, in order: a log of what the session saw (tests and tools read it)."""
        self._listeners: list[Listener] = []
        self._framed = False
        """The last of the agent's output came as a screen frame (not as bytes)."""
        self._shown: dict[int, tuple[object, ...]] = {}
        """Each row's cells when last reported changed (rows written the same are not)."""
        self._adapter: Adapter | None = None
        self._capabilities: Capabilities | None = None
        self._mode = ControlMode.WATCH
        self._want_control = want_control
        self._view_size: tuple[int, int] | None = None
        self._remote_size = size
        self._outbox: list[Message] = []
        self._inbox: deque[_Step] = deque()
        self._backlog = 0
        self._notices: list[Notice] = []
        self._next_offset: int | None = None
        self._connections = 0
        self._opened_at = 0.0
        self._connection: ConnectionState = "connecting"
        self._retry_at: float | None = None
        self._reason = ""
        self._last_error = ""
        self._latency: float | None = None
        self._holder: Holder = "none"
        self._watchers: int | None = None
        self._title = ""
        self._exited = False
        self._exit_status: int | None = None
        self._gaps = 0
        self._complete = True
        self._echo = True
        self._watch_only = False
        self._reply: tuple[bytes, str] | None = None
        """Keys to send once control is granted, then hand it back; and the notice then."""
        self._quitting = False
        self._last_input = 0.0
        self._last_output: float | None = None
        self._chunks = 0
        """Output chunks received (each inbox chunk carries its number)."""
        self._bell_rang_last = False
        """The newest output chunk, once parsed, rang the bell."""
        self.resyncs = 0
        self.snapshots = 0
        self._view_wanted: View = "stream"
        self._view_asked: View = "stream"
        """What this connection was asked for (every connection starts in the stream)."""
        self._fps = TILE_FPS
        self._screen = ScreenView()
        """The remote screen as the screen view's frames describe it."""
        self._view_rows: Callable[[int, int, int, int], range] | None = None
        """The rows the view shows (:meth:`show_rows`); None: all of them."""

    # -- what views read ------------------------------------------------------------------------

    @property
    def capabilities(self) -> Capabilities | None:
        """The connected peer's capabilities (None until the first connection)."""
        return self._capabilities

    @property
    def mode(self) -> ControlMode:
        """Where this client stands on the way to and from the keyboard."""
        return self._mode

    @property
    def in_control(self) -> bool:
        """Whether keys typed now are sent."""
        return may_send_input(self._mode)

    @property
    def quitting(self) -> bool:
        """The user ended the session (the close that follows is not a drop)."""
        return self._quitting

    @property
    def connections(self) -> int:
        """Connections opened so far."""
        return self._connections

    @property
    def queued(self) -> int:
        """Messages waiting in the outbox."""
        return len(self._outbox)

    @property
    def backlog(self) -> int:
        """Bytes of output received and not yet fed to the model."""
        return self._backlog

    @property
    def behind(self) -> bool:
        """Output is waiting that takes a while to parse: views draw fewer frames meanwhile."""
        return self.catch_up.behind(self._backlog)

    @property
    def pending(self) -> bool:
        """Whether :meth:`feed` has something to do."""
        return bool(self._inbox)

    @property
    def view(self) -> View:
        """What this session gets from the peer now: the ``screen``'s state or the ``stream``."""
        return self._view_asked

    @property
    def paced(self) -> bool:
        """Whether the peer paces what this session gets: the screen view's frames, a few a
        second, rather than bytes as the agent writes them (a view then draws each as it
        comes)."""
        return self._view_asked == "screen" and self._framed

    def screen_allowed(self) -> bool:
        """Whether this session may watch the screen's state instead of the byte stream: only a
        peer that can send it, and never a recorded session or one that shows nothing (a
        recording needs every byte; this is the one place that says so)."""
        caps = self._capabilities
        return self.show and self.recording is None and caps is not None and caps.screen

    @property
    def last_output(self) -> float | None:
        """When output last arrived."""
        return self._last_output

    def status(self, now: float) -> SessionStatus:
        """The session as views show it at ``now``."""
        prompt = self._prompt(now)
        state, quiet = agent_state(
            exited=self._exited,
            last_output=self._last_output,
            bell_rang_last=self._bell_rang_last,
            prompt_line=prompt is not None,
            now=now,
            asked=self.attention.asked is not None,
        )
        cannot = self._cannot_take()
        caps = self._capabilities
        return SessionStatus(
            connection=self._connection,
            in_control=self.in_control,
            requesting=self._mode is ControlMode.REQUESTING,
            holder="you" if self.in_control else self._holder,
            arbitration=caps.arbitration if caps is not None else "server",
            may_take=not cannot,
            cannot_take=cannot,
            watchers=self._watchers,
            title=self._title,
            identifier=self.identifier,
            exited=self._exited,
            exit_status=self._exit_status,
            gaps=self._gaps,
            reason=self._reason,
            last_error=self._last_error,
            retry_in=max(0.0, self._retry_at - now) if self._retry_at is not None else None,
            latency=self._latency,
            complete=self._complete,
            echo=self._echo,
            agent=state,
            quiet_for=quiet,
            behind=self.catch_up.behind(self._backlog),
            attention=self.attention.current(state, prompt, self._last_output),
            progress=self.attention.progress,
        )

    def take_notices(self) -> list[Notice]:
        """What to tell the user since the last call."""
        notices, self._notices = self._notices, []
        return notices

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(dirty_rows, whole_screen)`` after each change of the screen."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        """Stop calling ``listener``."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def data_to_send(self) -> list[Message]:
        """Messages to write to the connection, in order; empties the outbox."""
        messages, self._outbox = self._outbox, []
        return messages

    # -- the connection's life (the transport calls these) --------------------------------------

    def join_request(self) -> JoinRequest:
        """What the next connection should ask for."""
        caps = self._capabilities
        resumable = caps is not None and caps.resume and self._next_offset is not None
        cols, rows = self._view_size or self._remote_size
        return JoinRequest(
            control=self._want_control,
            since=self._next_offset if resumable else None,
            cols=cols,
            rows=rows,
        )

    def opened(self, adapter: Adapter, now: float) -> None:
        """A connection is up, speaking through ``adapter``."""
        self._adapter, self._capabilities = adapter, adapter.capabilities
        self._connections += 1
        self._opened_at = now
        self._connection, self._retry_at, self._reason = "connected", None, ""
        self.catch_up.resyncing = False
        self.reconnect.opened()
        self._outbox.clear()  # nothing typed for the last connection goes to this one
        self._send(adapter.opening_messages())
        self._view_asked = "stream"
        self._ask_view()
        recording = self.recording
        if recording is not None and recording.record_input and not adapter.capabilities.echo:
            self._tell(
                "This peer does not say when echo is off: keys typed at a password prompt "
                "would be recorded — record without --record-input to keep them out",
                "warning",
            )
        self._log(
            Opened(self._connections, self._next_offset if adapter.capabilities.resume else None)
        )
        self._status_changed()

    def received(self, message: Message, now: float) -> None:
        """One message from the peer."""
        if self._adapter is not None:
            for event in self._adapter.receive(message):
                self._apply(event, now)

    def failed(self, reason: str, *, retryable: bool, now: float) -> Decision:
        """An attempt to connect failed before the upgrade."""
        decision = self.reconnect.failed(reason, retryable=retryable)
        self._last_error = self._reason = reason
        return self._decided(decision, now)

    def closed(
        self,
        reason: str,
        *,
        code: int | None,
        now: float,
        timed_out: bool = False,
        refused: bool = False,
    ) -> Decision:
        """The connection ended.

        Args:
            reason: why, in words for people.
            code: the close code the peer sent (None: no close frame came).
            now: the time.
            timed_out: we closed it because the peer stopped answering keepalive pings: the
                network failed, not the peer (so not even a close-means-exit peer has exited).
            refused: the close code says no attempt can work (RFC 6455 policy, protocol or
                size errors): the session stops, and ``reason`` is its error.
        """
        self._adapter = None
        caps = self._capabilities
        was_up = self._connection == "connected"
        self._drop_control()
        if refused:
            self._last_error = reason
            return self._decided(Stop(reason, fatal=True), now)
        if not self._exited and not timed_out and caps is not None and caps.exit == "close":
            # ttyd and raw bridges close the socket when their program ends: that is the exit.
            self._exit(None, now)
        if self._exited:
            return self._decided(Stop(self._exit_reason()), now)
        if self._quitting:
            return self._decided(Stop("closed"), now)
        if self.recording is not None:
            self.recording.disconnected()
        self._reason = reason
        decision = Stop(reason) if code == 1000 else self.reconnect.dropped(now - self._opened_at)
        if was_up:
            after = "; reconnecting" if isinstance(decision, Retry) else ""
            self._tell(f"Disconnected: {reason}{after}", "warning")
        return self._decided(decision, now)

    def quit(self) -> None:
        """The user is leaving: the close that follows is not a drop."""
        self._quitting = True

    def measured(self, latency: float | None) -> None:
        """The keepalive's last round-trip time."""
        self._latency = latency

    # -- the user's intentions ------------------------------------------------------------------

    def take(self, now: float) -> bool:
        """Ask for the keyboard; False (and a notice) when it cannot work."""
        if self.in_control or self._mode is ControlMode.REQUESTING:
            return True
        reason = self._cannot_take()
        if reason:
            self._notices.append(Notice(reason, "warning"))
            self._status_changed()
            return False
        self._want_control = True
        self._move(ControlEvent.REQUEST, now)
        if self._arbitrated():
            self._send(self._encode(lambda a: a.encode_take()))
        else:
            self._move(ControlEvent.GRANTED, now)  # nobody arbitrates: ours to take
        return True

    def release(self, now: float) -> None:
        """Hand the keyboard back: no input leaves from now on."""
        self._want_control = False
        if self._mode not in (ControlMode.CONTROL, ControlMode.REQUESTING):
            return
        self._move(ControlEvent.RELEASE, now)
        if self._arbitrated():
            self._send(self._encode(lambda a: a.encode_release()))
        else:
            self._move(ControlEvent.LOST, now)

    def type(self, data: bytes, now: float) -> bool:
        """Keys typed; sent (and recorded as policy says) only in control. Whether they were sent."""
        if not data or not self.in_control or self._adapter is None:
            return False
        self._last_input = now
        self._send(self._adapter.encode_input(data))
        if self.recording is not None:
            self.recording.input(data)
        if self.attention.asked is not None:
            self.attention.answered()
            self._status_changed()
        return True

    def paste(self, text: str, now: float) -> bool:
        """Pasted text, bracketed when the program asked for it."""
        return self.type(encode_paste(text, bracketed=self.model.bracketed_paste), now)

    def interrupt(self, now: float) -> bool:
        """Send one Ctrl-C; taking the keyboard for it (and handing it back) when not in control."""
        return self.reply(CTRL_C, now, told="Sent Ctrl-C to the agent")

    def reply(self, data: bytes, now: float, *, told: str = "") -> bool:
        """Send ``data`` (a line, a key) without staying in control: take the keyboard, type it
        when granted, hand it back. In control already, it is just typed. False (and a notice)
        when control cannot be taken.

        Args:
            data: the keys to send.
            now: the time.
            told: the notice once sent (default: what was sent).
        """
        if self.in_control:
            return self.type(data, now)
        if not self.take(now):
            return False
        self._reply = (data, told or f"Sent {_shown(data)} to the agent")
        if self.in_control:  # a peer without arbitration: ours at once
            self._send_reply(now)
        return True

    def view_resized(self, cols: int, rows: int, now: float) -> None:
        """The view's size; the remote PTY follows it while in control (unless kept)."""
        self._view_size = (cols, rows)
        self._follow_view()

    def choose_view(self, view: View, fps: int = TILE_FPS) -> None:
        """How the user sees this session: ``screen`` (a tile: the screen's state, at most
        ``fps`` frames a second, where :meth:`screen_allowed`; otherwise the stream is parsed
        as always) or ``stream`` (the full view). Switching to the stream continues it with no
        gap: the peer sends a last frame and a snapshot at the same offset."""
        self._view_wanted, self._fps = view, fps
        self._ask_view()

    def _ask_view(self) -> None:
        view = self._view_wanted if self.screen_allowed() else "stream"
        if view != self._view_asked and self._adapter is not None:
            self._view_asked = view
            self._send(self._adapter.encode_view(view, self._fps))
            self._paint_unread()  # a full view reads every row: at once, not at the snapshot

    def show_rows(self, rows: Callable[[int, int, int, int], range] | None) -> None:
        """Which rows the view shows of a screen of ``cols`` x ``rows`` with the cursor at
        ``(x, y)``: ``rows(cols, rows, x, y)`` (a tile's crop); ``None``: all of them.

        In the screen view a frame's rows are painted into the model where the view shows them.
        The others wait, so a tile costs the rows it shows, and are painted when they are read:
        when a frame or :meth:`shown_changed` finds them shown, when the prompt recognisers
        look at the screen (the cursor's row and a few above it, once the agent is quiet), or
        when the full view asks for the stream."""
        self._view_rows = rows
        self.shown_changed()

    def shown_changed(self) -> None:
        """The view's crop may show other rows now (it was resized): paint those waiting."""
        self._paint_unread()

    def _rows_read(self) -> set[int] | None:
        """The rows of the screen view's screen that the view shows (``None``: all)."""
        view = self._screen
        if self._view_rows is None or self._view_asked != "screen":
            return None
        return set(self._view_rows(view.cols, view.rows, *view.cursor))

    def _paint_unread(self, also: range = range(0)) -> None:
        """Paint the rows that wait unpainted and are read now (or are in ``also``); after the
        output waiting for the model, or at once when none waits."""
        view = self._screen
        if not view.unpainted or not self.show:
            return
        read = self._rows_read()
        if read is not None:
            read.update(also)
        rows = view.due(set(), read)
        if not rows:
            return
        data = view.repaint(rows, notifications=False)
        last = self._inbox[-1] if self._inbox else None
        if isinstance(last, _Chunk):  # the same chunk: the bell is still judged on it alone
            self._inbox[-1] = _Chunk(last.number, last.data + data)
            self._backlog += len(data)
        else:  # nothing waits, or a snapshot does (which paints every row again)
            self._changed(self.model.feed(data), False)

    def mark(self, text: str, now: float) -> None:
        """The user's own marker in the recording."""
        if self.recording is not None:
            self.recording.mark(sanitize_title(text))

    def tick(self, now: float) -> None:
        """Call about once a second: hands control back after ``idle_release`` idle seconds."""
        if self.in_control and now - self._last_input >= self.idle_release:
            self.release(now)
            self._notices.append(
                Notice(f"Back to watching after {self.idle_release:.0f} s without typing.")
            )
            self._status_changed()

    def close(self) -> None:
        """The session is over: close the recording."""
        if self.recording is not None:
            self.recording.close()

    # -- the model (the view's feeder calls this in time slices) --------------------------------

    def check_backlog(self, now: float) -> None:
        """Skip ahead: ask for a snapshot when the waiting output would take too long to parse
        (never in the screen view: what waits there is a few rows)."""
        if self._view_asked == "stream" and self.catch_up.pays(self._backlog, now):
            self.resync()

    def resync(self) -> bool:
        """Ask for a fresh snapshot and skip the output before it; False where the peer has none."""
        caps = self._capabilities
        if caps is None or not caps.snapshot or self._adapter is None:
            return False
        self._send(self._adapter.encode_resync())
        self.catch_up.resyncing = True
        self.resyncs += 1
        self._drop_waiting_output()
        return True

    def feed(self, budget: int, now: float) -> int:
        """Feed the model up to ``budget`` bytes of waiting output (or one step); bytes fed.

        The newest chunk received is fed on its own: whether the latest output rang the bell
        (an agent asking something) is judged on it alone.
        """
        inbox = self._inbox
        if not inbox:
            return 0
        if not isinstance(inbox[0], _Chunk):
            self._step(inbox.popleft(), now)
            return 0
        parts: list[bytes] = []
        size, last = 0, 0
        while inbox and isinstance(inbox[0], _Chunk) and size < budget:
            if parts and inbox[0].number == self._chunks:
                break
            chunk = inbox.popleft()
            assert isinstance(chunk, _Chunk)
            data, last = chunk.data, chunk.number
            if size + len(data) > budget:
                inbox.appendleft(_Chunk(last, data[budget - size :]))
                data = data[: budget - size]
            parts.append(data)
            size += len(data)
        self._backlog -= size
        model = self.model
        bells = model.bells
        dirty = model.feed(b"".join(parts) if len(parts) > 1 else parts[0])
        newest = last == self._chunks and not (inbox and isinstance(inbox[0], _Chunk))
        if newest:
            self._bell_rang_last = model.bells != bells
        self._title = model.title or self._title
        self._notified(now)
        self._changed(dirty, False)
        return size

    def parsed(self, size: int, seconds: float) -> None:
        """The feeder's measurement of how long ``size`` bytes took to parse."""
        self.catch_up.rate.note(size, seconds)

    # -- applying what the peer said ------------------------------------------------------------

    def _apply(self, event: Event, now: float) -> None:
        self._log(event)
        match event:
            case OutputReceived(data, offset):
                self._output(data, offset, now)
            case SnapshotReceived():
                self._snapshot(event, now)
            case ScreenReceived():
                self._screen_frame(event, now)
            case SessionStarted():
                self._started(event, now)
            case Resized(cols, rows):
                self._remote_size = (cols, rows)
                if self.recording is not None:
                    self.recording.resized(cols, rows)
                self._queue(event)
            case ControlChanged(holder):
                self._holder = "none" if holder == "you" else holder
                self._move(ControlEvent.GRANTED if holder == "you" else ControlEvent.LOST, now)
                self._note_holder()
            case ControlRefused(code, message):
                self._watch_only = self._watch_only or code == "watch_only"
                self._reply = None
                if allows(self._mode, ControlEvent.DENIED):
                    self._move(ControlEvent.DENIED, now)
                self._want_control = False
                self._tell(sanitize_title(message) or code, "warning")
            case PresenceChanged(watchers):
                self._watchers = watchers
                self._status_changed()
            case TitleChanged(title):
                self._title = sanitize_title(title)
            case Exited(status):
                self._exit(status, now)
            case EchoChanged(on):
                self._echo = on
                if self.recording is not None:
                    self.recording.echo(on=on)
            case ErrorReported(code, message):
                self._tell(sanitize_title(message) or code, "warning")
            case ProtocolViolation(reason):
                self._tell(
                    f"The endpoint sent something malformed: {sanitize_title(reason)}", "warning"
                )

    def _started(self, event: SessionStarted, now: float) -> None:
        caps = self._capabilities
        self.identifier = sanitize_title(event.identifier) or self.identifier
        self._title = sanitize_title(event.title) or self._title
        self._holder = "none" if event.holder == "you" else event.holder
        self._watchers = event.watchers if caps is not None and caps.watchers else None
        self._remote_size = (event.cols, event.rows)
        self._complete = event.complete
        if event.may_control is not None:  # the server says what the token allows: no asking
            self._watch_only = not event.may_control
        recording = self.recording
        if recording is not None:
            if self._connections > 1:
                recording.reconnected()
            recording.started(event.cols, event.rows, event.title, complete=event.complete)
        if self._connections > 1 and caps is not None and caps.reconnect != "resume":
            if recording is not None:
                recording.restarted(new_program=caps.reconnect == "new program")
            self._inbox.clear()
            self._backlog = 0
            self._queue(_Reset())
        if self._connections > 1:
            self._notices.append(Notice(self._rejoined(caps)))
        if (event.cols, event.rows) != (self.model.cols, self.model.rows):
            self._queue(Resized(event.cols, event.rows))
        if event.mode == "control":
            self._move(ControlEvent.GRANTED, now)
        elif self._want_control and not self._watch_only:
            self._move(ControlEvent.REQUEST, now)
            if not self._arbitrated():
                self._move(ControlEvent.GRANTED, now)
        self._status_changed()

    def _heard(self, now: float) -> None:
        """The agent printed something (bytes, or a screen its output changed)."""
        if self.attention.output(now):
            self._status_changed()  # it printed again well after asking: answered elsewhere
        self._last_output = now

    def _printed_since(self, offset: int) -> bool:
        """Whether a screen at stream ``offset`` shows output this session has not had: only
        then is a snapshot or a frame the agent printing (opening a tile, going back or a
        reconnect with nothing missed repaints the same screen, and must not end a wait)."""
        return self._next_offset is None or offset > self._next_offset

    def _output(self, data: bytes, offset: int, now: float) -> None:
        self._heard(now)
        self._framed = False
        self._chunks += 1
        self._next_offset = offset + len(data)
        if self.recording is not None:
            self.recording.output(data, offset)
        if self.show and not self.catch_up.resyncing:
            self._inbox.append(_Chunk(self._chunks, data))
            self._backlog += len(data)

    def _snapshot(self, event: SnapshotReceived, now: float) -> None:
        # Bytes were lost when the snapshot starts past what we received, unless we asked to
        # skip them (a resync): the screen is whole either way, the recording marks the gap.
        skipped = self._next_offset is not None and event.offset > self._next_offset
        lost = skipped and not self.catch_up.resyncing
        if self._last_output is None or self._printed_since(event.offset):
            self._last_output = now
        self._next_offset = event.offset
        self._remote_size = (event.cols, event.rows)
        self._complete = True
        self.snapshots += 1
        if self.recording is not None:
            self.recording.snapshot(event.data, event.cols, event.rows, event.offset)
        self.catch_up.snapshot_applied(0, now)
        if lost:
            self._gaps += 1
            self._tell("Some output was missed while disconnected; showing the current screen")
        if self.show:
            self._inbox.clear()  # a snapshot replaces the screen: nothing before it matters
            self._backlog = 0
            self._queue(event)

    def _screen_frame(self, event: ScreenReceived, now: float) -> None:
        """Rows that changed (the screen view): their repaint is fed like output, through the
        one inbox; a frame that replaces the screen is fed like a snapshot."""
        if self._printed_since(event.offset):
            self._heard(now)
        self._framed = True
        self._chunks += 1
        self._next_offset = event.offset  # the stream, when asked for again, goes on from here
        self._remote_size = (event.cols, event.rows)
        self._title = sanitize_title(event.title) or self._title
        if not self.show:
            return
        view = self._screen
        whole = event.full or (event.cols, event.rows) != (view.cols, view.rows)
        changed = view.apply(event)
        data = view.repaint(changed if whole else view.due(changed, self._rows_read()))
        if whole:
            self._drop_waiting_output()  # the frame replaces all of it
            self._queue(SnapshotReceived(data, event.cols, event.rows, event.offset, False))
        else:
            self._inbox.append(_Chunk(self._chunks, data))
            self._backlog += len(data)

    def _exit(self, status: int | None, now: float) -> None:
        if self._exited:
            return
        self._exited, self._exit_status = True, status
        self._drop_control()
        self._want_control = False
        if self.recording is not None:
            self.recording.exited(status)
        self._tell(self._exit_reason())
        if self.stop_at_exit:
            self.quit()
            self.close_requested = True
            if self.on_outgoing is not None:
                self.on_outgoing()

    # -- control --------------------------------------------------------------------------------

    def _move(self, event: ControlEvent, now: float) -> None:
        was = self.in_control
        self._mode = next_mode(self._mode, event)
        if self.in_control == was:
            self._status_changed()
            return
        self._note_holder()
        if self.in_control:
            self._last_input = now
            self._follow_view()
            if self._reply is not None:
                self._send_reply(now)
        self._status_changed()

    def _drop_control(self) -> None:
        """The connection or the program is gone: nothing holds the keyboard here any more."""
        self._reply = None  # typed for this connection's agent, never for the next one
        if self._mode is ControlMode.REQUESTING:
            self._mode = next_mode(self._mode, ControlEvent.RELEASE)
        if self._mode is not ControlMode.WATCH:
            self._mode = next_mode(self._mode, ControlEvent.LOST)
        self._holder = "none"
        self._note_holder()

    def _note_holder(self) -> None:
        """Tell the recording who holds the keyboard (its takeover markers follow it)."""
        if self.recording is not None:
            self.recording.held("you" if self.in_control else self._holder)

    def _send_reply(self, now: float) -> None:
        if self._reply is None:
            return
        (data, told), self._reply = self._reply, None
        self.type(data, now)
        self.release(now)
        self._notices.append(Notice(told))

    def _cannot_take(self) -> str:
        if self._exited:
            return "The agent has exited; there is nothing to type into."
        if self._watch_only:
            return "This token allows watching only: ask for a control token to type."
        if self._adapter is None:
            if self._connection == "closed":  # no retry comes: "once it is back" never is
                return "The connection is closed for good — open the session again to type into it."
            return "Not connected: control can be taken once the connection is back."
        if self._holder == "other":
            return (
                "Another client holds control of this session. You can take it once they "
                "hand it back (ctrl+] on their side)."
            )
        return ""

    def _arbitrated(self) -> bool:
        caps = self._capabilities
        return caps is None or caps.arbitration == "server"

    def _follow_view(self) -> None:
        caps, view = self._capabilities, self._view_size
        if not self.in_control or not self.follow_size or view is None or caps is None:
            return
        if caps.resize and view != self._remote_size:
            self._send(self._encode(lambda a: a.encode_resize(*view)))

    # -- plumbing -------------------------------------------------------------------------------

    def _encode(self, make: Callable[[Adapter], list[Message]]) -> list[Message]:
        return make(self._adapter) if self._adapter is not None else []

    def _send(self, messages: list[Message]) -> None:
        if messages:
            self._outbox.extend(messages)
            if self.on_outgoing is not None:
                self.on_outgoing()

    def _queue(self, step: _Step) -> None:
        if self.show:
            self._inbox.append(step)

    def _drop_waiting_output(self) -> None:
        self._inbox = deque(step for step in self._inbox if not isinstance(step, _Chunk))
        self._backlog = 0

    def _step(self, step: _Step, now: float) -> None:
        model = self.model
        if isinstance(step, SnapshotReceived):
            if (step.cols, step.rows) == (model.cols, model.rows):
                # The same model, reset: the scrollback stays browsable across a resync.
                model.feed(RESET + step.data)
            else:
                self.model = TerminalModel(step.cols, step.rows, self.scrollback, self._caches)
                self.model.feed(step.data)
            self._title = self.model.title or self._title
        elif isinstance(step, Resized):
            model.resize(step.cols, step.rows)
        elif isinstance(step, _Reset):
            model.feed(RESET)
        self._notified(now)
        self._changed(set(), True)

    def _notified(self, now: float) -> None:
        """Take what the agent sent to be noticed: state, and markers in the recording."""
        events = self.model.take_notifications()
        if not events:
            return
        for text in self.attention.notified(events, now):
            if self.recording is not None:
                self.recording.notification(text)
        if not all(isinstance(event, BellRung) for event in events):
            self._status_changed()

    def _changed(self, dirty: set[int], whole: bool) -> None:
        if whole:
            self._shown.clear()
        else:
            dirty = self._rows_that_changed(dirty)
        for listener in list(self._listeners):
            listener(dirty, whole)

    def _rows_that_changed(self, dirty: set[int]) -> set[int]:
        """The rows among ``dirty`` whose cells differ from when they were last reported.

        The model reports every row written; an Ink UI erases and redraws its whole region for
        each change of a line or two, so most rows it writes are what they were: views repaint
        only the others."""
        model, shown = self.model, self._shown
        changed = set()
        for y in dirty:
            row = model.row_key(y)
            if shown.get(y) != row:
                shown[y] = row
                changed.add(y)
        return changed

    def _tell(self, text: str, severity: Severity = "information") -> None:
        if severity != "information":
            self._last_error = text
        self._notices.append(Notice(text, severity))
        self._status_changed()

    def _status_changed(self) -> None:
        if self.on_status is not None:
            self.on_status()

    def _log(self, entry: Event | Opened | Decision) -> None:
        if self.on_event is not None:
            self.on_event(entry)

    def _decided(self, decision: Decision, now: float) -> Decision:
        self._log(decision)
        if isinstance(decision, Retry):
            self._connection = "reconnecting"
            self._retry_at = now + decision.delay
        else:
            self._connection, self._retry_at = "closed", None
            self._reason = decision.reason
        self._status_changed()
        return decision

    def _exit_reason(self) -> str:
        caps = self._capabilities
        status = "" if self._exit_status is None else f" with status {self._exit_status}"
        text = f"The agent exited{status}"
        if caps is not None and caps.reconnect == "new program":
            text += " (a new connection would start a new program)"
        return text

    def _rejoined(self, caps: Capabilities | None) -> str:
        if caps is not None and caps.reconnect == "new program":
            return "Reconnected: the peer started a new program"
        if caps is not None and caps.reconnect == "rejoin":
            return "Reconnected: output sent while disconnected was lost"
        return "Reconnected"

    def _prompt(self, now: float) -> Match | None:
        """The prompt the screen shows, looked for once the agent has been quiet long enough."""
        last = self._last_output
        if self._exited or last is None or now - last < WAIT_AFTER_PROMPT:
            return None
        self._paint_unread(rows_read(self.model.cursor_y))  # what a tile's crop left unpainted
        return self.attention.prompt(self.model)


def _shown(data: bytes) -> str:
    """Keys as a person reads them in a notice (Enter as ⏎, other controls as ^X)."""
    text = data.decode("utf-8", "replace")
    shown = "".join(
        "⏎" if char == "\r" else f"^{chr(ord(char) + 64)}" if ord(char) < 32 else char
        for char in text
    )
    return repr(sanitize_title(shown))
