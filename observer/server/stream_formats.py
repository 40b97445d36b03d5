"""The streams for clients that do not speak ``observer.v1``: raw, asciicast v2/v3, ALiS v1.

Each is a :class:`~observer.client.recording_policy.RecordSink` whose "file" is a list of
WebSocket messages (:attr:`StreamSink.out`): a client of these protocols is sent a recording of
the session made for it, live (:mod:`observer.server.stream_socket`). What the recording holds
(the first screen, output once per offset, a gap's reset, takeover and notification markers,
exit) is the recording policy's, as for a file.

- ``raw``: the terminal's bytes as binary messages, preceded by the size as xterm's "resize the
  text area" sequence (``CSI 8 ; rows ; cols t``), which asciinema-player's raw handler reads
  from the first message and terminals that do not allow window operations ignore.
- ``v2.asciicast`` / ``v3.asciicast``: the header line, then one event line per text message
  (https://docs.asciinema.org/manual/asciicast/v2/ and .../v3/), times from the client's start.
- ``v1.alis``: asciinema's live stream, binary (https://docs.asciinema.org/manual/server/streaming/):
  the magic ``ALiS\\x01``, an init frame with the size and the first screen, then events with
  LEB128 numbers and times in microseconds since the previous event.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from typing import Final

from observer.asciicast import CastWriter, Header
from observer.asciicast.events import EXIT, MARKER, OUTPUT, RESIZE
from observer.asciicast.writer import CastFormat
from observer.server.websocket_adapter import Message
from observer.terminal.size import format_size

Clock = Callable[[], float]
"""Seconds since the stream began."""

ALIS_MAGIC: Final = b"ALiS\x01"
ALIS_INIT: Final = 0x01
ALIS_EOT: Final = 0x04


def resize_sequence(cols: int, rows: int) -> bytes:
    """xterm's window operation 8, "resize the text area to rows x cols" (XTWINOPS)."""
    return f"\x1b[8;{rows};{cols}t".encode()


class Utf8Text:
    """Bytes to text across chunk boundaries: a character cut at the end of one chunk comes
    whole with the next; invalid bytes become U+FFFD (text protocols carry UTF-8 only)."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def decode(self, data: bytes) -> str:
        """The text of ``data`` (empty while only part of a character came)."""
        return self._decoder.decode(data)


class StreamSink:
    """A recording sink that collects WebSocket messages; the protocols fill in the events."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.out: list[Message] = []
        """Messages to send, in order (the caller takes them)."""

    def output(self, data: bytes) -> None:
        """Program output."""

    def input(self, data: bytes) -> None:
        """Keys sent to the program: never in a live stream (they are the holder's)."""

    def marker(self, label: str = "") -> None:
        """A marker."""

    def resize(self, cols: int, rows: int) -> None:
        """The terminal's new size."""

    def exit(self, status: int) -> None:
        """The program's exit status."""

    def close(self) -> None:
        """The stream ends."""


class RawSink(StreamSink):
    """``raw``: the terminal's bytes as they are (the same objects: no copy per client)."""

    def __init__(self, clock: Clock, cols: int, rows: int) -> None:
        super().__init__(clock)
        self.out.append(resize_sequence(cols, rows))

    def output(self, data: bytes) -> None:
        self.out.append(data)

    def resize(self, cols: int, rows: int) -> None:
        self.out.append(resize_sequence(cols, rows))


class CastSink(StreamSink):
    """``v2.asciicast`` / ``v3.asciicast``: lines of :class:`~observer.asciicast.CastWriter`."""

    def __init__(self, clock: Clock, format: CastFormat, header: Header) -> None:
        super().__init__(clock)
        self._text = Utf8Text()
        self._writer = CastWriter(self, header, format=format)

    def write(self, line: str) -> None:
        """One line from the writer: one message (a JSON value; the line break is dropped)."""
        self.out.append(line.rstrip("\n"))

    def output(self, data: bytes) -> None:
        text = self._text.decode(data)
        if text:
            self._writer.write_event(self.clock(), OUTPUT, text, decoded=True)

    def marker(self, label: str = "") -> None:
        self._writer.write_event(self.clock(), MARKER, label)

    def resize(self, cols: int, rows: int) -> None:
        self._writer.write_event(self.clock(), RESIZE, format_size(cols, rows))

    def exit(self, status: int) -> None:
        self._writer.write_event(self.clock(), EXIT, str(status))


def leb128(value: int) -> bytes:
    """``value`` (0 or more) as unsigned LEB128: 7 bits a byte, low first, high bit = more."""
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


class AlisSink(StreamSink):
    """``v1.alis``: the magic, an init frame (size, no theme, the first screen), then events.

    Every frame carries an event id (counted per stream) and its time in microseconds: the
    init's since the stream began, each event's since the previous frame.
    """

    def __init__(self, clock: Clock, cols: int, rows: int) -> None:
        super().__init__(clock)
        self._size = (cols, rows)
        self._text = Utf8Text()
        self._id = 0
        self._last: int | None = None
        """Time of the previous frame in microseconds (None: the init is not sent yet)."""
        self.out.append(ALIS_MAGIC)

    def output(self, data: bytes) -> None:
        text = self._text.decode(data)
        if self._last is None:
            self._init(text)
        elif text:
            self._event(b"o", _string(text))

    def marker(self, label: str = "") -> None:
        self._event(b"m", _string(label))

    def resize(self, cols: int, rows: int) -> None:
        self._size = (cols, rows)
        self._event(b"r", leb128(cols) + leb128(rows))

    def exit(self, status: int) -> None:
        self._event(b"x", leb128(max(0, status)))

    def close(self) -> None:
        self.out.append(bytes([ALIS_EOT]))

    def _init(self, text: str) -> None:
        self._id += 1
        self._last = micros = self._micros()
        cols, rows = self._size
        head = leb128(self._id) + leb128(micros) + leb128(cols) + leb128(rows)
        self.out.append(bytes([ALIS_INIT]) + head + b"\x00" + _string(text))

    def _event(self, code: bytes, body: bytes) -> None:
        if self._last is None:
            self._init("")
        assert self._last is not None
        micros = max(self._micros(), self._last)
        self._id += 1
        self.out.append(code + leb128(self._id) + leb128(micros - self._last) + body)
        self._last = micros

    def _micros(self) -> int:
        return max(0, round(self.clock() * 1_000_000))


def _string(text: str) -> bytes:
    data = text.encode("utf-8", "replace")
    return leb128(len(data)) + data
