"""The client's side of screen-sync: the remote screen as ``screen`` frames describe it.

A tile in the ``screen`` view keeps no byte stream and no scrollback: a :class:`ScreenView`
holds one ANSI repaint per row, the cursor and the title, and :meth:`ScreenView.apply` says
which rows a frame changed. :meth:`ScreenView.repaint` turns those rows into the bytes that
bring a terminal model of the same size from the previous state to this one (each row cleared
and painted, then the cursor), so a tile's existing model and view can show it; the cost is
that of the rows that changed, at the frame rate the tile asked for. A row nobody reads (a
tile shows a crop of the screen) waits unpainted until someone does (:meth:`ScreenView.due`):
a tile costs the rows it shows; and where it shows only their first columns, a row is painted up
to there (:func:`cut_row`) and painted whole when someone reads all of it. What the agent sent to be
noticed comes after them as the sequences the model reports (BEL, OSC 9;4, OSC 99), so a tile's
model finds its agent's notifications as it finds them in the stream. Pure: no I/O, no clock.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable

from observer.protocol.events import ScreenReceived
from observer.terminal.notifications import BellRung, NotificationSent, ProgressReported

_SGR = re.compile(r"\x1b\[[0-9;:]*m")


class ScreenView:
    """The remote screen of one connection in the ``screen`` view."""

    def __init__(self) -> None:
        self.cols = 0
        self.rows = 0
        self.lines: list[str] = []
        """Each row as an ANSI repaint (SGR and text from its first column)."""
        self.cursor = (0, 0)
        self.cursor_visible = True
        self.title = ""
        self.offset: int | None = None
        """The stream offset the server's model stood at for the last frame."""
        self.notifications: tuple[NotificationSent | BellRung | ProgressReported, ...] = ()
        """What the agent sent to be noticed before the last frame."""
        self.unpainted: set[int] = set()
        """Rows that frames changed and nobody has read since (:meth:`due`)."""
        self.cut: dict[int, int] = {}
        """Rows painted only up to a column (how many columns from the first)."""

    def apply(self, update: ScreenReceived) -> set[int]:
        """Take one frame; return the rows whose content changed (all of them on a ``full``
        frame or a new size). The cursor and the title are always taken."""
        resized = (update.cols, update.rows) != (self.cols, self.rows)
        if resized or update.full:
            self.cols, self.rows = update.cols, update.rows
            self.lines = [""] * update.rows
            changed = set(range(update.rows))
            self.unpainted.clear()  # all of them are painted
            self.cut.clear()
        else:
            changed = set()
        for y, text in update.lines:
            if 0 <= y < self.rows:
                self.lines[y] = text
                changed.add(y)
        self.cursor, self.cursor_visible, self.title = (
            update.cursor,
            update.cursor_visible,
            update.title,
        )
        self.offset = update.offset
        self.notifications = update.notifications
        return changed

    def due(self, changed: set[int], read: set[int] | None, columns: int | None = None) -> set[int]:
        """The rows to paint now: those ``changed`` and those left unpainted, where they are
        ``read`` (``None``: everywhere); and those painted only up to a column short of the
        ``columns`` read there (``None``: all of them). The others wait, unpainted."""
        waiting = self.unpainted | changed if self.unpainted else changed
        cut = self.cut
        if read is None:
            self.unpainted = set()
            return waiting | cut.keys() if cut else waiting
        paint = waiting & read
        self.unpainted = waiting - paint
        if cut:
            paint |= {y for y, n in cut.items() if y in read and (columns is None or n < columns)}
        return paint

    def repaint(
        self, rows: Iterable[int], *, notifications: bool = True, columns: int | None = None
    ) -> bytes:
        """Bytes for a terminal model of this size showing the previous state: ``rows``
        cleared and painted (up to ``columns`` columns, where given: :func:`cut_row`), the pen
        reset, then the cursor placed and shown or hidden (ECMA-48 CUP and EL, DEC private mode
        25), then the last frame's notifications (unless ``notifications`` is false: rows
        painted late, which were noticed already)."""
        out = []
        cut = self.cut
        for y in sorted(rows):
            if 0 <= y < self.rows:
                text = self.lines[y]
                if columns is not None:
                    short = cut_row(text, columns)
                    if len(short) < len(text):
                        cut[y] = columns
                    elif cut:
                        cut.pop(y, None)
                    text = short
                elif cut:
                    cut.pop(y, None)
                out.append(_row(y, text))
        x, y = self.cursor
        out.append(f"\x1b[0m\x1b[{y + 1};{x + 1}H\x1b[?25{'h' if self.cursor_visible else 'l'}")
        if notifications:
            out.extend(map(notification_sequence, self.notifications))
        return "".join(out).encode()

    def notified(self) -> bytes:
        """The last frame's notifications as the sequences a model reports (the end of
        :meth:`repaint`'s bytes)."""
        return "".join(map(notification_sequence, self.notifications)).encode()

    def painted(self, rows: Iterable[int], columns: int | None = None) -> bytes:
        """The repaint of ``rows`` (each cleared and painted, up to ``columns`` columns where
        given: :func:`cut_row`), nothing else: what a view that draws them itself shows of them
        (nothing here changes)."""
        lines, height = self.lines, self.rows
        return "".join(
            _row(y, lines[y] if columns is None else cut_row(lines[y], columns))
            for y in sorted(rows)
            if 0 <= y < height
        ).encode()

    def text(self) -> list[str]:
        """The rows as plain text (SGR removed), trailing blanks trimmed."""
        return [_SGR.sub("", line).rstrip() for line in self.lines]


def _row(y: int, text: str) -> str:
    """Row ``y`` cleared and painted with ``text`` (ECMA-48 CUP, SGR 0 and EL 2)."""
    return f"\x1b[{y + 1};1H\x1b[0m\x1b[2K{text}"


def cut_row(text: str, columns: int) -> str:
    """A row's repaint (SGRs and text, as the server paints it) up to its first ``columns``
    columns, or all of it: a row that is not all ASCII (a wide or combining character makes
    characters and columns differ) or that holds a link (an OSC 8 left open) or any escape other
    than an SGR (the row comes off the wire) is not cut."""
    if len(text) <= columns or not text.isascii() or "\x1b]" in text:
        return text
    shown, at, end = 0, 0, len(text)
    while at < end:
        if text[at] == "\x1b":  # an SGR (ESC [ ... m); anything else: not cut
            sgr = _SGR.match(text, at)
            if sgr is None:
                return text
            at = sgr.end()
            continue
        stop = text.find("\x1b", at)
        stop = end if stop < 0 else stop
        if shown + stop - at >= columns:
            return text[: at + columns - shown]
        shown += stop - at
        at = stop
    return text


def notification_sequence(event: NotificationSent | BellRung | ProgressReported) -> str:
    """The sequence that makes a terminal model report ``event`` again: BEL, ConEmu's OSC 9;4,
    or kitty's OSC 99 with base64 parts (it carries a title and a body whatever they hold; the
    other notification sequences cannot, e.g. a title with a ``;`` in OSC 777)."""
    if isinstance(event, BellRung):
        return "\x07"
    if isinstance(event, ProgressReported):
        value = "" if event.value is None else f";{event.value}"
        return f"\x1b]9;4;{event.state}{value}\x1b\\"
    parts = [(kind, text) for kind, text in (("title", event.title), ("body", event.body)) if text]
    out = []
    for index, (kind, text) in enumerate(parts or [("body", "")]):
        more = ":d=0" if index + 1 < len(parts) else ""
        encoded = base64.b64encode(text.encode("utf-8", "surrogatepass")).decode("ascii")
        out.append(f"\x1b]99;i=screen{more}:e=1:p={kind};{encoded}\x1b\\")
    return "".join(out)
