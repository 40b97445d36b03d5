"""``observer render``: print the screen of a recording at a moment, as text, ANSI or SVG."""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

    from observer.asciicast import CastReader, Event
    from observer.terminal import TerminalModel

NAME = "render"
HELP = "print the screen of a recording (asciicast or raw terminal bytes) at a moment"
DESCRIPTION = """\
Replay a recording into a terminal emulator up to a moment and print the screen.

FILE is an asciicast recording (v1, v2 or v3; resizes are applied) or, if it is not one, raw
terminal output bytes (then --size is required). Without --at or --at-marker the screen at the
end is printed; a time beyond the end also gives the last screen.

--at-marker matches a marker kind in any spelling (takeover matches "takeover start" and an older
"takeover started"), otherwise any marker whose label contains the text (case ignored).

Formats: text = the screen's rows, one per line, trailing blanks trimmed; ansi = the same rows with
their colours and attributes (SGR only: no title, mode or reset reaches your terminal); svg = an
image of the screen. Control and bidi characters from the recording are shown as U+FFFD."""
EPILOG = """\
examples:
  observer render session.cast                        the last screen, as text
  observer render session.cast --at 12.5              the screen 12.5 s in (also 1:30, 1:02:03)
  observer render session.cast --at-marker takeover   the screen at the first takeover
  observer render session.cast --format svg > s.svg   an image of the last screen
  observer render pty-output.bin --size 120x40        raw terminal bytes
  observer render dump.bin --raw --size 80x24         raw bytes that happen to start with {
  curl -s https://host/s.cast | observer render -     a recording from stdin
"""

FORMATS = ("text", "ansi", "svg")
STDIN = "-"
RAW_CHUNK = 64 * 1024


def register(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments."""
    parser.add_argument(
        "file", metavar="FILE", help="asciicast recording or raw terminal bytes; - reads stdin"
    )
    when = parser.add_mutually_exclusive_group()
    when.add_argument("--at", metavar="SECONDS", help="moment to render: seconds, M:SS or H:MM:SS")
    when.add_argument(
        "--at-marker",
        metavar="LABEL",
        help="render at the first marker of that kind, or whose label contains LABEL",
    )
    parser.add_argument("--format", choices=FORMATS, default="text", help="output (default text)")
    parser.add_argument(
        "--size", metavar="COLSxROWS", help="terminal size (required for raw bytes)"
    )
    parser.add_argument(
        "--lenient", action="store_true", help="skip damaged lines of a recording, and count them"
    )
    parser.add_argument(
        "--idle-limit",
        metavar="SECONDS",
        type=float,
        help="measure --at with pauses capped to SECONDS, as a player with that limit shows it",
    )
    parser.add_argument(
        "--raw", action="store_true", help="read FILE as raw terminal bytes, never as asciicast"
    )
    parser.add_argument(
        "--hide-cursor", action="store_true", help="do not draw the cursor (ansi and svg)"
    )


def parse_moment(text: str) -> float:
    """Parse ``SECONDS``, ``M:SS`` or ``H:MM:SS`` (fractions allowed in the last part).

    Raises:
        UsageError: Not a time, or negative.
    """
    from observer.errors import UsageError

    try:
        seconds = 0.0
        for part in text.strip().split(":"):
            value = float(part)
            if not value >= 0 or value == float("inf"):
                raise ValueError(part)
            seconds = seconds * 60 + value
    except ValueError:
        raise UsageError(
            f"--at {text!r} is not a moment", "give seconds (12.5), M:SS or H:MM:SS"
        ) from None
    return seconds


def run(args: argparse.Namespace) -> int:
    """Render the screen and print it; return the exit status."""
    from observer.errors import UsageError
    from observer.terminal.size import parse_size

    size = None
    if args.size is not None:
        size = parse_size(args.size, "--size")
    moment = parse_moment(args.at) if args.at is not None else None
    if args.idle_limit is not None and not 0 < args.idle_limit < float("inf"):
        raise UsageError(
            f"--idle-limit {args.idle_limit} is not a positive number of seconds", "e.g. 2"
        )
    if not args.raw and _looks_like_asciicast(args.file):
        model, title, theme = _play_cast(args, size, moment)
    else:
        if size is None:
            raise UsageError(
                f"{args.file} is not an asciicast recording, so it is read as raw terminal bytes",
                "give their terminal size with --size COLSxROWS",
            )
        if moment is not None or args.at_marker is not None:
            raise UsageError(
                f"{args.file} is raw terminal bytes, which have no times or markers",
                "drop --at/--at-marker",
            )
        model, title, theme = _play_raw(args.file, size), None, None
    _emit(_format(model, args, title, theme))
    return 0


def _looks_like_asciicast(path: str) -> bool:
    """An asciicast file starts with ``{`` (a JSON header); raw terminal output practically never."""
    from observer.recording.castfiles import open_recording

    if path == STDIN:
        # peek() looks at the first bytes without consuming them, so the reader still gets them.
        peek = getattr(sys.stdin.buffer, "peek", None)
        start = bytes(peek(4096)[:4096]) if peek is not None else b"{"
        return start.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")
    with open_recording(path, binary=True) as stream:
        start = bytes(stream.read(4096))
    return start.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")


def _play_cast(
    args: argparse.Namespace, size: tuple[int, int] | None, moment: float | None
) -> tuple[TerminalModel, str | None, dict[str, str] | None]:
    from observer.asciicast import cap_idle
    from observer.replay import new_model
    from observer.terminal.sanitize import sanitize_title

    with _open_recording(args.file, args.lenient) as reader:
        cols, rows = size or (reader.header.cols, reader.header.rows)
        model = new_model(cols, rows)
        events: Iterable[Event] = reader
        if args.idle_limit is not None:
            events = cap_idle(reader, args.idle_limit)
        _feed_events(reader.path, events, model, moment, args.at_marker)
        _warn_about_damage(reader)
        theme = dict(reader.header.theme) if reader.header.theme else None
        # The header's title is the agent's: it goes into the SVG, so it is cleaned like a
        # title set with OSC 2.
        title = sanitize_title(reader.header.title) if reader.header.title else None
        return model, title or None, theme


@contextmanager
def _open_recording(path: str, lenient: bool) -> Iterator[CastReader]:
    from observer.asciicast import CastReader
    from observer.recording.castfiles import open_cast

    if path != STDIN:
        with open_cast(path, lenient=lenient) as reader:
            yield reader
        return
    stream = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace", newline="\n")
    yield CastReader(stream, path="<stdin>", lenient=lenient)


class _Labels:
    """The first few distinct marker labels passing by, for the error that lists them."""

    def __init__(self) -> None:
        self.labels: list[str] = []
        self.others: set[str] = set()

    def noting(self, events: Iterable[Event]) -> Iterator[Event]:
        from observer.asciicast import MARKER

        for event in events:
            if event.code == MARKER:
                self._note(event.data)
            yield event

    def _note(self, label: str) -> None:
        if label in self.labels or len(self.others) >= 100_000:
            return
        if len(self.labels) < 20:
            self.labels.append(label)
        else:
            self.others.add(label)


def _feed_events(
    path: str | None,
    events: Iterable[Event],
    model: TerminalModel,
    moment: float | None,
    marker: str | None,
) -> None:
    """Apply the events up to ``moment`` or the first marker ``marker`` matches."""
    from observer.asciicast import MARKER, feed, markers
    from observer.errors import UsageError

    if marker is None:
        feed(model, events, until=moment)
        return
    seen = _Labels()
    fed = feed(
        model,
        seen.noting(events),
        stop=lambda event: event.code == MARKER and markers.matches(event.data, marker),
    )
    if fed.stopped_at is not None:
        return
    if not seen.labels:
        raise UsageError(f"{path} has no markers", "render a moment with --at SECONDS")
    known = ", ".join(repr(label) for label in seen.labels)  # repr: labels are untrusted text
    more = f" and {len(seen.others)} more" if seen.others else ""
    raise UsageError(f"{path} has no marker {marker!r}", f"its markers are {known}{more}")


def _warn_about_damage(reader: CastReader) -> None:
    if reader.truncated and reader.skipped == 1:
        print(
            f"observer: note: the last line of {reader.path} was cut off (the recorder was "
            "probably killed) — rendered everything before it",
            file=sys.stderr,
        )
    elif reader.skipped:
        print(
            f"observer: note: skipped {reader.skipped} damaged line(s), the first at "
            f"{reader.first_damage} — the rest was rendered",
            file=sys.stderr,
        )


def _play_raw(path: str, size: tuple[int, int]) -> TerminalModel:
    from observer.errors import UsageError
    from observer.replay import new_model

    model = new_model(*size)
    try:
        with open(path, "rb") if path != STDIN else nullcontext(sys.stdin.buffer) as stream:
            while chunk := stream.read(RAW_CHUNK):
                model.feed(chunk)
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}", "check the file") from None
    return model


def _format(
    model: TerminalModel,
    args: argparse.Namespace,
    title: str | None,
    theme: dict[str, str] | None,
) -> str:
    from observer.commands import _screen_output as output

    if args.format == "ansi":
        return output.screen_ansi(model, cursor=not args.hide_cursor)
    if args.format == "svg":
        return output.screen_svg(model, title=title, theme=theme, cursor=not args.hide_cursor)
    return output.screen_text(model)


def _emit(text: str) -> None:
    """Write UTF-8 whatever the locale says: screens hold box drawing and emoji."""
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    try:
        if buffer is not None:
            buffer.write(text.encode("utf-8", "replace"))
            buffer.flush()
        else:
            sys.stdout.write(text)
    except BrokenPipeError:
        # `observer render x | head`: the reader has all it wanted. Point stdout at /dev/null so
        # the interpreter's final flush does not complain either.
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
