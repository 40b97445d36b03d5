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
from pyte import charsets as cs

from observer.terminal import erased, logged, scrolled
from observer.terminal.actions import MAX_CACHED, Prefix, noop
from observer.terminal.cells import BLANK, Cell
from observer.terminal.logged import LogDrawer
from observer.terminal.screen import VTScreen
from observer.terminal.sequences import CSI_PATTERN, ESC, ESCAPE_PATTERN, SequenceReader
from observer.terminal.texts import TRAILING_SGRS, WORD_HEAD, WORD_MAX, Known, TextDrawer

Action = Callable[[], object]
# Printable text is matched with a plain range (a negated class is several times slower in
# the regex engine): everything from space except DEL and the C1 controls.
_TEXT = r"[ -~\xa0-\U0010ffff]"
# A "simple" CSI: numeric parameters only, any final but REP (``b``), which must follow
# printed text directly. Runs of them, with CR LFs, are cached whole by their text.
_RUN = r"(?:\x1b\[[0-9;]*+[@-ac-~]|\r\n)"
# Possessive quantifiers: nothing given back can start text, so backtracking never helps.
_TOKEN = re.compile(
    rf"{_RUN}*+{_TEXT}++"  # text, with the simple sequences and line ends before it
    rf"|{_RUN}++"  # simple sequences and line ends alone
    r"|\x1b\[[0-?]*+[ -/]*+[@-~]"  # any other well-formed CSI
    r"|\x1b(?:[ -/]++[0-~]|[0-OQ-WYZ\\`a-~])"  # an ESC sequence (not a CSI or a string)
    r"|[\s\S]"  # one character: a control, ESC, DEL or C1 (ESC is handled one by one)
)
#: The runs a token starts with: in a text token, what its text follows. Any other token
#: (runs alone, a CSI that is not simple, an ESC sequence, a control) has nothing after its
#: runs that starts with a printable character (see :meth:`VTStream._new`).
_RUNS = re.compile(rf"{_RUN}*+")


class VTStream(SequenceReader, TextDrawer, LogDrawer, pyte.Stream):
    """Parse bytes into calls on a :class:`VTScreen`.

    Args:
        screen: the screen to drive.
    """

    def __init__(self, screen: VTScreen, caches: int = MAX_CACHED) -> None:
        super().__init__(None, strict=False)
        self.screen = screen
        screen.build_block = logged.build_rows
        self._max_cached = caches
        self.listener = screen
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.pending = ""  # an incomplete sequence from the previous chunk
        self.string: str | None = None  # inside OSC/DCS/...: its kind
        self.string_kept: list[str] = []
        self.string_length = 0
        self.ignoring_csi = False  # inside an over-long or malformed CSI
        self._cache: dict[str, Action] = {}
        self._chains: dict[str, Action] = {}
        self._prefixes: dict[str, Prefix] = {}
        # Text tokens seen before (see _Known), and the actions of all other tokens.
        self._known: dict[str, Known] = {}
        self._bolds: dict[int, tuple[Cell, Cell]] = {}
        self._fields: list[object] = list(BLANK)
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
        if len(data) >= erased.MIN_FEED:
            data = self._skip_erased_draws(data)
        if len(data) >= scrolled.MIN_SKIPPED:
            skipped = self.skip_scrolled(data)
            if skipped:
                data = data[skipped:]
        if len(data) >= logged.MIN_LINES:
            data = self.draw_log_lines(data)
        self.feed_text(self.decoder.decode(data))

    def _skip_erased_draws(self, data: bytes) -> bytes:
        """What is left of ``data`` to feed once the draws that its erases empty were taken
        (:meth:`skip_erased`), the bytes before them parsed."""
        if b"\x1b[2K" not in data:  # no erase: nothing to skip (the usual feed)
            return data
        skipped = self.skip_erased(data)
        if skipped:
            return data[skipped:]
        # A read that starts inside a frame, or inside a sequence (a PTY read ends anywhere):
        # parsed up to its first line end, the rest of the frame before its erase may be
        # skipped; else parsed up to the end of the erase, the frames after it may be.
        for where in (erased.line_start, erased.next_start):
            start = where(data)
            if 0 < start < len(data) - erased.MIN_SKIPPED:
                self.feed_text(self.decoder.decode(data[:start]))
                data = data[start:]
                skipped = self.skip_erased(data)
                if skipped:
                    return data[skipped:]
        return data

    def _at_rest(self) -> bool:
        """Whether no sequence, string or character is unfinished."""
        return not (
            self.pending
            or self.string is not None
            or self.ignoring_csi
            or self.decoder.getstate()[0]
        )

    def skip_erased(self, data: bytes) -> int:
        """Take the draws at the start of ``data`` that the erases after them empty, without
        drawing them (:mod:`observer.terminal.erased`); returns how many bytes were taken (0:
        none). The rest must be fed next."""
        screen = self.screen
        graphics = screen.g1_charset if screen.charset else screen.g0_charset
        if not self._at_rest() or graphics is cs.VT100_MAP:
            return 0
        top, bottom = screen.margins or (0, screen.lines - 1)
        cursor = screen.cursor
        at = erased.Region(screen.columns, screen.lines, top, bottom, cursor.x, cursor.y)
        taken, draws = erased.erased_draws(data, at, screen.all_narrow)
        for draw in draws:
            self._take_pen(draw.pen)
            screen.cursor.x, screen.cursor.y = 0, draw.row
            self.feed_text(draw.erase)
        return taken

    def _take_pen(self, sgrs: str) -> None:
        """Run SGRs of skipped output (:func:`scrolled.pen_after`), as parsing them would."""
        screen = self.screen
        try:
            screen.cursor.attrs = screen.intern_pen(scrolled.pen_after(screen.cursor.attrs, sgrs))
        except Exception:  # the guard: one bad sequence never stops the stream
            screen.recover()
        screen.last_char = ""

    def skip_scrolled(self, data: bytes) -> int:
        """Where no scrollback keeps them, take the lines at the start of ``data`` that its
        lines after them scroll off without drawing them (:mod:`observer.terminal.scrolled`);
        returns how many bytes were taken (0: none). The rest must be fed next."""
        screen = self.screen
        if not self._at_rest() or (screen.history.maxlen and not screen.alternate):
            return 0
        top, bottom = screen.margins or (0, screen.lines - 1)
        y = screen.cursor.y
        if not top <= y <= bottom:
            return 0
        skipped = scrolled.scrolled_off(data, bottom - top + 1, bottom - y)
        if skipped:
            self._take_pen(scrolled.pen_sequences(data[:skipped]))
            screen.cursor.x, screen.cursor.y = 0, bottom
        return skipped

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
                    before, pen_set, pen, size, cells, last, pen_in, fg_free = known
                    cursor = screen.cursor
                    old = cursor.attrs
                    if old is pen_in or (
                        # a pen met once, made from pen_in by a foreground these SGRs set
                        fg_free and old is screen.derived_pen and screen.derived_from is pen_in
                    ):
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
                        pen_in = old if pen_in else None
                        self._text(token[-size:], token, before, pen_set, pen_in, fg_free=fg_free)
                    continue
                if len(token) <= WORD_MAX and token[:7] == WORD_HEAD and self._word(token):
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

    def _split(self, before: str, data: str) -> bool:
        """A text after new sequences that end in SGRs (a row painted at a new place, a
        frame's erase, then a colour): the sequences before the SGRs run on their own, as a
        run compiled the second time it is seen (the erase of the last frame is the same
        every frame), and the SGRs and text go on as a token of their own, which is often
        known (the same word in the same colour elsewhere on the screen; SGRs that come
        back are compiled and their pens interned, which the caches of the text after them
        rely on). Whether it was split (not when the sequences are all SGRs, or none)."""
        tail = TRAILING_SGRS.search(before)
        if tail is None or tail.start() == 0:
            return False
        head = before[: tail.start()]
        if not self._run_known(head):
            self._run_parts(head)
        self.screen.last_char = ""
        self._tokens(tail.group() + data, 0)
        return True

    def _new(self, token: str) -> None:
        """A token not seen before (or forgotten): decode, run and remember it."""
        # Split at the end of its runs: no need to read the text again to know it is one.
        head = _RUNS.match(token)  # matches "" at least
        runs = head.end() if head is not None else 0
        first = token[runs : runs + 1]
        if first and (" " <= first <= "~" or first >= "\xa0"):  # a text (see _TEXT)
            before, data = token[:runs], token[runs:]
            action = pen = None
            fg_free = False
            pen_in: Cell | None = self.screen.cursor.attrs
            if before:
                found = self._prefixes.get(before)
                if found is None:
                    if not self._seen_before(before):
                        if self._split(before, data):
                            return
                        self._once_only(token, before, data)
                        return
                    found = self.prefix(before)
                action, pen, pens_only, fg_free = found
                if not pens_only:
                    pen_in = None  # the token's pen also depends on its other sequences
                if action is not None:
                    action()
                if pen is not None:
                    self.screen.cursor.attrs = pen
            self._text(data, token, action, pen, pen_in, fg_free=fg_free)
            return
        if runs == len(token):  # runs alone
            if not self._seen_before(token):
                self._run_once(token)  # most runs seen once (a random cursor position)
                self.screen.last_char = ""
                return
            action = self._chains.get(token) or self._chain(token)
        elif (csi := CSI_PATTERN.fullmatch(token)) is not None:
            action = self._cache.get(token) or self._compile(token, *csi.group(1, 2, 3))
        elif (esc := ESCAPE_PATTERN.fullmatch(token)) is not None:
            action = partial(self._escape, esc.group(1), esc.group(2))
        else:  # not produced by the token pattern; kept total for safety
            action = noop
        if len(self._actions) >= self._max_cached + len(self._singles):
            self._actions = dict(self._singles)
        self._actions[token] = action
        action()
        self.screen.last_char = ""
