"""The rare paths of the parser: partial, over-long or malformed sequences and strings.

The token pattern of :mod:`observer.terminal.stream` matches whole well-formed sequences;
whatever it leaves (a lone ESC, a CSI cut by the end of a chunk or holding a control, the
opener of an OSC/DCS/SOS/PM/APC string) is handled here, one sequence at a time, following
Paul Williams' DEC ANSI parser (https://vt100.net/emu/dec_ansi_parser) as xterm and tmux
implement it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from observer.terminal.actions import MAX_SEQUENCE, ActionCompiler, noop
from observer.terminal.screen import VTScreen
from observer.terminal.strings import STRINGS, StringReader

ESC = "\x1b"
CSI_PATTERN = re.compile(r"\x1b\[([0-?]*)([ -/]*)([@-~])")
ESCAPE_PATTERN = re.compile(r"\x1b([ -/]*)([0-~])")
_CSI_PREFIX = re.compile(r"\x1b\[[0-?]*[ -/]*")
_CSI_BODY = re.compile(r"[0-?]*[ -/]*")
_ESCAPE_PARTIAL = re.compile(r"\x1b[ -/]*\Z")
_CSI_END = re.compile(r"[@-~\x1b\x18\x1a]")


class SequenceReader(ActionCompiler, StringReader):
    """Partial and malformed sequences, ESC sequences and the start of strings."""

    screen: VTScreen
    pending: str
    ignoring_csi: bool
    _controls: dict[str, Callable[[], None]]
    _escapes: dict[str, Callable[[], None]]

    def _unmatched(self, text: str, pos: int) -> int:
        """Handle an ESC the token pattern left alone. Returns the position to go on from."""
        if pos + 1 == len(text):
            self.pending = ESC
            return len(text)
        nxt = text[pos + 1]
        if nxt == "[":
            return self._csi_slow(text, pos)
        if nxt in STRINGS:
            self.start_string(STRINGS[nxt])
            return self._string(text, pos + 2)
        m = ESCAPE_PATTERN.match(text, pos)
        if m is not None:
            self._escape(m.group(1), m.group(2))
            return m.end()
        if _ESCAPE_PARTIAL.match(text, pos) and len(text) - pos < 16:
            self.pending = text[pos:]
            return len(text)
        return pos + 1  # ESC before a control or a non-ASCII character: dropped

    def _csi_slow(self, text: str, pos: int) -> int:
        """A CSI the token pattern rejected: partial, too long, or holding a control.

        A C0 control inside a CSI is executed where it stands and the sequence goes on
        without it; CAN and SUB abort it; ESC starts a new one (VT500 parser).
        """
        n = len(text)
        body = _CSI_PREFIX.match(text, pos)
        assert body is not None
        sequence, i = body.group(), body.end()
        while True:
            if len(sequence) > MAX_SEQUENCE:
                self.ignoring_csi = True
                return self._skip_csi(text, i)
            if i == n:
                self.pending = sequence
                return n
            char = text[i]
            if "@" <= char <= "~":
                m = CSI_PATTERN.fullmatch(sequence + char)
                if m is not None:
                    self._decode(m.group(1), m.group(2), m.group(3))()
                return i + 1
            if char in "\x18\x1a":
                return i + 1
            if char == ESC:
                return i
            if char >= " ":
                self.ignoring_csi = True  # any other character makes the sequence invalid
                return self._skip_csi(text, i + 1)
            self._controls.get(char, noop)()
            self.screen.last_char = ""  # as after any control (tmux: REP repeats nothing then)
            part = _CSI_BODY.match(text, i + 1)
            assert part is not None
            sequence, i = sequence + part.group(), part.end()

    def _skip_csi(self, text: str, pos: int) -> int:
        m = _CSI_END.search(text, pos)
        if m is None:
            return len(text)
        self.ignoring_csi = False
        return m.end() if m.group() != ESC else m.start()

    def _escape(self, inter: str, final: str) -> None:
        screen = self.screen
        if not inter:
            action = self._escapes.get(final)
            if action is not None:
                action()
        elif inter in ("(", ")"):
            screen.define_charset(final, inter)
        elif inter == "#" and final == "8":
            screen.alignment_display()
