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
from pyte.screens import Char

from observer.terminal import csi
from observer.terminal.cells import BLANK
from observer.terminal.screen import VTScreen
from observer.terminal.sgr import apply_sgr

#: Longest control sequence kept while waiting for its end; longer ones are ignored.
MAX_SEQUENCE = 1024
#: Longest OSC payload kept (titles are much shorter; the rest is skipped).
MAX_STRING_KEPT = 4096
#: A string (OSC, DCS, SOS, PM, APC) longer than this without terminator is abandoned and
#: what follows is read as ordinary output, so a lost terminator cannot hide the session.
#: Large enough for real payloads such as an OSC 52 clipboard copy.
MAX_STRING = 1 << 20
#: Entries kept in the cache of decoded control sequences.
MAX_CACHED = 4096

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
)
_CHAIN_PART = re.compile(r"\x1b\[([0-9;]*)([@-~])|\r\n")
_CSI = re.compile(r"\x1b\[([0-?]*)([ -/]*)([@-~])")
_CSI_PREFIX = re.compile(r"\x1b\[[0-?]*[ -/]*")
_CSI_BODY = re.compile(r"[0-?]*[ -/]*")
_ESCAPE = re.compile(r"\x1b([ -/]*)([0-~])")
_ESCAPE_PARTIAL = re.compile(r"\x1b[ -/]*\Z")
_CSI_END = re.compile(r"[@-~\x1b\x18\x1a]")
_STRING_END = re.compile(r"[\x00-\x1f]")
_STRINGS = {"]": "osc", "P": "dcs", "X": "sos", "^": "pm", "_": "apc"}


_RESET = ((None,), (0,))


def _noop() -> None:
    pass


class VTStream(pyte.Stream):
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
        match = _TOKEN.match
        screen = self.screen
        draw = screen.draw
        chains = self._chains
        ascii_set = cs.LAT1_MAP
        irm = mo.IRM
        while pos < n:
            m = match(text, pos)
            try:
                if m is None:
                    pos = self._unmatched(text, pos)
                    screen.last_char = ""
                    continue
                pos = m.end()
                kind = m.lastindex
                if kind == 3:
                    before, data, after = m.groups()[:3]
                    if before:
                        (chains.get(before) or self._chain(before))()
                    cursor = screen.cursor
                    x = cursor.x
                    end = x + len(data)
                    if (
                        end <= screen.columns
                        and data.isascii()
                        and screen.g0_charset is ascii_set
                        and not (screen.charset or screen.wide_seen)
                        and irm not in screen.mode
                    ):
                        # The hot path, inlined: ASCII text that fits in the row.
                        screen.grid[cursor.y][x:end] = screen.run(data)
                        cursor.x = end
                        screen.dirty.add(cursor.y)
                        screen.last_char = data[-1]
                    else:
                        draw(data)
                    if after:
                        (chains.get(after) or self._chain(after))()
                        screen.last_char = ""  # REP repeats only what was printed just before
                elif kind == 4:
                    (chains.get(m.group(4)) or self._chain(m.group(4)))()
                    screen.last_char = ""
                elif kind == 7:
                    key = m.group()
                    action = self._cache.get(key)
                    if action is None:
                        action = self._compile(key, m.group(5), m.group(6), m.group(7))
                    action()
                    screen.last_char = ""
                else:
                    self._controls.get(m.group(8), _noop)()
                    screen.last_char = ""
            except Exception:  # the guard: one bad sequence never stops the stream
                screen.recover()

    # -- control sequences -----------------------------------------------------------------

    def _compile(self, key: str, params: str, inter: str, final: str) -> Callable[[], object]:
        action = self._decode(params, inter, final)
        if len(self._cache) >= MAX_CACHED:
            self._cache.clear()
        self._cache[key] = action
        return action

    def _decode(self, params: str, inter: str, final: str) -> Callable[[], object]:
        prefix = params[:1] if params[:1] in ("<", "=", ">", "?") else ""
        groups = csi.parse_params(params[len(prefix) :])
        if groups is None or inter or len(params) > MAX_SEQUENCE:
            return _noop
        if final == "m" and not prefix:
            return self._sgr([groups])
        if any(len(group) > 1 for group in groups):
            return _noop  # sub-parameters mean nothing outside SGR
        handler = csi.TABLES.get(prefix, {}).get(final)
        if handler is None:
            return _noop
        return handler(self.screen, tuple(group[0] or 0 for group in groups))

    def _chain(self, chain: str) -> Callable[[], object]:
        """The action for a run of simple CSIs and CR LFs, cached by its text. Consecutive
        SGRs are folded into one pen change."""
        actions: list[Callable[[], object]] = []
        pens: list[tuple[tuple[int | None, ...], ...]] = []
        for part in _CHAIN_PART.finditer(chain):
            params, final = part.group(1), part.group(2)
            if final == "m":
                pens.append(csi.parse_params(params) or ())
                continue
            if pens:
                actions.append(self._sgr(pens))
                pens = []
            actions.append(self._decode(params, "", final) if final else self.screen.newline)
        if pens:
            actions.append(self._sgr(pens))
        action = actions[0] if len(actions) == 1 else self._sequence(actions)
        if len(chain) <= MAX_SEQUENCE:
            if len(self._chains) >= MAX_CACHED:
                self._chains.clear()
            self._chains[chain] = action
        return action

    def _sequence(self, actions: list[Callable[[], object]]) -> Callable[[], object]:
        screen = self.screen

        def run() -> None:
            for action in actions:
                try:
                    action()
                except Exception:  # each sequence is guarded on its own
                    screen.recover()

        return run

    def _sgr(self, steps: list[tuple[tuple[int | None, ...], ...]]) -> Callable[[], object]:
        """An action applying SGR sequences; the resulting pen is computed once per
        starting pen, or once for all when a step resets the pen."""
        screen = self.screen
        resets = [i for i, groups in enumerate(steps) if not groups or groups[0] in _RESET]
        if resets:
            pen = BLANK
            for groups in steps[resets[-1] :]:
                pen = apply_sgr(pen, groups)  # the old pen does not matter

            def absolute() -> None:
                screen.cursor.attrs = pen

            return absolute
        memo: dict[Char, Char] = {}

        def relative() -> None:
            old = screen.cursor.attrs
            new = memo.get(old)
            if new is None:
                if len(memo) > 64:
                    memo.clear()
                new = old
                for groups in steps:
                    new = apply_sgr(new, groups)
                memo[old] = new
            screen.cursor.attrs = new

        return relative

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
        if nxt in _STRINGS:
            self.string, self.string_kept, self.string_length = _STRINGS[nxt], [], 0
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
            self._controls.get(char, _noop)()
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

    # -- strings: OSC, DCS, SOS, PM, APC ---------------------------------------------------

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
        if code in ("0", "2"):
            self.screen.set_title(value)
        if code in ("0", "1"):
            self.screen.set_icon_name(value)
