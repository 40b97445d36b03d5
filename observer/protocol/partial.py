"""The unfinished control sequence or character at the end of a stretch of terminal output.

A server takes a snapshot between two pieces of output, and a piece can end inside an escape
sequence (``ESC [ 3`` of ``ESC [ 3 1 m``) or a UTF-8 character. The snapshot's repaint describes
the screen, not the half-read sequence, so the output that follows it (``1 m``) would be drawn as
text. A client that received the bytes before the snapshot's offset can append their unfinished
end to the repaint, which puts its parser where the server's was (ECMA-48 section 5.4 gives the
shapes of control sequences; the strings follow xterm's ctlseqs: OSC ends with BEL or ST, DCS,
APC, PM and SOS with ST).
"""

from __future__ import annotations

ESC = 0x1B
BEL = 0x07
CAN, SUB = 0x18, 0x1A
WINDOW = 4096
"""Bytes looked at, from the end: a longer unfinished sequence is not recognised."""
_STRINGS = frozenset(b"]P_^X")


def unfinished_end(data: bytes) -> bytes:
    """The suffix of ``data`` that starts a sequence or character ``data`` does not finish."""
    tail = data[-WINDOW:]
    start = tail.rfind(ESC)
    if start >= 0 and not _finished(tail[start:]):
        return tail[start:]
    return _unfinished_character(tail)


def _finished(sequence: bytes) -> bool:
    """Whether ``sequence`` (starting with ESC, holding no other) is complete or was cancelled."""
    if len(sequence) < 2:
        return False
    rest = sequence[2:]
    if CAN in sequence or SUB in sequence:
        return True  # CAN and SUB abort any sequence
    kind = sequence[1]
    if kind == ord("["):
        return any(0x40 <= byte <= 0x7E for byte in rest)  # the final byte of a CSI
    if kind in _STRINGS:
        # ST is ESC \, which would be the last ESC; OSC may also end with BEL.
        return kind == ord("]") and BEL in rest
    if 0x20 <= kind <= 0x2F:
        return any(0x30 <= byte <= 0x7E for byte in rest)  # nF: intermediates, then a final
    return True


def _unfinished_character(data: bytes) -> bytes:
    """A UTF-8 lead byte at the end without all its continuation bytes, and those it has."""
    for back in range(1, min(4, len(data) + 1)):
        byte = data[-back]
        if 0x80 <= byte <= 0xBF:
            continue  # a continuation byte: look further back for its lead
        if byte >= 0xF0:
            needed = 4
        elif byte >= 0xE0:
            needed = 3
        elif byte >= 0xC0:
            needed = 2
        else:
            return b""
        return data[-back:] if back < needed else b""
    return b""
