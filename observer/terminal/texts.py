"""Drawing the text of a token: remembered with its cells when it comes back, or drawn at
once when its sequences were met once (a truecolour agent UI, where most words bring a colour
never seen before: those must not churn the caches the other streams live on)."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import repeat

from observer.terminal.actions import MAX_SEQUENCE, ActionCompiler
from observer.terminal.cells import Cell, Glyph, VTCursor
from observer.terminal.screen import VTScreen
from observer.terminal.sgr import HEX_BY_TEXT, decode

Action = Callable[[], object]
ESC = "\x1b"

#: A text token remembered: the action of its sequences, the pen they set (when it does
#: not depend on the pen before), the pen its text was drawn in, the text's length, its
#: cells in that pen, its last character, the pen that its sequences, when they are
#: SGRs only (or none), turn into the pen it was drawn in (else ``None``), and whether they
#: do so from any pen that differs from that one only in its foreground (they set it).
Known = tuple[Action | None, Cell | None, Cell, int, tuple[Glyph, ...], str, Cell | None, bool]
#: Text tokens longer than this are not remembered (64 characters of text at most when
#: no escape sequence comes with it: plain log lines seldom repeat).
_KNOWN_MAX = 256
#: Texts longer than this after a colour met once are drawn through the cache of its pen.
ONCE_TEXT = 12
#: How :meth:`TextDrawer._word`'s tokens start.
WORD_HEAD = "\x1b[38;2;"
#: The longest token :meth:`TextDrawer._word` takes: the head, "255;255;255m", a bold and a
#: text.
WORD_MAX = len(WORD_HEAD) + 12 + 4 + ONCE_TEXT
_BOLD = "\x1b[1m"
_new = tuple.__new__
TRAILING_SGRS = re.compile(r"(?:\x1b\[[0-9;]*+m)++\Z")


class TextDrawer(ActionCompiler):
    """The text states of :class:`~observer.terminal.stream.VTStream`."""

    _known: dict[str, Known]
    #: Pens in bold, by the id of the pen they were made from (kept in the entry).
    _bolds: dict[int, tuple[Cell, Cell]]
    #: The fields of the pen the last word met once was made from (its foreground is then
    #: replaced: a word's pen is made from this list), and that pen.
    _fields: list[object]
    _fields_of: Cell | None = None

    def _word(self, token: str) -> bool:
        """The most frequent token of agent UIs, a truecolour foreground and a short word
        (``ESC [ 38;2;R;G;B m word``, or ``... m ESC [ 1 m word`` in bold), drawn at once;
        ``False`` (nothing done) when the token is not that, or it came before (a theme's
        colour on the same word comes back: the general path compiles it and remembers its
        cells). What :meth:`_once_only` does, with less to decide."""
        try:
            _, _, red, green, tail = token.split(";", 4)  # ESC[38, 2, R, G, "B m text"
            blue, _, data = tail.partition("m")
            hexes = HEX_BY_TEXT  # the components as programs write them: "0".."255"
            fg = f"{hexes[red]}{hexes[green]}{hexes[blue]}"  # one string built, not two
        except (ValueError, KeyError):  # another SGR (the general path takes it)
            return False
        bold = data.startswith(_BOLD)  # a word set off in bold as well
        if bold:
            data = data[4:]
        size = len(data)
        if not (
            0 < size <= ONCE_TEXT
            # text alone: no other sequence, no line end
            and (
                data.isprintable()
                if (ascii := data.isascii())
                else ESC not in data and "\r" not in data
            )
        ):
            return False
        once = self._once  # what _seen_before does, inline: this is the hottest path
        if token in once:
            return False
        if len(once) >= self._max_cached:
            once.clear()
        once.add(token)
        screen = self.screen
        cursor = screen.cursor
        base = cursor.attrs
        if bold:
            base = self._bold(base)
        fields = self._fields
        if self._fields_of is not base:  # words mostly start from one pen: its fields kept
            fields[:] = base
            self._fields_of = base
        fields[1] = fg
        pen: Cell = _new(Cell, fields)  # one tuple built, from the fields in place
        screen.derived_pen, screen.derived_from = pen, base
        cursor.attrs = pen
        # What _draw_once does, inline (a call costs a tenth of a word here).
        x = cursor.x
        end = x + size
        if end <= screen.columns and screen.plain_draw and (ascii or screen.all_narrow(data)):
            if size == 1:  # one character (a shimmer colours each its own)
                screen.grid[cursor.y][x] = (data, pen)
            else:  # each glyph a (char, pen) pair, built by zip in C
                screen.grid[cursor.y][x:end] = zip(data, repeat(pen))
            cursor.x = end
            screen.dirty.add(cursor.y)
            screen.last_char = data[-1]
        else:
            screen.draw(data)
        return True

    def _bold(self, pen: Cell) -> Cell:
        """``pen`` in bold, one object per pen (what a pen met once is derived from)."""
        found = self._bolds.get(id(pen))
        if found is None or found[0] is not pen:
            if len(self._bolds) >= 256:  # bounds memory
                self._bolds.clear()
            found = self._bolds[id(pen)] = (pen, self.screen.intern_pen(pen._replace(bold=True)))
        return found[1]

    def _once_only(self, token: str, before: str, data: str) -> None:
        """A text whose sequences were never seen before: run them without compiling (if
        they come again they will be). A colour met once, such as a truecolour word, is
        decoded from its parameters and its cells built for this text alone, leaving the
        caches of pens and cells to pens that come back."""
        screen = self.screen
        cursor = screen.cursor
        if len(before) > MAX_SEQUENCE:
            self._run_parts(before)  # a sequence too long is ignored: the general path
            pen = None
        elif before.rfind(ESC) == 0 and before.find("m") == len(before) - 1:  # one SGR
            pen = decode(cursor.attrs, before[2:-1])
            if pen is None:
                self._run_parts(before)
        else:
            pen = self._run_before(before)
        base = cursor.attrs
        if pen is None or len(data) > ONCE_TEXT:
            # Not SGRs only, or a long text (several words: characters repeat, and a pen that
            # colours a line tends to come back): the general path, with its caches.
            if pen is not None:
                cursor.attrs = screen.intern_pen(pen)
            self._text(data, token, None, None, None, remember=False)
            return
        # Only a pen that differs in its foreground alone is derived (what an SGR that sets
        # the foreground may start from, as from the pen it was made from).
        screen.derived_pen = pen if pen[2:] == base[2:] else None
        screen.derived_from = base
        cursor.attrs = pen
        _draw_once(screen, cursor, data, pen, data.isascii())

    def _run_before(self, before: str) -> Cell | None:
        """The pen that SGRs met once before a text make from the pen then (not set yet);
        ``None`` when they are not SGRs only, or not ones :func:`decode` reads: then they
        ran (the pen is set). Moves and erases before new SGRs never come here: the stream
        runs them on their own first (``VTStream._split``)."""
        if TRAILING_SGRS.fullmatch(before) is None:
            self._run_parts(before)
            return None
        pen = self._pens_once(self.screen.cursor.attrs, before)
        if pen is None:
            self._run_parts(before)
        return pen

    def _run_known(self, run: str) -> bool:
        """Run a run of simple sequences the way its text has been seen before (compiled
        the second time); whether it ran (else it is new and is left alone)."""
        action = self._chains.get(run)
        if action is None:
            if not self._seen_before(run):
                return False
            action = self._chain(run)
        action()
        return True

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
        fg_free: bool = False,
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
        # The cache of the pen drawn in last, or of a pen met before, without a call.
        cache = screen._pen_cells if pen is screen._pen else screen._caches.get(id(pen))
        if cache is None or cache.attrs is not pen:
            cache = screen._cells()
        row = screen.grid[cursor.y]
        # Straight into the row: the cells are copied out only for a token remembered.
        row[x:end] = map(cache.__getitem__, data)
        cursor.x = end
        screen.dirty.add(cursor.y)
        screen.last_char = data[-1]
        if remember and (len(data) <= 64 or (len(token) <= _KNOWN_MAX and ESC in token)):
            once = self._once
            if token not in once:  # remembered the second time it is seen
                if len(once) >= self._max_cached:
                    once.clear()
                once.add(token)
                return
            cells = tuple(row[x:end])
            known = self._known
            if len(known) >= self._max_cached:
                known.clear()
            if fg_free and pen_in is not None and pen_in is screen.derived_pen:
                pen_in = screen.derived_from  # a pen met once: the one it came from returns
            known[token] = (before, pen_set, pen, len(data), cells, data[-1], pen_in, fg_free)


def _draw_once(screen: VTScreen, cursor: VTCursor, data: str, pen: Cell, ascii: bool) -> None:
    """Draw ``data`` in ``pen`` (met once): its glyphs are built for this text alone, no
    cache of them is filled. ``ascii``: ``data.isascii()``."""
    x = cursor.x
    end = x + len(data)
    if not (end <= screen.columns and screen.plain_draw and (ascii or screen.all_narrow(data))):
        screen.draw(data)
        return
    if end == x + 1:  # one character (a shimmer colours each its own)
        screen.grid[cursor.y][x] = (data, pen)
    else:
        # Each glyph is (char, pen), built by zip in C: no Python step per character.
        screen.grid[cursor.y][x:end] = zip(data, repeat(pen))
    cursor.x = end
    screen.dirty.add(cursor.y)
    screen.last_char = data[-1]
