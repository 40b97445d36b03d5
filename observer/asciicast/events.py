"""The one event model every asciicast version is normalised to.

asciicast v1 stores delays between frames, v2 absolute times, v3 intervals since the previous event
(https://docs.asciinema.org/manual/asciicast/v3/). Here every :class:`Event` carries the absolute time
in seconds since the recording started, so transforms and players never care which version a file was.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

OUTPUT: Final = "o"
"""Data written by the program to the terminal."""
INPUT: Final = "i"
"""Data typed by the user (keyboard input)."""
RESIZE: Final = "r"
"""The terminal was resized; data is ``"COLSxROWS"``."""
MARKER: Final = "m"
"""A marker (breakpoint / chapter); data is its label, possibly empty."""
EXIT: Final = "x"
"""The recorded program exited; data is its status as a decimal string (asciicast v3)."""

KNOWN_CODES: Final = frozenset({OUTPUT, INPUT, RESIZE, MARKER, EXIT})


@dataclass(frozen=True, slots=True)
class Event:
    """One timed event of a recording.

    Attributes:
        time: Absolute seconds since the start of the recording (never negative, never decreasing
            within one recording as read by :class:`~observer.asciicast.reader.CastReader`).
        code: Event type: one of ``o i r m x`` or any other code, which is kept as is.
        data: The event's payload string.
    """

    time: float
    code: str
    data: str


@dataclass(frozen=True, slots=True)
class Header:
    """Recording metadata, whatever the version it came from.

    Attributes:
        version: 1, 2 or 3 as read (the writer chooses its own).
        cols: Initial terminal width.
        rows: Initial terminal height.
        timestamp: Unix time the recording started, if known.
        title: Title of the recording, if any.
        env: Captured environment variables (name -> value).
        theme: Terminal theme (``fg``, ``bg``, ``palette`` as in the spec), if recorded.
        idle_time_limit: Suggested cap on pauses during playback, if recorded.
        command: The recorded command, if known.
        term_type: ``TERM`` of the recording terminal (v3 ``term.type``), if known.
        extra: Header keys this model does not know, kept so a rewrite loses nothing.
    """

    version: int
    cols: int
    rows: int
    timestamp: int | None = None
    title: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    theme: Mapping[str, str] | None = None
    idle_time_limit: float | None = None
    command: str | None = None
    term_type: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
