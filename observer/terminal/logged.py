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
- the others are drawn a whole line at a time (:func:`draw_line`) on their rows.

Only lines that fit their row are taken (a longer one wraps), printable ASCII only (the width of
anything else is the emulator's to decide), in a state where text draws plainly (no insert mode,
no other character set, no link open). The screen, the scrollback and the pen after it are those
every byte parsed would give (compared on random input in ``tests/unit/terminal/test_logged.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from observer.terminal.actions import apply
from observer.terminal.cells import Cell, CellCache, Line, WrappedLine, mend
from observer.terminal.pending import Block, Pending

if TYPE_CHECKING:
    import codecs

    from observer.terminal.screen import VTScreen

_SGR = r"\x1b\[[0-9;]{0,32}+m"
#: Lines of printable ASCII and SGRs, each ended by ``CR LF`` (a PTY turns the ``CR LF`` a
#: program writes into ``CR CR LF``, which does the same): a log's.
LINES = re.compile(rb"(?:(?:[ -~]++|%s)*+\r++\n)++" % _SGR.encode())
#: A line split at its SGRs (text and SGRs in turn).
SGRS = re.compile(f"({_SGR})")
_ONE_SGR = re.compile(_SGR)
#: A feed shorter than this is parsed as usual (the scan would cost more than it saves).
MIN_LINES = 1024

#: The pen an SGR (the whole sequence) makes of a pen.
Step = Callable[[Cell, str], Cell]


def plain_lines(data: bytes, start: int = 0) -> int:
    """Where the whole lines of a log from ``start`` in ``data`` end (0: none there)."""
    if len(data) - start < MIN_LINES:
        return 0
    match = LINES.match(data, start)
    return match.end() if match else 0


def fitting(lines: list[str], columns: int) -> int:
    """How many of ``lines``, from the first, fit a row of ``columns`` without wrapping."""
    if max(map(len, lines), default=0) <= columns:
        return len(lines)
    for i, line in enumerate(lines):
        if len(line) > columns and len(SGRS.sub("", line)) > columns:
            return i
    return len(lines)


def draw_line(
    row: Line,
    line: str,
    pen: Cell,
    step: Step,
    glyphs: Callable[[Cell], CellCache],
    *,
    mended: bool = False,
) -> Cell:
    """Draw ``line`` (text and SGRs, fitting the row) on ``row`` from its first column, starting
    in ``pen``; returns the pen its SGRs leave. ``mended``: the row may hold wide characters,
    one of which the text's end may split (the text's own seams are between narrow ones)."""
    if "\x1b" not in line:
        if line:
            row[: len(line)] = map(glyphs(pen).__getitem__, line)
            if mended:
                mend(row, len(line), len(row))
        return pen
    x = 0
    for i, part in enumerate(SGRS.split(line)):
        if i & 1:
            pen = step(pen, part)
        elif part:
            end = x + len(part)
            row[x:end] = map(glyphs(pen).__getitem__, part)
            x = end
    if mended and x:
        mend(row, x, len(row))
    return pen


def pen_after(lines: Sequence[str], pen: Cell, step: Step) -> Cell:
    """The pen ``lines`` leave, from ``pen``: their SGRs from the last that resets it on."""
    last, at = 0, 0
    for i in range(len(lines) - 1, -1, -1):
        at = max(lines[i].rfind("\x1b[0m"), lines[i].rfind("\x1b[m"))
        if at >= 0:
            last = i
            break
    else:
        at = 0
    for i in range(last, len(lines)):
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
    pen, bases, columns = block.pen, block.bases, block.columns
    step = partial(pen_step, screen)
    rows = []
    for i, line in enumerate(block.lines):
        if i < len(bases):
            row = list(bases[i])
            pen = draw_line(row, line, pen, step, screen.glyphs_of, mended=True)
        else:
            row = [screen.blank_of(pen.bg)] * columns
            pen = draw_line(row, line, pen, step, screen.glyphs_of)
        rows.append(row)
    return rows


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
        cursor is not yet in the first column) a line at a time (see the module);
        returns what is left to feed."""
        screen = self.screen
        if not screen.plain_text or screen.margins is not None:
            return data
        start = 0
        if screen.cursor.x or not self._at_rest():
            start = data.find(b"\r\n") + 2
            if start < 2 or len(data) - start < MIN_LINES:
                return data
            self.feed_text(self.decoder.decode(data[:start]))
            if screen.cursor.x or not self._at_rest() or not screen.plain_text:
                return data[start:]
            if screen.margins is not None:
                return data[start:]
        end = plain_lines(data, start)
        if not end:
            return data[start:]
        # A CR is only ever before the LF that ends a line (see LINES).
        lines = data[start:end].decode("ascii").replace("\r", "").split("\n")
        taken = fitting(lines[:-1], screen.columns)
        if taken < len(lines) - 1:  # a line too wide, left to parse from its start
            del lines[taken:]
            end = start
            for _ in range(taken):
                end = data.index(b"\n", end) + 1
        else:
            del lines[-1]  # the empty one after the last line end
        if lines:
            self._lines(lines)
        return data[end:]

    def _lines(self, lines: list[str]) -> None:
        """Lines of a log from the cursor, in the first column (see the module)."""
        screen = self.screen
        step, glyphs = partial(pen_step, screen), screen.glyphs_of
        grid, columns, height = screen.grid, screen.columns, screen.lines
        y, pen, count = screen.cursor.y, screen.cursor.attrs, len(lines)
        # The screen's rows, then those the line feeds scroll in, each line on the next.
        rows: list[Line | Pending | None] = [*grid]
        rows += [None] * (y + count + 1 - height)
        first = len(rows) - height  # the rows that scroll off the top
        kept = bool(screen.history.maxlen) and not screen.alternate
        unseen = min(max(0, first - y), count)  # lines whose rows scroll off
        if unseen:
            bases = grid[y : y + unseen]
            if not kept or all(type(row) is not WrappedLine for row in bases):
                if kept:
                    block = Block(lines[:unseen], pen, bases, columns)
                    rows[y : y + unseen] = [Pending(block, i) for i in range(unseen)]
                pen = pen_after(lines[:unseen], pen, step)
            else:  # a row whose wrap flag the scrollback keeps: drawn as the others
                unseen = 0
        drawn = []
        wide = screen.wide_seen
        for j in range(unseen, count):
            row = rows[y + j]
            if row is None:
                row = rows[y + j] = [screen.blank_of(pen.bg)] * columns
                pen = draw_line(row, lines[j], pen, step, glyphs)
            else:
                pen = draw_line(row, lines[j], pen, step, glyphs, mended=wide)  # type: ignore[arg-type]
            if lines[j]:
                drawn.append(y + j)
        if rows[-1] is None:
            rows[-1] = [screen.blank_of(pen.bg)] * columns
        if first:
            if kept:
                screen.history.extend(rows[:first])  # type: ignore[arg-type]
            grid[:] = rows[first:]  # type: ignore[assignment]
            screen.dirty_all = True
        else:
            screen.dirty.update(drawn)
        cursor = screen.cursor
        cursor.x, cursor.y, cursor.attrs = 0, y + count - first, pen
        screen.last_char = ""
