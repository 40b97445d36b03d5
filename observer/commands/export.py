"""``observer export``: a screen-aware transcript of a recording, for people or another program."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from observer.commands._options import (
    add_output_option,
    add_overwrite_option,
    refuse_existing,
    say_deprecated,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from observer.asciicast import Event, Header
    from observer.terminal import TerminalModel

NAME = "export"
HELP = "write a transcript of a recording: the screen at each marker and at the end, takeovers"
DESCRIPTION = """\
Replay a recording and write what a reviewer needs to read instead of watching it: the screen at
every marker and at the end (as text, exactly the rows), and every takeover (when a person held the
keyboard, for how long, and what they typed). Suited to reviewing an agent's session by eye or by
another program.
"""
EPILOG = """\
examples:
  observer export session.cast                    the transcript on stdout (--format text)
  observer export session.cast -o session.txt     into a file
  observer export broken.cast --lenient           skip damaged lines
"""

FORMATS = ("text",)
OLD_SPELLINGS = {"txt": "text"}
"""Format names of earlier versions, still accepted with a note (``render`` says ``text``)."""


def register(parser: argparse.ArgumentParser) -> None:
    """Add the arguments."""
    parser.add_argument("file", type=Path, metavar="FILE", help="asciicast recording")
    parser.add_argument(
        "--format",
        choices=(*FORMATS, *OLD_SPELLINGS),
        default="text",
        help="output (default text; txt is the old name of text)",
    )
    add_output_option(parser, "write the transcript here, not to stdout")
    add_overwrite_option(parser)
    parser.add_argument(
        "--lenient", action="store_true", help="skip damaged lines of the recording, and count them"
    )


CONNECT_SETTLE = 0.05
"""Seconds after a ``connect`` marker on a blank screen in which the first screen still belongs to
it. A recording may hold the marker just before the peer's first screen (its snapshot a fraction
of a millisecond later); the screen at ``connect`` is that screen, not the blank one before it."""


@dataclass
class Takeover:
    """A span in which a person held the keyboard.

    Attributes:
        who: Who held it, as the marker names them (a handover's taker); empty when the
            recording's own client held it on a peer that names nobody.
        hidden: Keys were typed while echo was off (an ``input hidden`` marker): not recorded.
    """

    start: float
    end: float | None = None
    who: str = ""
    typed: list[str] = field(default_factory=list)
    hidden: bool = False


@dataclass
class Transcript:
    """What the export gathers in one pass over the recording."""

    sections: list[str] = field(default_factory=list)
    takeovers: list[Takeover] = field(default_factory=list)
    markers: int = 0
    exit_status: str | None = None
    duration: float = 0.0
    input_recorded: bool = False
    """The recording holds the keys its own client typed (its header says so, or it has some)."""
    start_size: str = ""
    """``COLSxROWS`` at the start: the header's, or the first screen's when it came with ``connect``."""
    start_title: str | None = None
    sizes: list[str] = field(default_factory=list)
    """Every size the recording was resized to, in order."""


_KEYS = {"\r": "⏎", "\n": "⏎", "\t": "⇥", "\x7f": "⌫", "\x1b": "⎋"}


def shown(text: str) -> str:
    """Typed input or a label as one line of plain text: keys named, other controls as ``^X``,
    and whatever else cannot be shown safely as the sanitizer shows it."""
    from observer.terminal.sanitize import sanitize

    out = []
    for char in text:
        if char in _KEYS:
            out.append(_KEYS[char])
        elif char < " ":
            out.append(f"^{chr(ord(char) + 64)}")
        else:
            out.append(char)
    return sanitize("".join(out))


def screen_block(model: TerminalModel) -> str:
    """The screen's rows, each behind a bar, trailing blank rows dropped."""
    rows = _rows(model)
    while rows and not rows[-1]:
        rows.pop()
    return "".join(f"│ {row}\n" for row in rows) or "│ (blank screen)\n"


def _rows(model: TerminalModel) -> list[str]:
    from observer.terminal.sanitize import rows_text

    return rows_text(model.line(y) for y in range(model.rows))


def _noting(events: Iterable[Event], result: Transcript) -> Iterator[Event]:
    """Pass the events on, noting the duration, who held the keyboard when (a handover ends
    one span and starts the next), what was typed meanwhile, and the exit."""
    from observer.asciicast import EXIT, INPUT, MARKER, RESIZE, markers

    current: Takeover | None = None
    starts = (markers.MarkerKind.TAKEOVER_START, markers.MarkerKind.HANDOVER)
    for event in events:
        result.duration = event.time
        if event.code == INPUT:
            result.input_recorded = True
            if current is not None:
                current.typed.append(event.data)
        elif event.code == RESIZE:
            result.sizes.append(event.data)
        elif event.code == EXIT:
            result.exit_status = event.data
        elif event.code == MARKER:
            kind = markers.kind_of(event.data)
            if kind is markers.MarkerKind.HANDOVER and current is not None:
                current.end, current = event.time, None  # and the taker's span begins
            if kind in starts and current is None:
                who = markers.holder_of(markers.detail_of(event.data))
                current = Takeover(event.time, who=who)
                result.takeovers.append(current)
            elif kind is markers.MarkerKind.TAKEOVER_END and current is not None:
                current.end, current = event.time, None
            elif kind is markers.MarkerKind.INPUT_HIDDEN and current is not None:
                current.hidden = True
        yield event


def collect(path: Path, lenient: bool) -> tuple[Header, Transcript, int]:
    """Replay the file once; return its header, the transcript and the damaged lines skipped."""
    from observer.asciicast import MARKER, feed, markers
    from observer.client import state_words
    from observer.recording.castfiles import open_cast
    from observer.replay import clock_text, new_model
    from observer.terminal.size import format_size

    result = Transcript()
    with open_cast(path, lenient=lenient) as reader:
        header = reader.header
        result.input_recorded = _says_input_recorded(header)
        result.start_size, result.start_title = format_size(header.cols, header.rows), header.title
        model = new_model(header.cols, header.rows)
        events: Iterator[Event] = _noting(reader, result)
        # Fed marker by marker: each stop shows the screen at that marker.
        while (
            marker := feed(model, events, stop=lambda e: e.code == MARKER).stopped_at
        ) is not None:
            if markers.kind_of(marker.data) is markers.MarkerKind.CONNECT:
                events = _settle(model, events, marker.time)
                if result.markers == 0:  # the recording's start is the first connection's screen
                    result.start_size = format_size(model.cols, model.rows)
                    result.start_title = model.title or header.title
                    result.sizes.clear()
            result.markers += 1
            title = f"marker {shown(marker.data)!r}" if marker.data else "marker"
            result.sections.append(
                f"── {clock_text(marker.time)} {title} ──\n{screen_block(model)}"
            )
        status = result.exit_status
        ending = f"end ({state_words.exited(shown(status))})" if status else "end"
        result.sections.append(
            f"── {clock_text(result.duration)} {ending} ──\n{screen_block(model)}"
        )
        return header, result, reader.skipped


def _says_input_recorded(header: Header) -> bool:
    """Whether the header says the recorder wrote the keys typed in control."""
    meta = header.extra.get("observer")
    return isinstance(meta, dict) and meta.get("input") is True


def _settle(model: TerminalModel, events: Iterator[Event], since: float) -> Iterator[Event]:
    """At a ``connect`` marker at ``since`` on a blank screen, feed the first screen (one output
    event, and resizes before it) if it comes within :data:`CONNECT_SETTLE`; return the events
    that follow, the first one not yet applied."""
    from itertools import chain

    from observer.asciicast import OUTPUT, RESIZE, feed

    if any(_rows(model)):
        return events
    outputs = 0

    def later(event: Event) -> bool:
        nonlocal outputs
        outputs += event.code == OUTPUT
        return (
            outputs > 1 or event.code not in (OUTPUT, RESIZE) or event.time > since + CONNECT_SETTLE
        )

    stopped = feed(model, events, stop=later).stopped_at
    return events if stopped is None else chain((stopped,), events)


def render(path: Path, header: Header, transcript: Transcript) -> str:
    """The whole transcript as text."""
    from observer.replay import clock_text

    title = f" — {shown(transcript.start_title)}" if transcript.start_title else ""
    lines = [
        f"observer transcript of {path.name}{title}",
        f"{_sizes(transcript)} · {clock_text(transcript.duration)} · "
        f"{transcript.markers} marker(s) · {len(transcript.takeovers)} takeover(s)",
        "",
    ]
    if transcript.takeovers:
        lines.append("takeovers (a person held the keyboard):")
        lines.extend(_takeover_line(span, transcript) for span in transcript.takeovers)
        lines.append("")
    return "\n".join(lines) + "\n" + "\n".join(transcript.sections)


def _sizes(transcript: Transcript) -> str:
    """The size at the start, and the sizes it was changed to later (each change once)."""
    later: list[str] = []
    for size in transcript.sizes:
        if size != (later[-1] if later else transcript.start_size):
            later.append(size)
    return transcript.start_size + (f", later {', '.join(later)}" if later else "")


def _takeover_line(span: Takeover, transcript: Transcript) -> str:
    """One takeover: its span, and what was typed where the recording could know it."""
    from observer.replay import clock_text

    end = transcript.duration if span.end is None else span.end
    until = clock_text(end) if span.end is not None else f"{clock_text(end)} (never handed back)"
    who = f", by {shown(span.who)}" if span.who else ""
    typed = shown("".join(span.typed))
    if typed:
        keys = f"typed: {typed}"
    elif transcript.input_recorded and not span.who:
        keys = "typed nothing"
    else:
        keys = "keys not recorded"  # not asked for, or another client's: never this recorder's
    if span.hidden:
        keys += " (keys typed while echo was off are not recorded)"
    return f"  {clock_text(span.start)} – {until}, {end - span.start:.1f} s{who}, {keys}"


def run(args: argparse.Namespace) -> int:
    """Write the transcript; return the exit status."""
    from observer.commands.replay import with_lenient_hint
    from observer.errors import CastFormatError, UsageError

    if args.format in OLD_SPELLINGS:
        say_deprecated(f"--format {args.format}", f"--format {OLD_SPELLINGS[args.format]}")
    refuse_existing(args.output, args.overwrite)
    try:
        header, transcript, skipped = collect(args.file, args.lenient)
    except CastFormatError as error:
        raise with_lenient_hint(error, args.lenient) from None
    text = render(args.file, header, transcript)
    if skipped:
        print(f"observer: note: skipped {skipped} damaged line(s) of {args.file}", file=sys.stderr)
    if args.output is None:
        _write(sys.stdout, text)
        return 0
    try:
        args.output.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(
            f"cannot write {args.output}: {error.strerror}", "choose another -o/--output"
        ) from None
    return 0


def _write(stream: TextIO, text: str) -> None:
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(text)
        return
    buffer.write(text.encode("utf-8", "replace"))  # screens hold box drawing whatever the locale
    buffer.flush()
