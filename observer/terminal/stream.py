"""The byte stream: a tokenizing parser that never raises, never hangs and never swallows.

pyte's parser is a generator fed one character at a time, raises on malformed input and
reads an OSC until its terminator, however far away. This one splits the input into whole
tokens with one regular expression (a printable run with the simple sequences and line
ends before it; a control sequence; a control), looks each token up in caches of what it
did before, keeps every partial sequence bounded, and carries state across ``feed`` calls
(UTF-8 is decoded incrementally). The states follow Paul Williams' DEC ANSI parser
(https://vt100.net/emu/dec_ansi_parser) as xterm and tmux implement it.
"""

from __future__ import annotations

import codecs
import re
from bisect import bisect_left
from collections import deque
from collections.abc import Callable
from functools import partial
from itertools import accumulate, islice

import pyte

from observer.terminal.actions import MAX_CACHED, MAX_SEQUENCE, noop
from observer.terminal.cells import Cell
from observer.terminal.screen import VTScreen
from observer.terminal.sequences import CSI_PATTERN, ESC, ESCAPE_PATTERN, SequenceReader
from observer.terminal.sgr import decode

Action = Callable[[], object]
# Printable text is matched with a plain range (a negated class is several times slower in
# the regex engine): everything from space except DEL and the C1 controls.
_TEXT = r"[ -~\xa0-\U0010ffff]"
# A "simple" CSI: numeric parameters only, any final but REP (``b``), which must follow
# printed text directly; or a DEC private mode set or reset (synchronized output and cursor
# visibility open and close every frame of a full-screen program). Runs of them, with CR
# LFs, are cached whole by their text.
_RUN = r"(?:\x1b\[[0-9;]*+[@-ac-~]|\r\n)"
# Possessive quantifiers: nothing given back can start text, so backtracking never helps.
_TOKEN = re.compile(
    rf"{_RUN}*+{_TEXT}++"  # text, with the simple sequences and line ends before it
    rf"|{_RUN}++"  # simple sequences and line ends alone
    r"|\x1b\[[0-?]*+[ -/]*+[@-~]"  # any other well-formed CSI
    r"|\x1b(?:[ -/]++[0-~]|[0-OQ-WYZ\\`a-~])"  # an ESC sequence (not a CSI or a string)
    r"|[\s\S]"  # one character: a control, ESC, DEL or C1 (ESC is handled one by one)
)
#: Texts longer than this after a colour met once are drawn through the cache of its pen.
_ONCE_TEXT = 12
_TEXT_TOKEN = re.compile(rf"({_RUN}*+)({_TEXT}++)")
_RUN_TOKEN = re.compile(rf"{_RUN}++")

#: A text token remembered: the action of its sequences, the pen they set (when it does
#: not depend on the pen before), the pen its text was drawn in, the text's length, its
#: cells in that pen, its last character, and the pen that its sequences, when they are
#: SGRs only (or none), turn into the pen it was drawn in (else ``None``).
_Known = tuple[Action | None, Cell | None, Cell, int, tuple[Cell, ...], str, Cell | None]
#: Text tokens longer than this are not remembered (64 characters of text at most when
#: no escape sequence comes with it: plain log lines seldom repeat).
_KNOWN_MAX = 256


class VTStream(SequenceReader, pyte.Stream):
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
        self._cache: dict[str, Action] = {}
        self._chains: dict[str, Action] = {}
        self._prefixes: dict[str, tuple[Action | None, Cell | None, bool]] = {}
        # Text tokens seen before (see _Known), and the actions of all other tokens.
        self._known: dict[str, _Known] = {}
        self._once: set[str] = set()  # tokens seen once (see _seen_before)
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
        # Every single character that is not text nor ESC: C0 controls (the others are
        # ignored), DEL and the C1 controls (ignored in a UTF-8 terminal, as by xterm).
        self._singles: dict[str, Action] = {
            chr(c): self._controls.get(chr(c), noop) for c in [*range(0x20), *range(0x7F, 0xA0)]
        }
        del self._singles[ESC]
        self._actions: dict[str, Action] = dict(self._singles)
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
        """Dispatch the tokens of ``text`` from ``pos``; returns where to go on when a
        sequence read by hand (a string, a partial CSI) ended elsewhere than its token."""
        screen = self.screen
        known_get = self._known.get
        dirty_add = screen.dirty.add
        tokens = _TOKEN.findall(text, pos)
        offsets: list[int] | None = None  # where each token starts, once an ESC needs it
        it = enumerate(tokens)
        for i, token in it:
            try:
                known = known_get(token)
                if known is not None:
                    # The hottest path: a text seen before, its cells ready.
                    before, pen_set, pen, size, cells, last, pen_in = known
                    cursor = screen.cursor
                    old = cursor.attrs
                    if old is pen_in:  # its sequences are SGRs, seen from this very pen
                        cursor.attrs = pen
                    else:
                        if before is not None:
                            before()
                            cursor = screen.cursor
                        if pen_set is not None:
                            cursor.attrs = pen_set
                    x = cursor.x
                    end = x + size
                    if cursor.attrs is pen and end <= screen.columns and screen.plain_draw:
                        screen.grid[cursor.y][x:end] = cells
                        cursor.x = end
                        dirty_add(cursor.y)
                        screen.last_char = last
                    else:  # another pen or state: draw it the usual way
                        self._text(token[-size:], token, before, pen_set, old if pen_in else None)
                    continue
                action = self._actions.get(token)
                if action is not None:
                    action()  # REP (a CSI on its own) still sees the last printed character
                    screen.last_char = ""
                    continue
                if token == ESC:
                    if offsets is None:
                        offsets = list(accumulate(map(len, tokens), initial=pos))
                    start = offsets[i]
                    after = self._unmatched(text, start)
                    if not self.pending or self.string is not None:
                        # A sequence cut by the end of the chunk has not happened yet: a
                        # REP it turns out to be still repeats the character before it.
                        screen.last_char = ""
                    if after != start + 1:
                        # A sequence read by hand (a string, a CSI holding a control): go
                        # on with the token it ended before, or tokenize again from where it
                        # ended inside one. Tokenizing the rest again after every string
                        # would make a chunk full of OSCs (links) cost its length squared.
                        j = bisect_left(offsets, after, i + 1)
                        if offsets[j] != after:
                            return after
                        deque(islice(it, j - i - 1), maxlen=0)
                    continue
                self._new(token)
            except Exception:  # the guard: one bad sequence never stops the stream
                screen.recover()
        return len(text)

    def _new(self, token: str) -> None:
        """A token not seen before (or forgotten): decode, run and remember it."""
        m = _TEXT_TOKEN.fullmatch(token)
        if m is not None:
            before, data = m.groups()
            action = pen = None
            pen_in: Cell | None = self.screen.cursor.attrs
            if before:
                found = self._prefixes.get(before)
                if found is None:
                    if not self._seen_before(before):
                        self._once_only(token, before, data)
                        return
                    found = self.prefix(before)
                action, pen, pens_only = found
                if not pens_only:
                    pen_in = None  # the token's pen also depends on its other sequences
                if action is not None:
                    action()
                if pen is not None:
                    self.screen.cursor.attrs = pen
            self._text(data, token, action, pen, pen_in)
            return
        if _RUN_TOKEN.fullmatch(token):
            if not self._seen_before(token):
                self._run_parts(token)  # most runs seen once (a random cursor position)
                self.screen.last_char = ""
                return
            action = self._chains.get(token) or self._chain(token)
        elif (csi := CSI_PATTERN.fullmatch(token)) is not None:
            action = self._cache.get(token) or self._compile(token, *csi.group(1, 2, 3))
        elif (esc := ESCAPE_PATTERN.fullmatch(token)) is not None:
            action = partial(self._escape, esc.group(1), esc.group(2))
        else:  # not produced by the token pattern; kept total for safety
            action = noop
        if len(self._actions) >= MAX_CACHED + len(self._singles):
            self._actions = dict(self._singles)
        self._actions[token] = action
        action()
        self.screen.last_char = ""

    def _once_only(self, token: str, before: str, data: str) -> None:
        """A text whose sequences were never seen before: run them without compiling (if
        they come again they will be). A colour met once, such as a truecolour word, is
        decoded from its parameters and its cells built for this text alone, leaving the
        caches of pens and cells to pens that come back."""
        screen = self.screen
        cursor = screen.cursor
        base = cursor.attrs
        if len(before) > MAX_SEQUENCE:
            pen = None  # a sequence too long is ignored (the general path knows how)
        elif before.rfind(ESC) == 0 and before.find("m") == len(before) - 1:  # one SGR
            pen = decode(base, before[2:-1])
        elif before.count("m") == before.count(ESC) and "\r" not in before:  # SGRs only
            pen = self._pens_once(base, before)
        else:
            pen = None
        if pen is None or len(data) > _ONCE_TEXT:
            # Not SGRs only, or a long text (several words: characters repeat, and a pen that
            # colours a line tends to come back): the general path, with its caches.
            if pen is None:
                self._run_parts(before)
            else:
                cursor.attrs = screen.intern_pen(pen)
            self._text(data, token, None, None, None, remember=False)
            return
        screen.derived_pen, screen.derived_from = pen, base
        cursor.attrs = pen
        x = cursor.x
        end = x + len(data)
        if (
            end <= screen.columns
            and screen.plain_draw
            and (data.isascii() or screen.all_narrow(data))
        ):
            rest = pen[1:]
            new = tuple.__new__
            # Concatenation builds the cells faster than unpacking into a tuple display.
            screen.grid[cursor.y][x:end] = [new(Cell, (char,) + rest) for char in data]  # noqa: RUF005
            cursor.x = end
            screen.dirty.add(cursor.y)
            screen.last_char = data[-1]
        else:
            screen.draw(data)

    @staticmethod
    def _pens_once(pen: Cell, before: str) -> Cell | None:
        """The pen after a run of SGRs (``None`` where :func:`decode` declines one)."""
        found: Cell | None = pen
        for params in before[2:-1].split("m\x1b["):
            if found is None:
                return None
            found = decode(found, params)
        return found

    def _text(
        self,
        data: str,
        token: str,
        before: Action | None,
        pen_set: Cell | None,
        pen_in: Cell | None,
        *,
        remember: bool = True,
    ) -> None:
        """Draw ``data`` (the text of ``token``, whose sequences have run) at the cursor and
        remember the token's cells when they could be drawn as a run."""
        screen = self.screen
        cursor = screen.cursor
        x = cursor.x
        end = x + len(data)
        if not (
            end <= screen.columns
            and screen.plain_draw
            and (data.isascii() or screen.all_narrow(data))
        ):
            screen.draw(data)
            return
        pen = cursor.attrs
        cache = screen._pen_cells if pen is screen._pen else screen._cells()
        cells = tuple(map(cache.__getitem__, data))
        screen.grid[cursor.y][x:end] = cells
        cursor.x = end
        screen.dirty.add(cursor.y)
        screen.last_char = data[-1]
        if remember and (len(data) <= 64 or (len(token) <= _KNOWN_MAX and ESC in token)):
            once = self._once
            if token not in once:  # remembered the second time it is seen
                if len(once) >= MAX_CACHED:
                    once.clear()
                once.add(token)
                return
            known = self._known
            if len(known) >= MAX_CACHED:
                known.clear()
            known[token] = (before, pen_set, pen, len(data), cells, data[-1], pen_in)
