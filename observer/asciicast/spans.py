"""Where each line of a recording lies in its file, so an event can be read back later.

A player that keeps every event's data in memory needs as much memory as the recording is large.
Instead it can note, for each event, the byte span of its line (:class:`LineSpans`, which feeds
:class:`~observer.asciicast.reader.CastReader` and remembers where the line it handed out last
lies), and read the data back from the file when it needs it (:func:`event_data`).

Pure: the stream is any iterable of ``bytes`` lines (an open binary file is one).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from observer.asciicast.reader import parse_event_line


class LineSpans:
    """The lines of a binary stream, as text for a reader, and the span of the last one.

    Lines are split at ``\\n`` and decoded as UTF-8 with undecodable bytes replaced (as
    :func:`observer.recording.castfiles.open_cast` reads a file). A reader takes a line, parses it and
    yields its event before taking the next, so while the event is handled :attr:`offset` and
    :attr:`length` give its line's place in the stream.

    Args:
        stream: The recording's bytes, line by line (e.g. ``open(path, "rb")``).

    Attributes:
        offset: Byte offset of the last line handed out.
        length: Its length in bytes, newline included.
    """

    def __init__(self, stream: Iterable[bytes]) -> None:
        self._stream = stream
        self.offset = 0
        self.length = 0

    def __iter__(self) -> Iterator[str]:
        offset = 0
        for raw in self._stream:
            self.offset, self.length = offset, len(raw)
            offset += len(raw)
            yield raw.decode("utf-8", "replace")

    @property
    def span(self) -> tuple[int, int]:
        """``(offset, length)`` of the last line handed out."""
        return self.offset, self.length


def event_data(line: bytes) -> str:
    """The data of one event line read back from a recording (``[time, code, data]``).

    Raises:
        ValueError: The bytes are not an event line (the file changed since it was read).
    """
    return parse_event_line(line.decode("utf-8", "replace"))[2]


__all__ = ["LineSpans", "event_data"]
