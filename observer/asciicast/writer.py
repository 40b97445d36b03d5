"""Writers for asciicast v2 (the default: every player reads it) and v3 (as asciinema 3 writes).

The writer takes any object with a ``write(str)`` method and writes exactly one line per call, so
whatever the stream does with lines (a line-buffered file pushes each to the OS at once) decides how
much a crash can lose. It never writes a time earlier than the previous one.

Times are kept as whole microseconds: v3 stores intervals, and summing rounded floats would drift;
summing integers written as exact decimals does not.
"""

from __future__ import annotations

import json
import math
from json.encoder import encode_basestring
from typing import Any, Final, Literal, Protocol

from observer.asciicast.events import Event, Header
from observer.asciicast.headers import header_to_json

CastFormat = Literal["v2", "v3"]
FORMATS: Final = ("v2", "v3")
DEFAULT_FORMAT: Final[CastFormat] = "v2"
"""What recorders write unless told: asciinema 2.4 (the CLI PyPI and distributions ship),
termtosvg and svg-term-cli read v1 and v2 only; asciinema 3 and asciinema-player read all three."""

# JSON allows these raw, but they end a line for str.splitlines() and for JavaScript: escape them
# so every event stays on one physical line for every reader.
_LINE_BREAKS: Final = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


class TextSink(Protocol):
    """Anything text can be written to: an open text file, ``io.StringIO``, ..."""

    def write(self, text: str, /) -> Any:
        """Write ``text``."""


def _micros(seconds: float) -> int:
    if not math.isfinite(seconds):
        return 0  # a broken clock must not break the file; max() with the last time follows
    return max(0, round(seconds * 1_000_000))


def _decimal(micros: int) -> str:
    return f"{micros // 1_000_000}.{micros % 1_000_000:06d}"


def _clean(text: str) -> str:
    """Replace lone surrogates (undecodable input) so the line is valid UTF-8 for every reader."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def _json(value: Any) -> str:
    return _no_line_breaks(json.dumps(value, ensure_ascii=False))


def _json_str(text: str) -> str:
    # The C string encoder behind json.dumps(ensure_ascii=False), without its per-call set-up.
    return _no_line_breaks(encode_basestring(text))


def _no_line_breaks(encoded: str) -> str:
    # `in` scans are C-fast; translate() walks the string in Python-object steps, so skip it
    # for the usual text that has none of these characters.
    if "\x85" in encoded or "\u2028" in encoded or "\u2029" in encoded:
        return encoded.translate(_LINE_BREAKS)
    return encoded


class CastWriter:
    """Write a recording as asciicast v3 or v2 lines to a text stream.

    The header line is written at construction.

    Args:
        stream: Where lines go (``write(str)``); the writer never closes it.
        header: Recording metadata; ``header.version`` is ignored, ``format`` decides.
        format: ``"v2"`` (default, :data:`DEFAULT_FORMAT`) or ``"v3"``.

    Raises:
        ValueError: Unknown format.
    """

    def __init__(
        self, stream: TextSink, header: Header, *, format: CastFormat = DEFAULT_FORMAT
    ) -> None:
        if format not in FORMATS:
            raise ValueError(
                f"unknown asciicast format {format!r}; use one of {', '.join(FORMATS)}"
            )
        self.stream = stream
        self.format: CastFormat = format
        self._relative = format == "v3"
        self._last = 0
        self._codes: dict[str, str] = {}
        obj = header_to_json(header, 3 if self._relative else 2)
        stream.write(_json(_clean_obj(obj)) + "\n")

    @property
    def time(self) -> float:
        """Time of the last event written, in seconds."""
        return self._last / 1_000_000

    def write(self, event: Event) -> None:
        """Write one event (a time before the previous event's is written as the previous time)."""
        self.write_event(event.time, event.code, event.data)

    def write_event(self, time: float, code: str, data: str, *, decoded: bool = False) -> None:
        """Write one event from its parts, without building an :class:`Event`.

        Args:
            time: Seconds since the start.
            code: Event code.
            data: Payload.
            decoded: ``data`` was decoded from bytes (with ``errors="replace"``), so it holds no
                lone surrogates and their check is skipped.
        """
        # The same steps as _micros/_decimal/_json_str(_clean(...)), inlined: a live recorder
        # calls this for every chunk of output. ASCII text has no lone surrogates and none of
        # the line breaks _no_line_breaks escapes, so it skips both checks.
        micros = round(time * 1_000_000) if time - time == 0.0 else 0  # inf/nan: keep the last
        last = self._last
        micros = max(micros, last)
        stamp = micros - last if self._relative else micros
        self._last = micros
        code_json = self._codes.get(code)
        if code_json is None:
            code_json = self._codes[code] = _json_str(_clean(code))
        if data.isascii():
            data_json = encode_basestring(data)
        else:
            data_json = _json_str(data if decoded else _clean(data))
        self.stream.write(
            f"[{stamp // 1_000_000}.{stamp % 1_000_000:06d}, {code_json}, {data_json}]\n"
        )

    def comment(self, text: str) -> None:
        """Write a ``#`` comment line (v3 only; ignored for v2, which has no comments)."""
        if self._relative:
            self.stream.write("# " + " ".join(_clean(text).split()) + "\n")


def _clean_obj(value: Any) -> Any:
    if isinstance(value, str):
        return _clean(value)
    if isinstance(value, dict):
        return {_clean(str(k)): _clean_obj(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean_obj(v) for v in value]
    return value
