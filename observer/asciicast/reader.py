"""Streaming reader for asciicast v1, v2 and v3.

v2 and v3 are newline-delimited JSON: a header object, then one ``[time, code, data]`` array per
line (v2: absolute time; v3: interval since the previous event, ``#`` comment lines allowed). They
are read one line at a time, so a 1 GB recording is never held in memory. v1 is a single JSON
document with ``stdout: [[delay, data], ...]``; it is legacy and small, so it is loaded whole.

Decisions a user can rely on (see ``docs/recording.md``):

- **A cut-off last line is not an error.** A recorder killed mid-write leaves a last line without
  its newline that is not valid JSON; like asciinema, the reader treats it as absent. It is counted
  in ``skipped`` and flagged by ``truncated``, in strict mode too.
- **Time never runs backwards.** A v2 event earlier than the one before it (clock jitter, a
  concatenated file) or a negative v3 interval is clamped to the previous time and counted in
  ``clamped``; the events still play, in file order.
- **Absurd numbers are damage:** an integer of more than :data:`MAX_DIGITS` digits anywhere (header
  included), or an event time beyond :data:`MAX_SECONDS`, is an error with its line number.
- **Other damage is an error with its line number** (:class:`~observer.errors.CastFormatError`), or,
  with ``lenient=True``, the damaged line is skipped and counted in ``skipped``. Blank lines are
  ignored. A damaged header is always an error: nothing can be played without it.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Iterator
from typing import Any

from observer.asciicast.events import OUTPUT, RESIZE, Event, Header
from observer.asciicast.headers import HeaderError, header_from_json
from observer.errors import CastFormatError
from observer.terminal.size import SizeError, parse_size

V1_MAX_CHARS = 64 * 1024 * 1024
"""A v1 document is loaded whole; beyond this size it is refused instead of exhausting memory."""
MAX_DIGITS = 20
"""Longest integer written anywhere in a recording (a 64-bit integer has 19 digits). Python refuses
to convert integers of more than 4,300 digits and chokes on floats from far fewer: such a number
is damage, not data."""
MAX_SECONDS = 1e9
"""Largest event time or interval (about 31 years): a time beyond it is damage, and sums of such
times would reach infinity and then NaN."""


class _Damage(ValueError):
    """One line cannot be used; the message says why."""


class _OutOfRange(_Damage):
    """A number too long or too large to be anything but damage."""


class _Slow(Exception):
    """The line is not the usual event line: check it thoroughly."""


def _reject_constant(name: str) -> float:
    # Python's json accepts NaN and Infinity, which are not JSON (RFC 8259) and break time arithmetic.
    raise _Damage(f"{name} is not a valid JSON number")


def _bounded_int(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise _OutOfRange(f"a {digits}-digit number (at most {MAX_DIGITS} digits)")
    return int(text)


_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_int=_bounded_int)
"""One decoder for every line (header, events, v1 documents): ``json.loads(text, ...)`` would
build one per call."""


def _loads(text: str) -> Any:
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as error:
        raise _Damage(f"not valid JSON ({error.msg})") from None
    except RecursionError:
        raise _Damage("JSON nested too deeply") from None


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Damage(f"the event time {value!r} is not a number")
    number = float(value)  # ints are at most MAX_DIGITS long: no overflow
    if not math.isfinite(number):  # 1e999 parses as inf
        raise _OutOfRange("the event time is not finite")
    if not -MAX_SECONDS <= number <= MAX_SECONDS:
        raise _OutOfRange(
            f"the event time {number:.3g} is out of range (at most {MAX_SECONDS:.0e} s)"
        )
    return number


class CastReader:
    """Read one asciicast recording from an iterable of text lines.

    Pass an open text file (lines keep their newline, which is how a cut-off last line is told
    apart) or any iterable of lines. The header is read at construction; iterate once for events.

    Args:
        lines: The recording's lines, e.g. ``open(path, encoding="utf-8", errors="replace")``.
        path: Shown in error messages.
        lenient: Skip and count damaged event lines instead of raising.

    Attributes:
        header: The recording's :class:`Header`.
        skipped: Damaged lines skipped so far (lenient mode, or a cut-off last line).
        truncated: The last line was cut off (the recorder was probably killed).
        clamped: Events whose time ran backwards and was clamped to the previous time.
        first_damage: The first skipped damage as an error, for reporting.

    Raises:
        CastFormatError: The file is empty or its header is damaged or unsupported.
    """

    def __init__(self, lines: Iterable[str], *, path: str | None = None, lenient: bool = False):
        self.path = path
        self.lenient = lenient
        self.skipped = 0
        self.truncated = False
        self.clamped = 0
        self.first_damage: CastFormatError | None = None
        self._lines = iter(lines)
        self._lineno = 0
        self._v1_frames: list[Any] | None = None
        self._v1_line = 1
        self.header = self._read_header()

    def __iter__(self) -> Iterator[Event]:
        """Yield the events in order, with absolute times."""
        if self._v1_frames is not None:
            return self._v1_events(self._v1_frames)
        return self._line_events()

    # -- header -------------------------------------------------------------------------------

    def _next_line(self) -> str | None:
        line = next(self._lines, None)
        if line is not None:
            self._lineno += 1
        return line

    def _error(self, what: str, advice: str | None, line: int | None) -> CastFormatError:
        return CastFormatError(what, advice, path=self.path, line=line)

    def _read_header(self) -> Header:
        first = self._next_line()
        while first is not None and not first.strip():
            first = self._next_line()
        if first is None:
            raise self._error("the file is empty", "it holds no asciicast header", None)
        header_line = self._lineno
        text = first.lstrip("\ufeff")
        try:
            obj = _loads(text)
        except _OutOfRange as damage:
            raise self._error(
                f"the header holds {damage}", "the file is damaged", header_line
            ) from None
        except _Damage as damage:
            obj = self._read_v1_document(text, header_line, damage)
        if not isinstance(obj, dict):
            raise self._error(
                "the first line is not an asciicast header object",
                "is this an asciicast file?",
                header_line,
            )
        try:
            header = header_from_json(obj)
        except HeaderError as error:
            raise self._error(error.what, error.advice, header_line) from None
        if header.version == 1:
            frames = obj.get("stdout")
            if not isinstance(frames, list):
                raise self._error(
                    'the v1 document has no "stdout" list of frames',
                    "the file is damaged",
                    header_line,
                )
            self._v1_frames = frames
            self._v1_line = header_line
        return header

    def _read_v1_document(self, first: str, first_line: int, damage: _Damage) -> Any:
        """The first line is not a JSON document: it may open a multi-line v1 document."""
        if not first.lstrip().startswith("{"):
            raise self._error(
                f"the header is {damage}", "is this an asciicast file?", first_line
            ) from None
        parts = [first]
        size = len(first)
        for line in self._lines:
            self._lineno += 1
            if len(parts) == 1 and line.lstrip().startswith("["):
                # An event line right after a broken first line: a damaged v2/v3 header, not v1.
                break
            parts.append(line)
            size += len(line)
            if size > V1_MAX_CHARS:
                raise self._error(
                    "a v1 recording larger than 64 MiB is not supported",
                    "convert it to v3 with `asciinema convert`",
                    None,
                )
        if len(parts) == 1:
            raise self._error(f"the header is {damage}", "the file is damaged", first_line)
        try:
            return _DECODER.decode("".join(parts))
        except json.JSONDecodeError as error:
            raise self._error(
                f"not valid JSON ({error.msg})",
                "the v1 recording is damaged",
                first_line + error.lineno - 1,
            ) from None
        except (_Damage, RecursionError) as error:
            reason = error if isinstance(error, _Damage) else "JSON nested too deeply"
            raise self._error(str(reason), "the v1 recording is damaged", first_line) from None

    # -- events -------------------------------------------------------------------------------

    def _damaged(self, what: str, advice: str, line: int, *, cut_off: bool) -> None:
        error = self._error(what, advice, line)
        if not cut_off and not self.lenient:
            raise error
        self.skipped += 1
        self.truncated = self.truncated or cut_off
        if self.first_damage is None:
            self.first_damage = error

    def _v1_events(self, frames: list[Any]) -> Iterator[Event]:
        now = 0.0
        for frame in frames:
            try:
                if not isinstance(frame, list) or len(frame) != 2:
                    raise _Damage("a v1 frame must be [delay, data]")
                delay, data = _number(frame[0]), frame[1]
                if not isinstance(data, str):
                    raise _Damage("a v1 frame's data must be a string")
            except _Damage as damage:
                self._damaged(str(damage), "the recording is damaged", self._v1_line, cut_off=False)
                continue
            if delay < 0:
                self.clamped += 1
                delay = 0.0
            now += delay
            yield Event(now, OUTPUT, data)

    def _line_events(self) -> Iterator[Event]:
        relative = self.header.version == 3
        now = 0.0
        # The fast path takes the usual line, `[float, "code", "text"]` and its newline, with one
        # C call (the scanner json.loads itself uses) and a few exact type checks. Every other
        # line (blank, comment, integer time, resize, unusual spacing, damage) goes through
        # `_parse_event`, which checks everything: both paths accept exactly the same lines.
        scan = _DECODER.scan_once  # type: ignore[attr-defined]  # set by JSONDecoder.__init__
        source: Iterator[str] | None = self._lines
        while source is not None:
            lines, source = source, None
            for line in lines:
                self._lineno += 1
                try:
                    if line[:1] != "[":
                        raise _Slow
                    value, end = scan(line, 0)
                    if end != len(line) - 1 or line[-1] != "\n" or type(value) is not list:
                        raise _Slow
                    time, code, data = value
                    if (
                        type(time) is not float
                        or type(code) is not str
                        or type(data) is not str
                        or not -MAX_SECONDS <= time <= MAX_SECONDS  # also inf (1e999), nan
                        or not code
                        or code == RESIZE
                    ):
                        raise _Slow
                except (_Slow, ValueError, StopIteration, RecursionError):
                    if not line.strip() or (relative and line.startswith("#")):
                        continue
                    try:
                        time, code, data = self._parse_event(line)
                    except _Damage as damage:
                        source = self._skip_damage(damage, line, lines)
                        if source is None:
                            continue
                        break  # a line was peeked to tell a cut-off end: go on from it
                if relative:
                    if time < 0:
                        self.clamped += 1
                        time = 0.0
                    time += now
                elif time < now:
                    self.clamped += 1
                    time = now
                now = time
                yield Event(time, code, data)

    def _skip_damage(
        self, damage: _Damage, line: str, lines: Iterator[str]
    ) -> Iterator[str] | None:
        """Raise or count a damaged line; return the rest of the lines if one had to be peeked."""
        lineno = self._lineno
        rest: Iterator[str] | None = None
        cut_off = False
        if not line.endswith("\n"):
            # Only a last line can lack its newline in a file; another iterable may differ.
            peeked = next(lines, None)
            cut_off = peeked is None
            if peeked is not None:
                rest = itertools.chain((peeked,), lines)
        self._damaged(str(damage), "the file is damaged", lineno, cut_off=cut_off)
        return rest

    @staticmethod
    def _parse_event(line: str) -> tuple[float, str, str]:
        return parse_event_line(line)


def parse_event_line(line: str) -> tuple[float, str, str]:
    """``(time, code, data)`` of one v2/v3 event line, every rule checked (time as written).

    Raises:
        ValueError: The line is not a valid event; the message says why.
    """
    value = _loads(line)
    if not isinstance(value, list) or len(value) != 3:
        raise _Damage("an event must be a [time, code, data] array")
    time, code, data = _number(value[0]), value[1], value[2]
    if not isinstance(code, str) or not code:
        raise _Damage(f"the event code {code!r} is not a non-empty string")
    if not isinstance(data, str):
        raise _Damage(f"the data of a {code!r} event is not a string")
    if code == RESIZE:
        try:
            parse_size(data)
        except SizeError as error:
            raise _Damage(f"bad resize event: {error.what}") from None
    return time, code, data


def read_header(lines: Iterable[str], *, path: str | None = None) -> Header:
    """Return only the header of a recording (reads the first line; whole document for v1)."""
    return CastReader(lines, path=path).header
