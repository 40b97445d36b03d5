"""Strings: OSC, DCS, SOS, PM and APC, consumed safely.

ECMA-48 8.3.89 ends a string with ST (``ESC \\``); xterm also accepts BEL. Any ESC aborts it
and CAN/SUB cancel it. Beyond that, two rules keep a lost terminator from hiding the
session (stock pyte reads an OSC until a terminator however far away): an OSC, which never
carries control characters, ends at the first one (a line break) and that control is then
executed; and any string is abandoned after :data:`MAX_STRING` characters, after which the
output is read as text again.
"""

from __future__ import annotations

import re

from observer.terminal import links
from observer.terminal.screen import VTScreen

#: Longest OSC payload kept (titles are much shorter; the rest is skipped).
MAX_STRING_KEPT = 4096
#: A string longer than this without terminator is abandoned and what follows is read as
#: ordinary output. Large enough for real payloads such as an OSC 52 clipboard copy.
MAX_STRING = 1 << 20

ESC = "\x1b"
_STRING_END = re.compile(r"[\x00-\x1f]")
#: The byte after ESC that opens each kind of string.
STRINGS = {"]": "osc", "P": "dcs", "X": "sos", "^": "pm", "_": "apc"}


class StringReader:
    """The string states of :class:`~observer.terminal.stream.VTStream`."""

    screen: VTScreen
    pending: str
    string: str | None
    string_kept: list[str]
    string_length: int

    def start_string(self, kind: str) -> None:
        """Enter a string of the given kind (``osc``, ``dcs``, ...)."""
        self.string, self.string_kept, self.string_length = kind, [], 0

    def _string(self, text: str, pos: int) -> int:
        """Consume string content; returns where ordinary parsing resumes."""
        n = len(text)
        while True:
            limit = min(n, pos + MAX_STRING - self.string_length)
            m = _STRING_END.search(text, pos, limit)
            stop = m.start() if m is not None else limit
            self._keep(text[pos:stop])
            if m is None:
                if limit < n or self.string_length >= MAX_STRING:
                    self.string = None  # abandoned: what follows is output
                return limit
            char = m.group()
            if char == "\x07":
                self._finish()
                return stop + 1
            if char == ESC:
                if stop + 1 == n:
                    self.pending = ESC
                    return n
                if text[stop + 1] == "\\":
                    self._finish()
                    return stop + 2
                self.string = None  # ESC aborts the string and starts a new sequence
                return stop
            if char in "\x18\x1a":
                self.string = None
                return stop + 1
            if self.string == "osc":
                # No OSC we honour carries controls: a line break means the terminator
                # was lost, so the string ends and the control is executed.
                self.string = None
                return stop
            self.string_length += 1
            pos = stop + 1

    def _keep(self, part: str) -> None:
        if part and self.string_length < MAX_STRING_KEPT:
            self.string_kept.append(part[: MAX_STRING_KEPT - self.string_length])
        self.string_length += len(part)

    def _finish(self) -> None:
        kind, self.string = self.string, None
        if kind != "osc":
            return
        code, _, value = "".join(self.string_kept).partition(";")
        if code == "8":
            # A URI cut at MAX_STRING_KEPT is not the one sent: it opens no link.
            over = self.string_length > MAX_STRING_KEPT
            self.screen.set_link(None if over else links.parse(value))
        elif code in ("0", "2"):
            self.screen.set_title(value)
        if code in ("0", "1"):
            self.screen.set_icon_name(value)
        elif code in ("9", "99", "777"):
            self.screen.notifications.osc(code, value)
