"""Control: who holds the keyboard, taking it, typing, handing it back, and the resize policy.

:class:`Control` keeps this client's place in the mode table (:mod:`observer.protocol.modes`,
strict: a pair it does not know raises), the holder the peer reports, and what the user wants.
A peer that arbitrates nothing (ttyd, Jupyter, raw bridges) is taken on our side: asking is
granting. Keys leave only in control; a reply (a line, a key, Ctrl-C) takes the keyboard, is
typed once granted, and hands it back. While in control the remote PTY follows the view's size
unless the user keeps the remote size; watchers never resize. Control is handed back after
``idle_release`` seconds without typing.

Where the peer says who is connected (native ``people`` frames: :class:`Presence`), taking a
keyboard somebody else holds *asks* them for it; the holder is told who asks
(:class:`~observer.client.events.KeyboardAsked`) and answers with :meth:`Control.hand_over` or
:meth:`Control.decline`. The server moves the keyboard; this side follows its ``control`` frame.
"""

from __future__ import annotations

from observer.client.attention import AttentionTracker
from observer.client.events import KeyboardAsked, Outlet
from observer.client.lifecycle import Lifecycle
from observer.client.parse_queue import ParseQueue
from observer.client.people import Presence, grouped
from observer.client.recording_policy import RecordingPolicy
from observer.protocol.adapter import HandsOver
from observer.protocol.events import Holder, PeopleListed, SessionStarted
from observer.protocol.modes import ControlEvent, ControlMode, allows, may_send_input, next_mode
from observer.terminal.sanitize import sanitize_title

M = ControlMode


class Control:
    """One session's side of the keyboard (see the module docstring).

    Args:
        life: the connection's life (the adapter to encode with, the peer's capabilities).
        queue: the model's queue (a peer that never reports its size takes the size sent).
        outlet: where messages and notices are queued.
        attention: what the agent asked (typing answers it).
        recording: the recording policy, if the session is recorded.
        want: ask for the keyboard at connect.
        follow_size: while in control, resize the remote PTY to the view.
        idle_release: hand control back after this many seconds without typing.
    """

    def __init__(
        self,
        life: Lifecycle,
        queue: ParseQueue,
        outlet: Outlet,
        attention: AttentionTracker,
        recording: RecordingPolicy | None,
        *,
        want: bool,
        follow_size: bool,
        idle_release: float,
    ) -> None:
        self._life, self._queue, self._outlet, self._attention = life, queue, outlet, attention
        self._recording = recording
        self.want = want
        self.follow_size = follow_size
        self.idle_release = idle_release
        self.mode = ControlMode.WATCH
        self.holder: Holder = "none"
        """Who holds the keyboard as the peer says (``you`` is :attr:`in_control`)."""
        self.watch_only = False
        self.view_size: tuple[int, int] | None = None
        self.pinned_size: tuple[int, int] | None = None
        """The size the user chose for the remote PTY in control (None: the view's)."""
        self._reply: tuple[bytes, str] | None = None
        """Keys to send once control is granted, then hand it back; and the notice then."""
        self._last_input = 0.0
        self.presence: Presence | None = None
        """Who is connected, as the peer last said (None: it does not say)."""
        self._asked: frozenset[int] = frozenset()
        """The connections whose requests the user was told of."""
        self._holder_name = ""
        """The other holder's label, as the peer last named them."""

    @property
    def in_control(self) -> bool:
        """Whether keys typed now are sent."""
        return may_send_input(self.mode)

    def started(self, event: SessionStarted, now: float) -> None:
        """The peer's hello: who holds the keyboard, whether this token may, and our ask."""
        self.holder = "none" if event.holder == "you" else event.holder
        if event.may_control is not None:  # the server says what the token allows: no asking
            self.watch_only = not event.may_control
        if event.mode == "control":
            self._move(ControlEvent.GRANTED, now)
        elif self.want and not self.watch_only:
            self._move(ControlEvent.REQUEST, now)
            if not self._life.arbitrated():
                self._move(ControlEvent.GRANTED, now)

    def holder_changed(self, holder: Holder, now: float) -> None:
        """The peer moved the keyboard to ``holder``."""
        self.holder = "none" if holder == "you" else holder
        self._move(ControlEvent.GRANTED if holder == "you" else ControlEvent.LOST, now)
        self._note_holder()

    def refused(self, code: str, message: str, now: float) -> None:
        """The peer refused control (``watch_only``: this token never may)."""
        self.watch_only = self.watch_only or code == "watch_only"
        self._reply = None
        if allows(self.mode, ControlEvent.DENIED):
            self._move(ControlEvent.DENIED, now)
        self.want = False
        self._life.tell(sanitize_title(message) or code, "warning")

    def drop(self) -> None:
        """The connection or the program is gone: nothing holds the keyboard here any more."""
        self._reply = None  # typed for this connection's agent, never for the next one
        if self.mode in (M.REQUESTING, M.ASKING):
            self.mode = next_mode(self.mode, ControlEvent.RELEASE)
        if self.mode is not ControlMode.WATCH:
            self.mode = next_mode(self.mode, ControlEvent.LOST)
        self.holder = "none"
        self.presence, self._asked, self._holder_name = None, frozenset(), ""
        self._note_holder()

    def people_listed(self, event: PeopleListed, now: float) -> None:
        """The peer said who is connected, who holds the keyboard and who asks for it."""
        self.presence = presence = Presence(event.you, event.holder, event.people)
        if presence.holder is not None and presence.holder != presence.you:
            # Sent before the ``control`` frame that moves the keyboard: the name is known
            # when the recording is told who holds it.
            self._holder_name = presence.holder_label
        if self.mode is M.RELEASED and presence.holder != presence.you:
            self._move(ControlEvent.LOST, now)  # a withdrawn request: no control frame follows
        askers = presence.askers if self.in_control else ()
        asking = frozenset(p.id for p in askers)
        if asking and self.mode is M.CONTROL:
            self._move(ControlEvent.ASKED, now)
        elif not asking and self.mode is M.ASKED:
            self._move(ControlEvent.ANSWERED, now)
        for person in askers:
            if person.id not in self._asked:
                self._outlet.post(KeyboardAsked(person.id, person.label))
                self._outlet.tell(f"{person.label} asks for the keyboard")
        self._asked = asking
        self._note_holder()
        self._outlet.status_changed()

    def hand_over(self, to: int, now: float) -> bool:
        """Give the keyboard we hold to connection ``to`` (the server moves it). Whether sent."""
        adapter = self._life.adapter
        if not self.in_control or not isinstance(adapter, HandsOver):
            return False
        self._outlet.send(adapter.encode_hand(to))
        return True

    def decline(self, to: int, now: float) -> bool:
        """Keep the keyboard; connection ``to``'s request is answered no. Whether sent."""
        adapter = self._life.adapter
        if not self.in_control or not isinstance(adapter, HandsOver) or to not in self._asked:
            return False
        self._outlet.send(adapter.encode_decline(to))
        return True

    def take(self, now: float) -> bool:
        """Ask for the keyboard; False (and a notice) when it cannot work. Held by somebody
        else on a peer that says who: ask them."""
        if self.in_control or self.mode in (M.REQUESTING, M.ASKING):
            return True
        reason = self.cannot_take()
        if reason:
            self._outlet.tell(reason, "warning")
            return False
        adapter = self._life.adapter
        if self.holder == "other" and isinstance(adapter, HandsOver):
            self._move(ControlEvent.ASK, now)
            self._outlet.send(adapter.encode_ask())
            self._outlet.tell(f"Asked {self.holder_label or 'the holder'} for the keyboard.")
            return True
        self.want = True
        self._move(ControlEvent.REQUEST, now)
        adapter = self._life.adapter
        if not self._life.arbitrated():
            self._move(ControlEvent.GRANTED, now)  # nobody arbitrates: ours to take
        elif adapter is not None:
            self._outlet.send(adapter.encode_take())
        return True

    def release(self, now: float) -> None:
        """Hand the keyboard back: no input leaves from now on."""
        self.want = False
        if self.mode not in (M.CONTROL, M.REQUESTING, M.ASKED, M.ASKING):
            return
        self._move(ControlEvent.RELEASE, now)
        adapter = self._life.adapter
        if not self._life.arbitrated():
            self._move(ControlEvent.LOST, now)
        elif adapter is not None:
            self._outlet.send(adapter.encode_release())

    def type(self, data: bytes, now: float) -> bool:
        """Keys typed; sent (and recorded as policy says) only in control. Whether they were sent."""
        adapter = self._life.adapter
        if not data or not self.in_control or adapter is None:
            return False
        self._last_input = now
        self._outlet.send(adapter.encode_input(data))
        if self._recording is not None:
            self._recording.input(data)
        if self._attention.asked is not None:
            self._attention.answered()
            self._outlet.status_changed()
        return True

    def reply(self, data: bytes, now: float, told: str) -> bool:
        """Send ``data`` without staying in control (see :meth:`WatchedSession.reply`)."""
        if self.in_control:
            return self.type(data, now)
        if not self.take(now):
            return False
        self._reply = (data, told or f"Sent {_shown(data)} to the agent")
        if self.in_control:  # a peer without arbitration: ours at once
            self._send_reply(now)
        return True

    def view_resized(self, cols: int, rows: int) -> None:
        """The view's size; the remote PTY follows it while in control (unless kept)."""
        self.view_size = (cols, rows)
        self._follow_view()

    def tick(self, now: float) -> None:
        """Hand control back after ``idle_release`` seconds without typing."""
        if self.in_control and now - self._last_input >= self.idle_release:
            self.release(now)
            self._outlet.tell(f"Back to watching after {self.idle_release:.0f} s without typing.")

    def cannot_take(self) -> str:
        """Why taking control cannot work now, in words for people (empty when it can)."""
        life = self._life
        if life.exited:
            return "The agent has exited; there is nothing to type into."
        if self.watch_only:
            return "This token allows watching only: ask for a control token to type."
        if life.adapter is None:
            if life.state == "closed":  # no retry comes: "once it is back" never is
                return "The connection is closed for good — open the session again to type into it."
            return "Not connected: control can be taken once the connection is back."
        if self.holder == "other" and not self.may_ask:
            return (
                "Another client holds control of this session. You can take it once they "
                "hand it back (ctrl+] on their side)."
            )
        return ""

    @property
    def may_ask(self) -> bool:
        """Whether taking the keyboard from its holder asks them (the peer says who is here)."""
        return self.presence is not None and isinstance(self._life.adapter, HandsOver)

    @property
    def holder_label(self) -> str:
        """Who holds the keyboard by name (empty: nobody, us, or the peer does not say)."""
        presence = self.presence
        if presence is None or presence.holder == presence.you:
            return ""
        return presence.holder_label

    def _move(self, event: ControlEvent, now: float) -> None:
        was = self.in_control
        self.mode = next_mode(self.mode, event)
        if self.in_control != was:
            self._note_holder()
            if self.in_control:
                self._last_input = now
                self._follow_view()
                self._send_reply(now)
        self._outlet.status_changed()

    def _note_holder(self) -> None:
        """Tell the recording who holds the keyboard, by name where the peer says, and who
        watches (its takeover and handover markers follow it)."""
        if self._recording is None:
            return
        holder: Holder = "you" if self.in_control else self.holder
        presence, who = self.presence, ""
        holding: int | None = None
        if presence is None:  # a peer that names people does so right after its hello
            self._recording.held(holder, naming=isinstance(self._life.adapter, HandsOver))
            return
        if holder == "you":
            who, holding = presence.label(presence.you), presence.you
        elif holder == "other":
            who, holding = self._holder_name, presence.holder
        watching = grouped(p.label for p in presence.people if p.id != holding)
        self._recording.held(holder, who, watching)

    def _send_reply(self, now: float) -> None:
        if self._reply is None:
            return
        (data, told), self._reply = self._reply, None
        self.type(data, now)
        self.release(now)
        self._outlet.tell(told)

    def _follow_view(self) -> None:
        caps, adapter = self._life.capabilities, self._life.adapter
        view = self.pinned_size or self.view_size
        if not self.in_control or not self.follow_size or view is None or caps is None:
            return
        if caps.resize and view != self._life.remote_size and adapter is not None:
            self._outlet.send(adapter.encode_resize(*view))
            if not caps.reports_size:  # ttyd, Jupyter: the PTY takes it and nobody says so
                self._queue.remote_resized(*view)


def _shown(data: bytes) -> str:
    """Keys as a person reads them in a notice (Enter as ⏎, other controls as ^X)."""
    text = data.decode("utf-8", "replace")
    shown = "".join(
        "⏎" if char == "\r" else f"^{chr(ord(char) + 64)}" if ord(char) < 32 else char
        for char in text
    )
    return repr(sanitize_title(shown))
