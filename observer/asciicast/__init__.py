"""asciicast v1/v2/v3 reading and writing, pure event transforms, feeding events into a model.

Pure: readers take an iterable of lines, writers a text stream; nothing here opens a file.
"""

from __future__ import annotations

from observer.asciicast.events import (
    EXIT,
    INPUT,
    KNOWN_CODES,
    MARKER,
    OUTPUT,
    RESIZE,
    Event,
    Header,
)
from observer.asciicast.feeding import Fed, feed
from observer.asciicast.reader import CastReader, read_header
from observer.asciicast.redact import Redactor
from observer.asciicast.transforms import cap_idle, shift, speed, until
from observer.asciicast.writer import DEFAULT_FORMAT, FORMATS, CastFormat, CastWriter, TextSink

__all__ = [
    "DEFAULT_FORMAT",
    "EXIT",
    "FORMATS",
    "INPUT",
    "KNOWN_CODES",
    "MARKER",
    "OUTPUT",
    "RESIZE",
    "CastFormat",
    "CastReader",
    "CastWriter",
    "Event",
    "Fed",
    "Header",
    "Redactor",
    "TextSink",
    "cap_idle",
    "feed",
    "read_header",
    "shift",
    "speed",
    "until",
]
