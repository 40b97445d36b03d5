"""The recording policy: what a watched session writes into its recording, decided in one place.

Every recorder (``watch --record``, ``observer record``, a dashboard tile that records) drives this
through :class:`observer.client.watched.WatchedSession`, so the same events give the same file:

- the file is opened at the first screen (its size and title are the recording's header), and
  ``connect`` follows that screen's first output: players pausing on a marker (asciinema's
  ``play -m``, asciinema-player's ``pauseOnMarkers``) show what came before it, not a blank
  screen; a snapshot is written as the screen it is, preceded by a reset when something was
  written before it (a player's terminal must start from nothing, as the model does);
- output is written once per stream offset: bytes a server resends after a resync snapshot are
  already in the file and are skipped; a snapshot that skips bytes never received is a ``gap``;
- one outage is one ``disconnect`` then one ``reconnect`` (or ``gap`` / ``new program``), however
  many attempts it took;
- ``takeover start`` and ``takeover end`` come in pairs whoever holds the keyboard, from the one
  place that knows the holder; where the peer says who is connected they name the holder
  (``takeover start: alice``) and who watched (``; watching: bob``), and the keyboard moving
  from one person to another in one step is one ``handover: alice → bob``; otherwise the start
  says ``another client`` when it is not this one. A start whose name is not known yet (a
  ``hello`` that grants the keyboard comes before the ``people`` frame that names its holder)
  waits for the name until anything else is written;
- input (``"i"`` events) only when asked for, only while in control, and never while the program
  has echo off: an ``input hidden`` marker stands for those keys;
- ``exit`` from every recorder, with the status where the peer reports one.

Marker labels come from :mod:`observer.asciicast.markers` and nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from observer.asciicast.markers import HANDED, MarkerKind, attributed, label
from observer.protocol.events import Holder

RESET = b"\x18\x1b\\\x1bc"
"""CAN ends any control sequence the output before a snapshot left open (ECMA-48 8.3.8), ST any
control string, then RIS returns the terminal to its power-on state (ECMA-48 8.3.105)."""


class RecordSink(Protocol):
    """Where recorded events go (:class:`observer.recording.recorder.Recorder` is one)."""

    def output(self, data: bytes) -> None:
        """Program output."""
        ...

    def input(self, data: bytes) -> None:
        """Keys sent to the program."""
        ...

    def marker(self, label: str = "") -> None:
        """A marker."""
        ...

    def resize(self, cols: int, rows: int) -> None:
        """The terminal's new size."""
        ...

    def exit(self, status: int) -> None:
        """The program's exit status."""
        ...

    def close(self) -> None:
        """Flush and close."""
        ...


OpenSink = Callable[[int, int, str], RecordSink]
"""Creates the recording once the first screen's ``cols``, ``rows`` and title are known."""


class RecordingPolicy:
    """Turns a watched session's events into recording events (see the module docstring).

    Args:
        open_sink: creates the file at the first screen.
        record_input: write the keys sent while in control (never while echo is off).
    """

    def __init__(self, open_sink: OpenSink, *, record_input: bool = False) -> None:
        self._open_sink = open_sink
        self.record_input = record_input
        self.sink: RecordSink | None = None
        self._size = (0, 0)
        self._next: int | None = None
        """Stream offset just past the last byte written (None: no stream position yet)."""
        self._written = False
        self._outage = False
        self._holder: Holder = "none"
        self._who = ""
        """The holder's name (empty: not known)."""
        self._unnamed: str | None = None
        """A takeover start waiting for its holder's name: the detail it has without one."""
        self._echo = True
        self._hidden_marked = False
        self._exited = False
        self._opening: list[str] = []
        """Markers of the first connection, written once its first screen is."""

    # -- the stream -----------------------------------------------------------------------------

    def started(self, cols: int, rows: int, title: str, *, complete: bool) -> None:
        """A connection greeted us; the first one opens the file."""
        if self.sink is None:
            self.sink = self._open_sink(cols, rows, title)
            self._size = (cols, rows)
            self._opening = [label(MarkerKind.CONNECT)]
            if not complete:
                self._opening.append(
                    label(MarkerKind.JOINED_MID_STREAM, "the screen may be incomplete")
                )
        self.resized(cols, rows)

    def output(self, data: bytes, offset: int) -> None:
        """Output at stream ``offset``; what the file already holds is skipped."""
        sink = self.sink
        if sink is None or not data:
            return
        self._name_unknown()
        if self._next is not None:
            end = offset + len(data)
            if end <= self._next:
                return
            data = data[max(0, self._next - offset) :]
            self._next = end
        sink.output(data)
        self._written = True
        self._opened()

    def snapshot(self, data: bytes, cols: int, rows: int, offset: int) -> None:
        """A snapshot at stream ``offset``: a gap when it skips bytes the file never got."""
        sink = self.sink
        if sink is None:
            return
        skipped = self._next is not None and offset > self._next
        if self._next is not None and not skipped:
            return  # the bytes from its offset on are in the file (or are on their way)
        if skipped:
            self._marker(MarkerKind.GAP)
        self.resized(cols, rows)
        sink.output(RESET + data if self._written else data)
        self._written = True
        self._next = offset
        self._opened()

    def restarted(self, *, new_program: bool) -> None:
        """A new connection with no stream position (a peer that cannot resume)."""
        if self.sink is None:
            return
        kind = MarkerKind.NEW_PROGRAM if new_program else MarkerKind.GAP
        self._marker(kind, "" if new_program else "output while disconnected was lost")
        if self._written:
            self.sink.output(RESET)
        self._next = None

    def resized(self, cols: int, rows: int) -> None:
        """The remote terminal's size (written only when it changes)."""
        if self.sink is not None and (cols, rows) != self._size:
            self._size = (cols, rows)
            self.sink.resize(cols, rows)

    # -- the connection -------------------------------------------------------------------------

    def disconnected(self) -> None:
        """The connection dropped: one marker per outage."""
        if self.sink is not None and not self._outage and not self._exited:
            self._outage = True
            self.held("none")
            self._marker(MarkerKind.DISCONNECT)

    def reconnected(self) -> None:
        """The connection is back after an outage."""
        if self._outage:
            self._outage = False
            self._marker(MarkerKind.RECONNECT)

    def exited(self, status: int | None) -> None:
        """The program ended."""
        sink = self.sink
        if sink is None or self._exited:
            return
        self._exited = True
        self.held("none")
        if status is None:
            self._marker(MarkerKind.EXIT)
        else:
            sink.exit(status)

    # -- control and input ----------------------------------------------------------------------

    def held(
        self,
        holder: Holder,
        who: str = "",
        watching: Sequence[str] = (),
        *,
        naming: bool = False,
    ) -> None:
        """Who holds the keyboard now: ``you`` (this client), ``other`` or ``none``; ``who``
        names them and ``watching`` the others, where the peer says (labels, clean already);
        ``naming``: the peer may name them in a moment (a start waits for the name)."""
        was, was_who = self._holder, self._who
        same = holder == was and (not who or not was_who or who == was_who)
        self._holder, self._who = holder, who if holder != "none" else ""
        if self.sink is None:
            return
        if same:  # nothing moved (a name learnt for the same holder is no takeover)
            if self._unnamed is not None and who:
                self._unnamed = None
                self._marker(MarkerKind.TAKEOVER_START, attributed(who, watching))
            return
        self._name_unknown()
        if was != "none" and holder != "none" and was_who and who:
            self._marker(MarkerKind.HANDOVER, attributed(f"{was_who}{HANDED}{who}", watching))
            return
        if was != "none":
            self._marker(MarkerKind.TAKEOVER_END, was_who)
        if holder != "none" and not who and naming:
            self._unnamed = "another client" if holder == "other" else ""
        elif holder != "none" and not who:
            self._marker(MarkerKind.TAKEOVER_START, "another client" if holder == "other" else "")
        elif holder != "none":
            self._marker(MarkerKind.TAKEOVER_START, attributed(who, watching))

    def _name_unknown(self) -> None:
        """Something else is written: a takeover start still waiting for a name goes first."""
        if self._unnamed is not None:
            detail, self._unnamed = self._unnamed, None
            self._marker(MarkerKind.TAKEOVER_START, detail)

    def echo(self, *, on: bool) -> None:
        """The program turned echo on or off."""
        self._echo = on
        if on:
            self._hidden_marked = False

    def input(self, data: bytes) -> None:
        """Keys that were sent (the caller sends only in control)."""
        sink = self.sink
        if sink is None or not self.record_input or self._holder != "you" or not data:
            return
        self._name_unknown()
        if self._echo:
            sink.input(data)
        elif not self._hidden_marked:
            self._hidden_marked = True
            self._marker(MarkerKind.INPUT_HIDDEN, "echo was off")

    # -- markers --------------------------------------------------------------------------------

    def notification(self, text: str) -> None:
        """The agent asked for attention."""
        self._marker(MarkerKind.NOTIFICATION, text)

    def mark(self, text: str) -> None:
        """The user's own mark."""
        self._marker(MarkerKind.MARK, text)

    def close(self) -> None:
        """Close the file (a session that never started leaves none)."""
        if self.sink is not None:
            self._name_unknown()
            self._opened()
            self.sink.close()

    def _opened(self) -> None:
        """Write the first connection's markers (once; before any other marker)."""
        if self._opening and self.sink is not None:
            opening, self._opening = self._opening, []
            for text in opening:
                self.sink.marker(text)

    def _marker(self, kind: MarkerKind, detail: str = "") -> None:
        if kind is not MarkerKind.TAKEOVER_START:
            self._name_unknown()
        if self.sink is not None:
            self._opened()
            self.sink.marker(label(kind, detail))
