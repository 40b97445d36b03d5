"""The one mapping between ``observer.v1`` server frames and the protocol events they mean.

:func:`event_of` reads a server frame as an event (the native adapter's decoding);
:func:`frame_of` is its inverse, the message a server sends for an event (what a stand-in
server plays: screenshots, the app's tests). Both directions live here so that a field added to
one is added to the other; a round-trip test holds them together. The stream offset is the
adapter's state, not the frame's: the caller passes it in.
"""

from __future__ import annotations

from observer.protocol import frames
from observer.protocol.adapter import Message
from observer.protocol.events import (
    ControlChanged,
    ControlRefused,
    EchoChanged,
    ErrorReported,
    Event,
    Exited,
    OutputReceived,
    PeopleListed,
    PresenceChanged,
    ProtocolViolation,
    Resized,
    ScreenReceived,
    SessionStarted,
    SnapshotReceived,
    TitleChanged,
)
from observer.protocol.people_frames import People
from observer.protocol.screen_frames import Screen

TAKE_REFUSALS = frozenset({frames.CONTROL_HELD, frames.WATCH_ONLY, frames.DECLINED})
"""Error codes with which the server answers a ``take`` or an ``ask`` it refuses."""


def event_of(frame: frames.ServerFrame | frames.Malformed, offset: int | None) -> Event:
    """What ``frame`` means, the next output byte being at stream ``offset`` (None: unknown)."""
    match frame:
        case frames.Malformed(reason):
            return ProtocolViolation(reason)
        case frames.Hello():
            return _started(frame)
        case frames.Snapshot(at, cols, rows, data):
            # A snapshot cut inside a UTF-8 character ends with its bytes as surrogate escapes
            # (TerminalModel.to_ansi(unfinished=True)): they are given back as bytes.
            repaint = data.encode("utf-8", "surrogateescape")
            return SnapshotReceived(repaint, cols, rows, at, offset is not None and at != offset)
        case frames.Output(data):
            return OutputReceived(data, offset or 0)
        case frames.Resize(cols, rows):
            return Resized(cols, rows)
        case frames.Control(holder):
            return ControlChanged(holder)
        case frames.Presence(watchers):
            return PresenceChanged(watchers)
        case frames.Exit(status):
            return Exited(status)
        case frames.Echo(on):
            return EchoChanged(on)
        case People(you, holder, people):
            return PeopleListed(you, holder, people)
        case frames.Error(code, text) if code in TAKE_REFUSALS:
            return ControlRefused(code, text)
        case frames.Error(code, text):
            return ErrorReported(code, text)
    return _screen(frame)


def frame_of(event: Event) -> Message | None:
    """The ``observer.v1`` message a server sends for ``event`` (None: it has none)."""
    frame: frames.ServerFrame
    match event:
        case OutputReceived(data):
            return data
        case TitleChanged(title):  # the native protocol carries the title in the output
            return b"\x1b]2;" + title.encode() + b"\x07"
        case SessionStarted():
            frame = frames.Hello(
                event.identifier,
                event.mode,
                event.cols,
                event.rows,
                event.offset,
                event.holder,
                event.watchers,
                event.title,
                control=event.may_control,
            )
        case SnapshotReceived(data, cols, rows, offset):
            frame = frames.Snapshot(offset, cols, rows, data.decode("utf-8", "surrogateescape"))
        case Resized(cols, rows):
            frame = frames.Resize(cols, rows)
        case ControlChanged(holder):
            frame = frames.Control(holder)
        case PresenceChanged(watchers):
            frame = frames.Presence(watchers)
        case Exited(status):
            frame = frames.Exit(status)
        case EchoChanged(on):
            frame = frames.Echo(on)
        case PeopleListed(you, holder, people):
            frame = People(you, holder, people)
        case ControlRefused(code, message) | ErrorReported(code, message):
            frame = frames.Error(code, message)
        case ScreenReceived():
            frame = Screen(
                event.offset,
                event.cols,
                event.rows,
                event.full,
                event.lines,
                event.cursor,
                event.cursor_visible,
                event.title,
                event.notifications,
            )
        case _:
            return None
    return frames.encode(frame)


def _started(hello: frames.Hello) -> SessionStarted:
    return SessionStarted(
        identifier=hello.identifier,
        mode=hello.mode,
        cols=hello.cols,
        rows=hello.rows,
        offset=hello.offset,
        holder=hello.holder,
        watchers=hello.watchers,
        title=hello.title,
        may_control=hello.control,
    )


def _screen(frame: Screen) -> ScreenReceived:
    return ScreenReceived(
        frame.offset,
        frame.cols,
        frame.rows,
        frame.full,
        frame.lines,
        frame.cursor,
        frame.cursor_visible,
        frame.title,
        frame.notifications,
    )
