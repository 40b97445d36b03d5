"""The client session core's façade: one :class:`WatchedSession` per watched session, no I/O.

The watch screen, every dashboard tile, both recorders and the tests drive it; time is passed in.
Its parts: :mod:`.lifecycle`, :mod:`.control`, :mod:`.parse_queue`, :mod:`.tile_view`,
:mod:`.attention`, :mod:`.recording_policy`; :mod:`.peer_events` applies what the peer says to
them, :mod:`.derived` adds them up into a status and :mod:`.session_reads` shows what they keep.
In: the connection's life, the user's intentions and the feeder's slices. Out, one way: it queues what happened (:meth:`take_events`,
:mod:`.events`) and what to send (:meth:`data_to_send`); the shells drain both.
"""

from __future__ import annotations

from collections.abc import Callable

from observer.client import DEFAULT_IDLE_RELEASE, DEFAULT_SCROLLBACK
from observer.client.attention import AttentionTracker, rows_read
from observer.client.control import Control
from observer.client.derived import Derived
from observer.client.events import Outlet, SessionEvent
from observer.client.lifecycle import JoinRequest, Lifecycle
from observer.client.notify import Question, read_question
from observer.client.parse_queue import FeedTap, ParseQueue
from observer.client.peer_events import Parts, PeerEvents
from observer.client.recognisers import Recognisers
from observer.client.reconnect import Backoff, Decision, ReconnectPolicy
from observer.client.recording_policy import RecordingPolicy
from observer.client.session_reads import SessionReads
from observer.client.status import SessionStatus
from observer.client.tile_view import TILE_FPS, RowsShown, TileView
from observer.protocol.adapter import Adapter, Message
from observer.protocol.screen_frames import View
from observer.terminal.keys import encode_paste
from observer.terminal.sanitize import sanitize_title

CTRL_C = b"\x03"


class WatchedSession(SessionReads):
    """One watched session (see the module docstring).

    Args:
        identifier: the session identifier asked for.
        want_control: ask for the keyboard at connect.
        size: the view's size until the view says (cols, rows); also ttyd's init size.
        scrollback: lines of scrollback the model keeps (0 for tiles).
        recording: the recording policy, if this session is recorded.
        reconnect: the reconnect policy (default: reconnect, fail fast on the first attempt).
        follow_size: while in control, resize the remote PTY to the view (False: keep its size).
        remote_size: while in control, resize the remote PTY to this, not to the view (also
            the size announced where the protocol asks: ttyd).
        idle_release: hand control back after this many seconds without typing.
        show: feed a terminal model (False: nothing is parsed, so no notification is found).
        stop_at_exit: end the session when the program exits (a recorder; otherwise it stays).
        recognisers: the rules that name the agent's notifications and prompts (``agents.toml``).
        log_peer_events: queue every event the peer sent (tests and tools read the log).
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
        remote_size: tuple[int, int] | None = None,
        idle_release: float = DEFAULT_IDLE_RELEASE,
        show: bool = True,
        stop_at_exit: bool = False,
        recognisers: Recognisers | None = None,
        log_peer_events: bool = False,
    ) -> None:
        self._recording = recording
        self._outlet = outlet = Outlet(log_peer_events=log_peer_events)
        self._attention = attention = AttentionTracker(recognisers)
        policy = reconnect or ReconnectPolicy(Backoff(0.5, 10.0))
        self._life = life = Lifecycle(
            outlet, recording, policy, identifier=identifier, size=size, stop_at_exit=stop_at_exit
        )
        self._queue = queue = ParseQueue(
            life, outlet, attention, recording, size=size, scrollback=scrollback, show=show
        )
        self._control = control = Control(
            life, queue, outlet, attention, recording, want=want_control, follow_size=follow_size,
            idle_release=idle_release,
        )  # fmt: skip
        control.pinned_size = remote_size
        self._tile = tile = TileView(life, queue, outlet, recorded=recording is not None)
        parts = Parts(life, control, queue, tile, attention, outlet, recording)
        self._peer = peer = PeerEvents(parts)
        self._derived = Derived(parts, peer)

    def screen_allowed(self) -> bool:
        """Whether this session may watch the screen's state (:meth:`TileView.allowed`)."""
        return self._tile.allowed()

    def status(self, now: float) -> SessionStatus:
        """The session as views show it at ``now``."""
        return self._derived.status(now)

    def tap_feed(self, tap: FeedTap | None) -> None:
        """Hand ``tap`` every byte the model is fed from now on, and each change of its size
        (live rewind's history); None stops."""
        self._queue.tap = tap

    def question(self) -> Question:
        """What the screen asks now, as the recognisers read it (told to a notify command)."""
        self._tile.paint_unread(rows_read(self._tile.cursor_row()))
        return read_question(self._queue.model, self._attention.recognisers)

    def take_events(self) -> list[SessionEvent]:
        """What happened since the last call, in order (:mod:`observer.client.events`)."""
        return self._outlet.take_events()

    def data_to_send(self) -> list[Message]:
        """Messages to write to the connection, in order; empties the outbox."""
        return self._outlet.data_to_send()

    def wake_with(self, ring: Callable[[], object] | None) -> None:
        """Call ``ring()`` (no arguments, nothing to read) whenever an event or a message is
        queued, so a shell's writer or view need not poll; the shell then drains the queues."""
        self._outlet.ring_with(ring)

    def use_recognisers(self, recognisers: Recognisers) -> None:
        """Name the agent's notifications and prompts with ``recognisers`` from now on."""
        self._attention.recognisers = recognisers

    def join_request(self) -> JoinRequest:
        """What the next connection should ask for."""
        control = self._control
        return self._life.join_request(
            control=control.want, size=control.pinned_size or control.view_size
        )

    def connection_opened(self, adapter: Adapter, now: float) -> None:
        """A connection is up, speaking through ``adapter``."""
        self._queue.catch_up.resyncing = False
        self._life.opened(adapter, now)
        self._tile.connection_opened()

    def received(self, message: Message, now: float) -> None:
        """One message from the peer."""
        self._peer.received(message, now)

    def connection_failed(self, reason: str, *, retryable: bool, now: float) -> Decision:
        """An attempt to connect failed before the upgrade."""
        return self._life.failed(reason, retryable=retryable, now=now)

    def connection_closed(
        self,
        reason: str,
        *,
        code: int | None,
        now: float,
        timed_out: bool = False,
        refused: bool = False,
    ) -> Decision:
        """The connection ended (the arguments: :meth:`Lifecycle.closed`)."""
        self._control.drop()
        decision = self._life.closed(
            reason, code=code, now=now, timed_out=timed_out, refused=refused
        )
        self._control.want = self._control.want and not self._life.exited
        return decision

    def request_quit(self) -> None:
        """The user is leaving: the close that follows is not a drop."""
        self._life.quit_requested = True

    def measured(self, latency: float | None) -> None:
        """The keepalive's last round-trip time."""
        self._life.latency = latency

    def end_recording(self) -> None:
        """The session is over: finish the recording's file."""
        if self._recording is not None:
            self._recording.close()

    def take(self, now: float) -> bool:
        """Ask for the keyboard; False (and a notice) when it cannot work."""
        return self._control.take(now)

    def release(self, now: float) -> None:
        """Hand the keyboard back: no input leaves from now on."""
        self._control.release(now)

    def hand_over(self, to: int, now: float) -> bool:
        """Give the keyboard we hold to connection ``to`` (a watcher who asked, or any whose
        token may control); False when we do not hold it or the peer cannot hand over."""
        return self._control.hand_over(to, now)

    def decline(self, to: int, now: float) -> bool:
        """Keep the keyboard: connection ``to``'s request is answered no."""
        return self._control.decline(to, now)

    def type(self, data: bytes, now: float) -> bool:
        """Keys typed; sent (and recorded as policy says) only in control. Whether they were sent."""
        return self._control.type(data, now)

    def paste(self, text: str, now: float) -> bool:
        """Pasted text, bracketed when the program asked for it."""
        return self.type(encode_paste(text, bracketed=self.model.bracketed_paste), now)

    def interrupt(self, now: float) -> bool:
        """Send one Ctrl-C; taking the keyboard for it (and handing it back) when not in control."""
        return self.reply(CTRL_C, now, told="Sent Ctrl-C to the agent")

    def reply(self, data: bytes, now: float, *, told: str = "") -> bool:
        """Send ``data`` (a line, a key) without staying in control: take the keyboard, type it
        when granted, hand it back (in control already, it is just typed); ``told``: the notice
        once sent (default: what was sent). False (and a notice) when control cannot be taken."""
        return self._control.reply(data, now, told)

    def view_resized(self, cols: int, rows: int, now: float) -> None:
        """The view's size; the remote PTY follows it while in control (unless kept)."""
        self._control.view_resized(cols, rows)

    def choose_view(self, view: View, fps: int = TILE_FPS) -> None:
        """How the user sees this session: ``screen`` (a tile: the screen's state, at most
        ``fps`` frames a second, where :meth:`screen_allowed`) or ``stream`` (the full view,
        continued with no gap: the peer sends a last frame and a snapshot at the same offset)."""
        self._tile.choose(view, fps)

    def show_rows(
        self, rows: RowsShown | None, columns: int | None = None, *, drawn: bool = False
    ) -> None:
        """Which rows the view shows of a screen of ``cols`` x ``rows`` with the cursor at
        ``(x, y)``: ``rows(cols, rows, x, y)`` (a tile's crop); ``None``: all of them; and how
        many columns from the first (``None``: all) (:mod:`observer.client.tile_view` says
        when the others are painted); ``drawn``: the view draws them from the screen view's
        frames itself (:meth:`screen_line`)."""
        self._tile.show_rows(rows, columns, drawn=drawn)

    def screen_cursor(self) -> tuple[int, int, bool] | None:
        """The cursor (column, row, visible) as the screen view's last frame places it, where
        the view draws its rows from the frames (``None``: :attr:`model`'s)."""
        return self._tile.cursor()

    def screen_line(self, row: int) -> str | None:
        """Row ``row`` as the screen view's last frame paints it (SGR and text), where the view
        draws its rows from the frames (``None``: :attr:`model` holds it)."""
        return self._tile.line(row)

    def shown_changed(self) -> None:
        """The view's crop may show other rows now (it was resized): paint those waiting."""
        self._tile.paint_unread()

    def follow_view_size(self, follow: bool) -> None:
        """While in control, resize the remote PTY to the view (False: keep the remote size)."""
        self._control.follow_size = follow

    def mark(self, text: str, now: float) -> None:
        """The user's own marker in the recording."""
        if self._recording is not None:
            self._recording.mark(sanitize_title(text))

    def tick(self, now: float) -> None:
        """Call about once a second: hands control back after ``idle_release`` idle seconds."""
        self._control.tick(now)

    def check_backlog(self, now: float) -> None:
        """Skip ahead when the waiting output would take long to parse (not in the screen view)."""
        if self._tile.asked == "stream":
            self._queue.check_backlog(now)

    def resync(self) -> bool:
        """Ask for a fresh snapshot and skip the output before it; False where the peer has none."""
        return self._queue.resync()

    def feed(self, budget: int, now: float) -> int:
        """Feed the model up to ``budget`` bytes of waiting output (or one step); bytes fed."""
        return self._queue.feed(budget, now)

    def parsed(self, size: int, seconds: float) -> None:
        """The feeder's measurement of how long ``size`` bytes took to parse."""
        self._queue.catch_up.rate.note(size, seconds)
