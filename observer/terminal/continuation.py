"""What a repaint needs at its end so that a fresh model goes on exactly like this one.

A model can be cut anywhere in the stream: inside an escape sequence (``ESC [ 3`` of
``ESC [ 3 1 m``), inside a string (an OSC title, a DCS), inside a UTF-8 character, or right
after a printed character that a REP coming next would repeat. :func:`continuation` gives the
text that puts a fresh parser where this one is, after a repaint (``TerminalModel.to_ansi(
unfinished=True)``), so the rest of the stream can be fed as it comes.

The bytes of a UTF-8 character cut in the middle are not text; they are carried as the
``surrogateescape`` code points U+DC80..U+DCFF, so ``text.encode("utf-8", "surrogateescape")``
gives them back (the convention of Python's own undecodable bytes).
"""

from __future__ import annotations

from pyte import modes as mo

from observer.terminal.cells import char_width
from observer.terminal.screen import VTScreen
from observer.terminal.sequences import ESC
from observer.terminal.stream import VTStream
from observer.terminal.strings import STRINGS

_OPENERS = {kind: ESC + opener for opener, kind in STRINGS.items()}
#: The shortest CSI the parser skips to its final byte (a parameter after an intermediate
#: byte is invalid, ECMA-48 5.4): what a CSI being skipped leaves the parser doing.
_SKIPPING = "\x1b[ 0"


def continuation(screen: VTScreen, stream: VTStream) -> str:
    """The text to append to a repaint of ``screen`` so that a fresh model fed both stands
    where this one stands: the kitty notifications still being put together, the character a
    REP would repeat, then the unfinished input."""
    return screen.notifications.pending_parts() + _repeatable(screen) + _unfinished(stream)


def _unfinished(stream: VTStream) -> str:
    """The input the parser holds: a string's opener and what of it is kept (its length made
    up with filler beyond what is kept, for the bound on strings), a CSI being skipped, a
    partial sequence, then a partial UTF-8 character."""
    parts = []
    if stream.string is not None:
        kept = "".join(stream.string_kept)
        parts += [_OPENERS[stream.string], kept, "x" * (stream.string_length - len(kept))]
    elif stream.ignoring_csi:
        parts.append(_SKIPPING)
    parts.append(stream.pending)
    buffered, _ = stream.decoder.getstate()
    parts.append(buffered.decode("utf-8", "surrogateescape"))
    return "".join(parts)


def _repeatable(screen: VTScreen) -> str:
    """Print again the character just printed, where it is, so that REP (which repeats only
    the character printed right before it) repeats it in the fresh model too. In insert mode
    printing again would shift the row, so a REP there is the one thing not carried."""
    char = screen.last_char
    width = char_width(char) if len(char) == 1 else 0
    if width <= 0 or mo.IRM in screen.mode:
        return ""
    x, y = screen.cursor.x, screen.cursor.y
    row = screen.grid[y]
    if mo.DECAWM not in screen.mode and x == screen.columns - 1 and row[x][0] == char:
        return char  # without autowrap the cursor stays on the character it wrote
    at = min(x, screen.columns) - width
    if at < 0 or row[at][0] != char:
        return ""
    return f"\x1b[{width}D{char}"
