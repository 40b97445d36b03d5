"""The byte stream: a tokenizing parser that never raises, never hangs and never swallows.

pyte's parser is a generator fed one character at a time, raises on malformed input and
reads an OSC until its terminator, however far away. This one matches whole printable
runs and whole control sequences with one regular expression, dispatches them by table,
keeps every partial sequence bounded, and carries state across ``feed`` calls (UTF-8 is
decoded incrementally). The states follow Paul Williams' DEC ANSI parser
(https://vt100.net/emu/dec_ansi_parser) as xterm and tmux implement it.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable

import pyte
from pyte import charsets as cs
from pyte import modes as mo

from observer.terminal.actions import MAX_CACHED, MAX_SEQUENCE, ActionCompiler, noop
from observer.terminal.cells import Cell
from observer.terminal.screen import VTScreen
from observer.terminal.strings import STRINGS, StringReader

ESC = "\x1b"
# Printable text is matched with a plain range (a negated class is several times slower in
# the regex engine): everything from space except DEL and the C1 controls.
_TEXT = r"[ -~\xa0-\U0010ffff]"
# A "simple" CSI: numeric parameters only, any final but REP (``b``), which must follow
# printed text directly. Runs of them around text are matched as one token and their
# combined action is cached by their text, so a typical coloured line or redraw costs a few
# dictionary lookups instead of one parse per sequence.
_SIMPLE = r"(?:\x1b\[[0-9;]*[@-ac-~])"
_TOKEN = re.compile(
    rf"({_SIMPLE}*)({_TEXT}+)((?:{_SIMPLE}|\r\n)*)"  # 1-3: sequences, text, sequences/CRLFs
    rf"|((?:{_SIMPLE}|\r\n)+)"  # 4: sequences and line ends alone
    r"|\x1b\[([0-?]*)([ -/]*)([@-~])"  # 5-7: any other well-formed CSI
    r"|([\x00-\x1a\x1c-\x1f])"  # 8: a C0 control other than ESC
    r"|([\s\S])"  # 9: anything else (ESC sequences, strings, DEL, C1): handled one by one
)
_CSI = re.compile(r"\x1b\[([0-?]*)([ -/]*)([@-~])")
_CSI_PREFIX = re.compile(r"\x1b\[[0-?]*[ -/]*")
_CSI_BODY = re.compile(r"[0-?]*[ -/]*")
_ESCAPE = re.compile(r"\x1b([ -/]*)([0-~])")
_ESCAPE_PARTIAL = re.compile(r"\x1b[ -/]*\Z")
_CSI_END = re.compile(r"[@-~\x1b\x18\x1a]")


#: Longest token kept in the cache of tokens seen before (64 without escape sequences).
_KNOWN_MAX = 256
#: A token seen before: the action before its text, the text's length, the pen it was drawn
#: in, its cells in that pen, its last character and the action after it.
_Known = tuple[
    Callable[[], object] | None, int, Cell, tuple[Cell, ...], str, Callable[[], object] | None
]


class VTStream(ActionCompiler, StringReader, pyte.Stream):
    """Parse bytes into calls on a :class:`VTScreen`.

    Args:
        screen: the screen to drive.
    """

    def __init__(self, screen: VTScreen) -> None:
        super().__init__(None, strict=False)
        self.screen = screen
        self.listener = screen
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.pending = ""  # an incomplete sequence from the previous chunk
        self.string: str | None = None  # inside OSC/DCS/...: its kind
        self.string_kept: list[str] = []
        self.string_length = 0
        self.ignoring_csi = False  # inside an over-long or malformed CSI
        self._cache: dict[str, Callable[[], object]] = {}
        self._chains: dict[str, Callable[[], object]] = {}
        # Whole text tokens seen before: their actions and, for the pen they were drawn in,
        # their cells (see _tokens).
        self._tokens_seen: dict[str, _Known] = {}
        self._controls: dict[str, Callable[[], None]] = {
            "\x07": screen.bell,
            "\x08": screen.backspace,
            "\t": screen.tab,
            "\n": screen.linefeed,
            "\x0b": screen.linefeed,
            "\x0c": screen.linefeed,
            "\r": screen.carriage_return,
            "\x0e": screen.shift_out,
            "\x0f": screen.shift_in,
        }
        self._escapes: dict[str, Callable[[], None]] = {
            "7": screen.save_cursor,
            "8": screen.restore_cursor,
            "D": screen.index,
            "E": screen.next_line,
            "M": screen.reverse_index,
            "H": screen.set_tab_stop,
            "c": screen.reset,
            "=": lambda: screen.set_keypad(True),  # DECKPAM
            ">": lambda: screen.set_keypad(False),  # DECKPNM
        }

    def feed(self, data: bytes) -> None:  # type: ignore[override]
        """Consume bytes. Never raises for any input."""
        self.feed_text(self.decoder.decode(data))

    def feed_text(self, text: str) -> None:
        """Consume already decoded text."""
        if self.pending:
            text, self.pending = self.pending + text, ""
        pos, n = 0, len(text)
        if self.string is not None:
            pos = self._string(text, 0)
        elif self.ignoring_csi:
            pos = self._skip_csi(text, 0)
        while pos < n:
            pos = self._tokens(text, pos)

    def _tokens(self, text: str, pos: int) -> int:
        """Dispatch tokens from ``pos``; returns where to go on when a sequence outside the
        token pattern consumed more than one character (or the end)."""
        screen = self.screen
        draw = screen.draw
        chains = self._chains
        tokens = self._tokens_seen
        ascii_set = cs.LAT1_MAP
        irm = mo.IRM
        for m in _TOKEN.finditer(text, pos):
            try:
                kind = m.lastindex
                if kind == 3:
                    token = m.group()
                    # Long plain text (a log line) seldom repeats: not worth a lookup; a
                    # long coloured token (a separator line, a status line) often does.
                    size = len(token)
                    remember = size <= 64 or (size <= _KNOWN_MAX and ESC in token)
                    known = tokens.get(token) if remember else None
                    if known is not None:
                        # The hottest path: a token seen before, its cells ready.
                        first, size, pen, cells, last, then = known
                        if first is not None:
                            first()
                        cursor = screen.cursor
                        x = cursor.x
                        end = x + size
                        if (
                            cursor.attrs is pen
                            and end <= screen.columns
                            and screen.g0_charset is ascii_set
                            and not (screen.charset or screen.wide_seen)
                            and irm not in screen.mode
                        ):
                            screen.grid[cursor.y][x:end] = cells
                            cursor.x = end
                            screen.dirty.add(cursor.y)
                            if then is None:
                                screen.last_char = last
                            else:
                                then()
                                screen.last_char = ""
                            continue
                        # Another pen or state: draw it the usual way (its first action
                        # has run) and remember it for this pen.
                        data, after = m.group(2, 3)
                    else:
                        before, data, after = m.group(1, 2, 3)
                        first = then = None
                        if before:
                            first = chains.get(before) or self._chain(before)
                            first()
                    cursor = screen.cursor
                    x = cursor.x
                    end = x + len(data)
                    if (
                        end <= screen.columns
                        and (data.isascii() or screen.all_narrow(data))
                        and screen.g0_charset is ascii_set
                        and not (screen.charset or screen.wide_seen)
                        and irm not in screen.mode
                    ):
                        # The hot path, inlined: narrow text that fits in the row.
                        if cursor.attrs is not screen._pen:
                            screen._cells()
                        cells = screen._pen_runs.get(data) or screen.run(data)
                        screen.grid[cursor.y][x:end] = cells
                        cursor.x = end
                        screen.dirty.add(cursor.y)
                        screen.last_char = data[-1]
                        if after and then is None:
                            then = chains.get(after) or self._chain(after)
                        if remember:
                            if len(tokens) >= MAX_CACHED:
                                tokens.clear()
                            pen = cursor.attrs
                            tokens[token] = (first, len(data), pen, cells, data[-1], then)
                    else:
                        draw(data)
                    if after:
                        (then or chains.get(after) or self._chain(after))()
                        screen.last_char = ""  # REP repeats only what was printed just before
                    continue
                if kind == 7:
                    key = m.group()
                    action = self._cache.get(key)
                    if action is None:
                        action = self._compile(key, m.group(5), m.group(6), m.group(7))
                    action()  # REP (only here) still sees the last printed character
                screen.last_char = ""
                if kind == 4:
                    (chains.get(m.group(4)) or self._chain(m.group(4)))()
                elif kind == 8:
                    self._controls.get(m.group(8), noop)()
                elif kind == 9:
                    start = m.start()
                    after_it = self._unmatched(text, start)
                    if after_it != start + 1:
                        return after_it  # re-tokenize from there
            except Exception:  # the guard: one bad sequence never stops the stream
                screen.recover()
        return len(text)

    def _unmatched(self, text: str, pos: int) -> int:
        """Handle what the token pattern does not: ESC sequences, malformed or partial
        CSIs, strings, DEL and C1 characters. Returns the position to go on from."""
        if text[pos] != ESC:
            return pos + 1  # DEL and C1 controls are ignored (UTF-8 terminals, as xterm)
        if pos + 1 == len(text):
            self.pending = ESC
            return len(text)
        nxt = text[pos + 1]
        if nxt == "[":
            return self._csi_slow(text, pos)
        if nxt in STRINGS:
            self.start_string(STRINGS[nxt])
            return self._string(text, pos + 2)
        m = _ESCAPE.match(text, pos)
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
                m = _CSI.fullmatch(sequence + char)
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
