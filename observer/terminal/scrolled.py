"""Lines drawn only to scroll off: a flood of log lines needs its last screenful drawn, no more.

A model that keeps no scrollback (the server's, whose snapshots repaint the screen only) shows
of a build log only the rows that fit. The start of a feed that is *plain* (text, tabs, carriage
returns, line feeds and SGRs: nothing that moves the cursor up, asks, notifies or changes a
mode), whose line feeds bring the cursor from a row of the scrolling region to its bottom row,
and which is followed, still plain, by the region's height of line feeds, changes nothing that
can be seen but the pen: every cell it draws is on a row of the region (text is drawn only on
the cursor's row, and a zero-width character at a row's start joins nothing), and those line
feeds push every row of the region off its top. So the stream does not draw it: it runs the
SGRs that make its last pen, puts the cursor where its last ``CR LF`` leaves it (the first
column of the region's bottom row) and parses the rest as usual. The screen after the feed is the one every byte parsed would give (compared
on random input in ``tests/unit/terminal/test_scrolled.py``), at the cost of a regular
expression's scan and a screenful's parse, whatever the feed's length.
"""

from __future__ import annotations

import re

from observer.terminal.actions import apply
from observer.terminal.cells import Cell
from observer.terminal.sgr import assignments

#: An SGR as plain output may hold it (numeric parameters, at most 32 characters of them).
SGR_BYTES = rb"\x1b\[[0-9;]{0,32}+m"
#: Plain bytes (any byte from space up, UTF-8 included: a character drawn, or a C1 control,
#: which is ignored), tab, line feed and carriage return, and SGRs. Not backspace: from a
#: row's first column it goes up to the row that wrapped onto it.
PLAIN_PART = rb"[\t\n\r -\xff]++|" + SGR_BYTES
PLAIN = re.compile(rb"(?:%s)*+" % PLAIN_PART)
#: An SGR as plain output may hold it.
SGR = re.compile(SGR_BYTES)
#: The same, kept when plain output is split at its SGRs (text and SGRs in turn).
SGRS = re.compile(rb"(%s)" % SGR_BYTES)
#: A truecolour foreground that sets the foreground alone, whatever its components' values.
_TRUECOLOUR_FG = re.compile(r"\x1b\[38;2;[0-9]{1,3};[0-9]{1,3};[0-9]{1,3}m")
#: The SGRs that reset the pen whatever it was (the pen after them starts from them).
RESETS = (b"\x1b[0m", b"\x1b[m")
#: A feed shorter than this is parsed whole (the scan would cost more than it saves).
MIN_SKIPPED = 4096


def scrolled_off(data: bytes, height: int, below: int) -> int:
    """How many bytes at the start of ``data`` draw only rows that the rest scrolls off
    (0: none), ending with ``CR LF``.

    Args:
        data: what the program wrote, the parser at rest before it (no sequence, string or
            character unfinished).
        height: the rows of the scrolling region (the cursor in it).
        below: rows from the cursor down to the region's bottom row.
    """
    if len(data) < MIN_SKIPPED:
        return 0
    match = PLAIN.match(data)
    cut = match.end() if match else 0
    # The line feeds that scroll off every row the skipped part drew: the region's height of
    # them after it, the cursor then at the region's bottom (each scrolls in a row of the pen's
    # background: how many scroll must not change).
    for _ in range(height + 1):
        cut = data.rfind(b"\n", 0, cut)
        if cut < 0:
            return 0
    cut += 1
    if cut < MIN_SKIPPED or data[cut - 2 : cut] != b"\r\n" or data.count(b"\n", 0, cut) < below:
        return 0
    return cut


def pen_sequences(skipped: bytes) -> str:
    """The SGRs of ``skipped`` that make the pen it leaves: those from its last reset on."""
    start = max(0, *(skipped.rfind(reset) for reset in RESETS))
    return b"".join(SGR.findall(skipped, start)).decode("ascii")


def pen_sequences_of(sgrs: list[bytes]) -> str:
    """:func:`pen_sequences` of output already split at its SGRs: these are its SGRs."""
    joined = b"".join(sgrs)
    return joined[max(0, *(joined.rfind(reset) for reset in RESETS)) :].decode("ascii")


#: The fields of a pen an SGR can set (all but the text and the hyperlink).
_PEN_FIELDS = frozenset(range(1, len(Cell._fields) - 1))
_UNKNOWN: frozenset[int] = frozenset()


def pen_after(pen: Cell, sgrs: str) -> Cell:
    """The pen that ``sgrs`` (SGRs as :func:`pen_sequences` gives them) make from ``pen``.

    Each SGR sets some fields of the pen whatever they were, so one whose every field a later
    one sets again changes nothing: only the others are decoded, in order. The skipped frames
    of a truecolour UI hold thousands of SGRs, most of them a foreground the next replaces.
    """
    last = sgrs.rfind("\x1b[38;2;")
    if last > 0 and _TRUECOLOUR_FG.match(sgrs, last):
        # Every truecolour foreground before the last one sets only a foreground that the
        # last one sets again: dropped at once (a truecolour UI writes thousands).
        sgrs = _TRUECOLOUR_FG.sub("", sgrs[:last]) + sgrs[last:]
    steps = sgrs[2:-1].split("m\x1b[") if sgrs else []
    kept: list[str] = []
    later: set[int] = set()
    # An SGR sets each field it sets whatever the pen was, so one that comes again later
    # changes nothing: each is looked at once, from its last time on (a frame repeats a few).
    for params in dict.fromkeys(reversed(steps)):
        if params[:5] == "38;2;" and 1 in later and params.count(";") == 4:
            continue  # the most frequent: a truecolour foreground set again after it
        fields = _fields_set(params)
        if fields and fields <= later:
            continue  # every field it sets is set again after it
        kept.append(params)
        later |= fields
        if later >= _PEN_FIELDS:
            break  # the pen before no longer matters
    for params in reversed(kept):
        pen = apply(pen, params)
    return pen


def _fields_set(params: str) -> frozenset[int]:
    """The fields an SGR surely sets (empty when that is not known: it is then decoded)."""
    parts = params.split(";")
    if len(parts) == 5 and parts[0] in ("38", "48") and parts[1] == "2":
        # A truecolour foreground or background, if its components are what decoders read.
        if all(0 < len(c) <= 3 and int(c) <= 255 for c in parts[2:]):
            return frozenset((1 if parts[0] == "38" else 2,))
        return _UNKNOWN
    pairs = assignments(params)
    return _UNKNOWN if pairs is None else frozenset(index for index, _ in pairs)
