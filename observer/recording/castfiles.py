"""Opening recordings for reading: streaming, and with each event's place in the file.

The shells' side of :mod:`observer.asciicast` (which never opens a file): these open one, turn
the user's mistakes into one-line errors, and read bytes back by offset for a replay timeline
that keeps only where its output lies (:class:`observer.replay.Timeline`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING, Any

from observer.asciicast import CastReader, cap_idle
from observer.asciicast.spans import LineSpans
from observer.errors import UsageError

if TYPE_CHECKING:
    from observer.replay import Timeline


def open_recording(name: str, *, binary: bool) -> IO[Any]:
    """Open a recording file (bytes, or text decoded leniently); the caller closes it.

    Raises:
        UsageError: The file does not exist, is a folder or cannot be read (one line each).
    """
    try:
        if binary:
            return open(name, "rb")
        # errors="replace": a byte that is not UTF-8 must not hide the rest of the recording.
        return open(name, encoding="utf-8", errors="replace", newline="\n")
    except FileNotFoundError:
        raise UsageError(f"{name} does not exist", "check the file name") from None
    except IsADirectoryError:
        raise UsageError(f"{name} is a folder", "give a recording file") from None
    except OSError as error:
        raise UsageError(f"cannot read {name}: {error.strerror}", "check its permissions") from None


@contextmanager
def open_cast(path: str | os.PathLike[str], *, lenient: bool = False) -> Iterator[CastReader]:
    """Open a recording for streaming reads; the file closes when the ``with`` block ends.

    Raises:
        UsageError: The file does not exist or cannot be read.
        CastFormatError: The header is damaged (events raise it lazily, with their line).
    """
    name = os.fspath(path)
    stream = open_recording(name, binary=False)
    with stream:
        yield CastReader(stream, path=name, lenient=lenient)


class FileSource:
    """A recording's bytes read back by offset (a :class:`~observer.replay.timeline.SpanSource`).

    ``os.pread`` on a descriptor of its own: the replay screen's loader thread and its UI thread
    may read at once without sharing a file position (where there is no ``pread``, reads take
    turns). The file is opened at the first read.

    Args:
        path: The recording.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self._fd: int | None = None
        self._opening = threading.Lock()  # two threads reading first must not open it twice

    def _descriptor(self) -> int:
        with self._opening:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
            return self._fd

    def read(self, offset: int, size: int) -> bytes:
        """``size`` bytes from ``offset`` (fewer at the end of the file).

        Raises:
            UsageError: The file cannot be read any more.
        """
        try:
            fd = self._descriptor()
            parts, done = [], 0
            while done < size:
                part = self._pread(fd, size - done, offset + done)
                if not part:
                    break
                parts.append(part)
                done += len(part)
        except OSError as error:
            raise UsageError(
                f"cannot read {self.path} any more: {error.strerror}",
                "check that it still exists",
            ) from None
        return b"".join(parts)

    def _pread(self, fd: int, size: int, offset: int) -> bytes:
        if hasattr(os, "pread"):
            return os.pread(fd, size, offset)
        with self._opening:  # Windows has no pread: seek and read, one thread at a time
            os.lseek(fd, offset, os.SEEK_SET)
            return os.read(fd, size)

    def close(self) -> None:
        """Close the file (a later read opens it again)."""
        with self._opening:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

    def __del__(self) -> None:
        self.close()


@contextmanager
def open_cast_spans(
    path: str | os.PathLike[str], *, lenient: bool = False
) -> Iterator[tuple[CastReader, LineSpans | None]]:
    """Open a recording like :func:`open_cast`, also telling where each event's line lies.

    While an event from the reader is handled, ``spans.span`` is its line's ``(offset, length)``
    in the file (for :meth:`observer.replay.Timeline.append`); ``spans`` is None for a v1
    recording, which is one JSON document, not one line per event.

    Raises:
        UsageError: The file does not exist or cannot be read.
        CastFormatError: The header is damaged (events raise it lazily, with their line).
    """
    name = os.fspath(path)
    stream = open_recording(name, binary=True)
    with stream:
        spans = LineSpans(stream)
        reader = CastReader(spans, path=name, lenient=lenient)
        yield reader, (spans if reader.header.version >= 2 else None)


def load_timeline(
    path: str | os.PathLike[str],
    timeline: Timeline,
    *,
    lenient: bool = False,
    idle_limit: float | None = None,
    every: int = 100,
    between: Callable[[int], bool] = lambda count: True,
) -> int:
    """Read every event of a recording into ``timeline``, its output left in the file.

    The timeline's ``source`` must read this file (a :class:`FileSource`); its ``complete`` is
    set once the last event is in.

    Args:
        path: The recording.
        timeline: Where the events go (a player may already read from it).
        lenient: Skip damaged lines.
        idle_limit: Cap pauses to this many seconds (:func:`observer.asciicast.cap_idle`).
        every: Call ``between`` after this many events.
        between: Called with the count of events read so far; return False to stop reading.

    Returns:
        How many damaged lines were skipped.

    Raises:
        UsageError: The file cannot be read.
        CastFormatError: A damaged line (without ``lenient``).
    """
    with open_cast_spans(path, lenient=lenient) as (reader, spans):
        for count, event in enumerate(cap_idle(reader, idle_limit), 1):
            # cap_idle never reads ahead: spans still points at this event's line.
            timeline.append(event, spans.span if spans is not None else None)
            if count % every == 0 and not between(count):
                return reader.skipped
        timeline.complete = True
        return reader.skipped
