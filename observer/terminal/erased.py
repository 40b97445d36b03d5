"""Frames drawn only to be erased: of a region redrawn several times, the last draw is enough.

Ink (the UI library of several agent CLIs) and other "log update" programs redraw a region of
the screen by erasing the rows of their last frame (``EL 2`` and ``CUU 1`` for each row, then
``CHA``) and writing the next. A model that is looked at only now and then (the server's,
between two rounds of screen frames) is often fed several such frames at once, and every cell
all but the last of them draw is emptied by the next one's erase before anyone looks.

The start of a feed is skipped when it is pairs of a *draw* and an *erase* (a feed that starts
inside a draw or a sequence, as a read may, is parsed up to its first line end, or else up to
the end of its first erase, and skipped from there):

- the draw is plain (:data:`~observer.terminal.scrolled.PLAIN`, tabs excepted: text, carriage
  returns, line feeds and SGRs, so it asks, notifies and sets nothing);
- its line feeds scroll nothing (the cursor stays above the region's bottom margin, or above
  the screen's last row when it starts below the region);
- its text cannot reach past the right margin: from the cursor's column, each character counts
  one column if it is narrow and two otherwise (combining and unprintable ones included), a
  carriage return goes back to the first column and a line feed keeps the column (as it does
  unless LNM is set), and the count never passes the last column, so no row wraps;
- the erase is only ``EL 2``, ``CUU 1`` and ``CHA 1`` (``ESC [ 2 K``, ``ESC [ A``, ``ESC [ G``
  and their spellings with a 1), puts the cursor in the first column (a ``CHA``), and empties
  every row the draw was on, from the row its line feeds end on up to the row it began on
  (``CUU`` stops at the top margin, as the model's does).

Such a draw changes only cells that its erase empties, and nothing else but the pen: text
moves no row, wraps nothing (so sets no row's wrap flag) and scrolls nothing, and the last
character printed (which ``REP`` repeats) is forgotten by the erase's controls. So the stream
does not draw it: it runs the SGRs that make the draw's last pen (the erase empties rows in
that pen's background), puts the cursor at the erase's start, and runs the erase. The screen is
the one every byte parsed would give (compared on random input in
``tests/unit/terminal/test_erased.py``), at the cost of a few scans and the erases' parse.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from observer.terminal.scrolled import PLAIN, PLAIN_PART, SGRS, pen_sequences_of

#: Output that may wait to be parsed: plain, or a redraw's erases (none asks, notifies or sets a
#: mode, so nothing but the screen depends on when it is parsed).
QUIET = re.compile(rb"(?:%s|\x1b\[(?:2K|1?A|1?G))*+" % PLAIN_PART)
#: An erase: the controls Ink's ``eraseLines`` writes, and their other usual spellings.
_ERASE = re.compile(rb"(?:\x1b\[(?:2K|1?A|1?G))++")
_ERASE_PART = re.compile(rb"\x1b\[(2K|1?A|1?G)")
#: A feed with less drawing than this in its skippable start is parsed whole.
MIN_SKIPPED = 1024
#: A feed shorter than this is parsed whole without a scan: a PTY read is at most 4 KiB, and a
#: frame of an agent's UI is about that size, so in a read the draw that an erase follows is
#: mostly the end of a frame the read started inside (parsed up to its first line end, the
#: rest may be skipped: :func:`line_start`); in shorter feeds the scans cost about what not
#: drawing saves. ``TerminalModel.feed_unseen`` tries whatever the length.
MIN_FEED = 4096


@dataclass(frozen=True)
class Region:
    """Where the cursor is and what bounds it: what a draw's rows and columns depend on."""

    columns: int
    lines: int
    top: int
    bottom: int
    x: int
    y: int


@dataclass(frozen=True)
class Erased:
    """A draw that its erase empties: what the stream still runs in its place."""

    pen: str
    """The SGRs that make the pen the draw leaves (the erase empties rows in its background)."""
    row: int
    """The cursor's row when the erase starts (it starts in the first column)."""
    erase: str


def erased_draws(
    data: bytes, at: Region, narrow: Callable[[str], bool]
) -> tuple[int, list[Erased]]:
    """How many bytes at the start of ``data`` are draws that their erases empty (0: none),
    and what to run in their place, in order.

    Args:
        data: what the program wrote, the parser at rest before it.
        at: the cursor and the screen's geometry before ``data``.
        narrow: whether every character of a text takes one column, as the model counts them.
    """
    if b"\x1b[2K" not in data:
        return 0, []
    pos, y, x = 0, at.y, at.x
    taken, drawn, found = 0, 0, []
    while True:
        plain = PLAIN.match(data, pos)
        end = plain.end() if plain else pos
        erase = _ERASE.match(data, end)
        if erase is None:
            break
        parts = SGRS.split(data[pos:end])  # text and SGRs in turn
        last = _last_row(b"".join(parts[::2]), y, x, at, narrow)
        if last is None:
            break
        after = _erase_ends(_ERASE_PART.findall(erase.group()), y, last, at)
        if after is None:
            break
        found.append(Erased(pen_sequences_of(parts[1::2]), last, erase.group().decode("ascii")))
        drawn += end - pos
        pos = taken = erase.end()
        y, x = after, 0
    if drawn < MIN_SKIPPED:
        return 0, []
    return taken, found


def next_start(data: bytes) -> int:
    """Where the first erase in ``data`` ends (0: none): a draw that its erase may empty can
    start there, when ``data`` starts inside a draw or a sequence (a read cut it anywhere)."""
    found = _ERASE.search(data)
    return found.end() if found is not None else 0


def _last_row(text: bytes, y: int, x: int, at: Region, narrow: Callable[[str], bool]) -> int | None:
    """The row a plain draw from (``x``, ``y``) ends on, if it scrolls and wraps nothing
    (``text``: the draw without its SGRs)."""
    if b"\t" in text:
        return None
    feeds = text.count(b"\n")
    limit = at.bottom if y <= at.bottom else at.lines - 1
    if y + feeds > limit:
        return None
    decoded = text.decode("utf-8", "replace")
    # One column a character when all are narrow (ASCII counts so too: DEL advances none);
    # the line ends split the runs counted, so they are not asked about (neither is narrow).
    flat = decoded.replace("\r", "").replace("\n", "")
    count = len if text.isascii() or narrow(flat) else partial(_columns, narrow=narrow)
    column = x
    for line in decoded.split("\n"):
        for i, run in enumerate(line.split("\r")):
            if i:
                column = 0
            column += count(run)
            if column > at.columns:
                return None
    return y + feeds


def _columns(text: str, narrow: Callable[[str], bool]) -> int:
    """At least the columns ``text`` advances the cursor: two for any character not narrow."""
    # Counted per distinct character: a run is mostly a few characters many times over.
    return len(text) + sum(text.count(c) for c in set(text) if not narrow(c))


def line_start(data: bytes) -> int:
    """Where the line after the first line feed starts (0: none), when at least
    :data:`MIN_SKIPPED` bytes lie between it and the first erase: a read that starts inside a
    draw, or inside a sequence, is parsed up to there, and the draw from there to its erase may
    be skipped (a sequence or a character that a read cut ends before the line feed)."""
    erase = data.find(b"\x1b[2K")  # what every erase that empties a row holds
    end = data.find(b"\n", 0, erase)
    return end + 1 if end >= 0 and erase - end > MIN_SKIPPED else 0


def _erase_ends(parts: list[bytes], first: int, last: int, at: Region) -> int | None:
    """The cursor's row after the erase, run from row ``last``, if it empties rows
    ``first..last`` and ends in the first column."""
    y, emptied, home = last, set(), False
    for part in parts:
        if part == b"2K":
            emptied.add(y)
        elif part[-1:] == b"A":
            y = max(y - 1, at.top if y >= at.top else 0)  # as CUU stops
        else:
            home = True
    return y if home and emptied.issuperset(range(first, last + 1)) else None
