"""A log's lines drawn a line at a time, and those that scroll off unseen kept as text.

Most of what a watched agent prints is a log: lines of printable text and SGRs, each ended by
``CR LF``. Parsed token by token, every line's text is new, so each costs a cache miss, a decode
and a token's bookkeeping, and a build log at 500 KB/s scrolls a hundred lines a frame past a
view that shows forty. From the cursor's first column on a screen without margins, such a line
does the same thing each time: its text is drawn across its row in the pens its SGRs make, the
carriage return goes back to the first column, and the line feed moves down or, at the bottom,
sends the top row to the scrollback and brings in a blank row of the pen's background (xterm's
BCE). So the stream takes the run of such lines at the start of a feed (:func:`plain_lines`):

- the lines that scroll off before the feed ends are not drawn: their text goes to the
  scrollback as it is (:mod:`observer.terminal.pending`), and their rows are built
  the first time anyone reads them (scrolling back, a resize, a copy);
- the others are drawn a whole line at a time (:func:`draw_line`) on their rows, a line longer
  than the row going on below it as autowrap takes it (the row it leaves marked as continuing).

Only printable ASCII is taken (the width of anything else is the emulator's to decide), in a
state where text draws plainly (no insert mode, no other character set, no link open, autowrap
on; wide characters met before are mended where a line's end splits one). The screen, the scrollback and the pen after it are those
every byte parsed would give (compared on random input in ``tests/unit/terminal/test_logged.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from observer.terminal import scrolled
from observer.terminal.actions import apply
from observer.terminal.cells import ERASED, Cell, CellCache, Line, WrappedLine, mend, thawed
from observer.terminal.pending import Block, Pending

if TYPE_CHECKING:
    import codecs

    from observer.terminal.screen import VTScreen

_SGR = scrolled.SGR_BYTES.decode()
_RESETS = [reset.decode() for reset in scrolled.RESETS]
#: Lines of printable ASCII and SGRs, each ended by ``CR LF`` (a PTY turns the ``CR LF`` a
#: program writes into ``CR CR LF``, which does the same): a log's.
LINES = re.compile(rb"(?:(?:[ -~]++|%s)*+\r++\n)++" % scrolled.SGR_BYTES)
#: A line split at its SGRs (text and SGRs in turn).
SGRS = re.compile(f"({_SGR})")
_ONE_SGR = re.compile(_SGR)
#: Fewer bytes of a log's lines than this are parsed as usual (the scan would cost more than
#: drawing them a line at a time saves).
MIN_LINES = 1024

#: The pen an SGR (the whole sequence) makes of a pen.
Step = Callable[[Cell, str], Cell]


def plain_lines(data: bytes, start: int = 0) -> int:
    """Where the whole lines of a log from ``start`` in ``data`` end, when they are
    :data:`MIN_LINES` bytes or more (0: fewer: drawing them a line at a time would save less
    than the scan cost; a log whose lines hold other sequences, ``grep``'s ``EL``, is parsed)."""
    if len(data) - start < MIN_LINES:
        return 0
    match = LINES.match(data, start)
    return match.end() if match and match.end() - start >= MIN_LINES else 0


def spans(lines: Sequence[str], columns: int) -> list[int]:
    """The rows each line takes: one, or as many as its text wraps onto (autowrap)."""
    if max(map(len, lines), default=0) <= columns:
        return [1] * len(lines)
    return [
        1 if len(line) <= columns else max(1, -(-len(SGRS.sub("", line)) // columns))
        for line in lines
    ]


def draw_line(
    line: str,
    pen: Cell,
    step: Step,
    glyphs: Callable[[Cell], CellCache],
    take: Callable[[Cell], Line],
    *,
    mended: bool = False,
) -> Cell:
    """Draw ``line`` (text and SGRs) from the first column of the row ``take(pen)`` gives, and
    on the next row it gives each time the text passes the last column (autowrap: asked for
    then, in the pen of the character that wraps); nothing is taken for a line of no text.
    Returns the pen its SGRs leave. ``mended``: the last row may hold wide characters, one of
    which the text's end may split (every other seam is between narrow characters)."""
    row: Line | None = None
    x = columns = 0
    for i, part in enumerate(SGRS.split(line) if "\x1b" in line else (line,)):
        if i & 1:
            pen = step(pen, part)
            continue
        text = part
        while text:
            if x == columns:
                row, x = take(pen), 0
                columns = len(row)
            end = min(columns, x + len(text))
            row[x:end] = map(glyphs(pen).__getitem__, text[: end - x])  # type: ignore[index]
            text = text[end - x :]
            x = end
    if mended and row is not None:
        mend(row, x, columns)
    return pen


class _Rows:
    """The rows lines are drawn on, in turn: what :func:`draw_line` takes."""

    __slots__ = ("at", "blank", "columns", "drawn", "k", "n", "rows")

    def __init__(self, rows: list[Line | None], columns: int) -> None:
        self.rows, self.columns = rows, columns
        self.at = self.k = self.n = 0  # the line's first row, the rows it took, its rows
        self.blank = ERASED  # of the row the line feed before the line brings in
        self.drawn: list[int] = []

    def take(self, pen: Cell) -> Line:
        """The line's next row (``pen``: the pen drawing on it)."""
        i = self.at + self.k
        row = self.rows[i]
        if row is None:  # a row a line feed brought in (of the pen then), or a wrap (default)
            row = [self.blank if self.k == 0 else ERASED] * self.columns
        if self.k < self.n - 1 and type(row) is not WrappedLine:  # the text goes on below
            row = WrappedLine(row)
        self.rows[i] = row
        self.drawn.append(i)
        self.k += 1
        return row


def draw_lines(
    rows: list[Line | None],
    at: int,
    lines: Sequence[str],
    span: Sequence[int],
    *,
    columns: int,
    pen: Cell,
    step: Step,
    screen: VTScreen,
    mended: bool,
) -> tuple[Cell, list[int]]:
    """Draw ``lines`` on ``rows``, ``columns`` wide, from row ``at`` on: each line on its rows
    (``span``, as :func:`spans` counts them) after the last one's. A row of ``None`` is one a
    line feed or a wrap brings in: blank, of the pen then. Returns the pen the lines leave and
    the rows drawn on. ``mended``: rows may hold wide characters."""
    taker = _Rows(rows, columns)
    for line, n in zip(lines, span, strict=True):
        taker.at, taker.k, taker.n, taker.blank = at, 0, n, screen.blank_of(pen.bg)
        pen = draw_line(line, pen, step, screen.glyphs_of, taker.take, mended=mended)
        if rows[at] is None:  # no text: the row the line feed before brought in
            rows[at] = [taker.blank] * columns
        at += n
    return pen, taker.drawn


def pen_after(lines: Sequence[str], pen: Cell, step: Step) -> Cell:
    """The pen ``lines`` leave, from ``pen``: their SGRs from the last that resets it on."""
    last, at = 0, 0
    for i in range(len(lines) - 1, -1, -1):
        at = max(lines[i].rfind(reset) for reset in _RESETS)
        if at >= 0:
            last = i
            break
    else:
        at = 0
    for i in range(last, len(lines)):
        if "\x1b" in lines[i]:
            for sgr in _ONE_SGR.findall(lines[i], at if i == last else 0):
                pen = step(pen, sgr)
    return pen


def pen_step(screen: VTScreen, pen: Cell, sgr: str) -> Cell:
    """The pen the SGR ``sgr`` makes of ``pen`` (interned, remembered by the pen's identity:
    the entry holds the pen, so its id is not reused while it is there)."""
    steps = screen.pen_steps
    found = steps.get((id(pen), sgr))
    if found is None or found[0] is not pen:
        try:
            after = screen.intern_pen(apply(pen, sgr[2:-1]))
        except Exception:  # the guard: an SGR that cannot be applied leaves the pen
            after = pen
        if len(steps) >= 1024:  # bounds memory
            steps.clear()
        found = steps[(id(pen), sgr)] = (pen, after)
    return found[1]


def build_rows(screen: VTScreen, block: Block) -> list[Line]:
    """The rows of lines that scrolled off unseen, as drawing them would have made them."""
    columns, lines = block.columns, block.lines
    span = spans(lines, columns)
    rows: list[Line | None] = [thawed(row) for row in block.bases]
    rows += [None] * (sum(span) - len(rows))
    step = partial(pen_step, screen)
    draw_lines(
        rows, 0, lines, span, columns=columns, pen=block.pen, step=step, screen=screen, mended=True
    )
    return rows  # type: ignore[return-value]


class LogDrawer:
    """The stream's part that takes a log's lines (:class:`~observer.terminal.stream.VTStream`)."""

    screen: VTScreen
    decoder: codecs.IncrementalDecoder

    def _at_rest(self) -> bool:
        raise NotImplementedError  # VTStream

    def feed_text(self, text: str) -> None:
        raise NotImplementedError  # VTStream

    def draw_log_lines(self, data: bytes) -> bytes:
        """Take the lines of a log at the start of ``data`` (after its first line end when the
        cursor is not yet in the first column) a line at a time (see the module), when they
        are :data:`MIN_LINES` or more bytes; returns what is left to feed."""
        screen = self.screen
        if not screen.plain_text or screen.margins is not None:
            return data
        start = 0
        if screen.cursor.x or not self._at_rest():
            start = data.find(b"\n") + 1
            if not start:
                return data
        end = plain_lines(data, start)
        if not end:
            return data
        if start:  # the rest of the line the cursor is on, parsed first
            self.feed_text(self.decoder.decode(data[:start]))
            if screen.cursor.x or not self._at_rest() or not screen.plain_text:
                return data[start:]
            if screen.margins is not None:
                return data[start:]
        # A CR is only ever before the LF that ends a line (see LINES).
        lines = data[start:end].decode("ascii").replace("\r", "").split("\n")
        del lines[-1]  # the empty one after the last line end
        self._lines(lines)
        return data[end:]

    def _lines(self, lines: list[str]) -> None:
        """Lines of a log from the cursor, in the first column (see the module)."""
        screen = self.screen
        step = partial(pen_step, screen)
        grid, columns, height = screen.grid, screen.columns, screen.lines
        y, pen = screen.cursor.y, screen.cursor.attrs
        span = spans(lines, columns)
        moves = sum(span)  # the rows the cursor goes down: wraps and line feeds
        # The screen's rows, then those scrolled in below them, each line on the next.
        rows: list[Line | Pending | None] = [*grid]
        rows += [None] * (y + moves + 1 - height)
        first = len(rows) - height  # the rows that scroll off the top
        kept = bool(screen.history.maxlen) and not screen.alternate
        # The lines all of whose rows scroll off, and the first row of the line after them.
        if moves == len(lines):  # no line wraps
            unseen = min(max(0, first - y), moves)
            at = y + unseen
        else:
            unseen, at = 0, y
            while unseen < len(lines) and at + span[unseen] <= first:
                at += span[unseen]
                unseen += 1
        if unseen:
            if kept:
                block = Block(lines[:unseen], pen, grid[y:at], columns)
                rows[y:at] = [Pending(block, i) for i in range(at - y)]
            pen = pen_after(lines[:unseen], pen, step)
        pen, drawn = draw_lines(
            rows,  # type: ignore[arg-type]
            at,
            lines[unseen:],
            span[unseen:],
            columns=columns,
            pen=pen,
            step=step,
            screen=screen,
            mended=screen.wide_seen,
        )
        at = y + moves
        if rows[at] is None:
            rows[at] = [screen.blank_of(pen.bg)] * columns
        if first and kept:
            screen.history.extend(rows[:first])  # type: ignore[arg-type]
        grid[:] = rows[first:]  # type: ignore[assignment]  # a row that wraps is a new one
        if first:
            screen.dirty_all = True
        else:
            screen.dirty.update(drawn)
        cursor = screen.cursor
        cursor.x, cursor.y, cursor.attrs = 0, at - first, pen
        screen.last_char = ""
