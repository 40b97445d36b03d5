"""Explicit state copies of a model (``copy.deepcopy`` of a pyte screen shares state)."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from pyte.screens import Margins

from observer.terminal.cells import Cell, Glyph, Grid, Line, SavedCursor, frozen, thawed
from observer.terminal.links import Link
from observer.terminal.notifications import Notifications, Partial
from observer.terminal.pending import Pending
from observer.terminal.screen import VTScreen
from observer.terminal.stream import VTStream

Rows = tuple[tuple[Glyph, ...], ...]


@dataclass(frozen=True, slots=True)
class TerminalSnapshot:
    """Everything a model needs to continue exactly where the snapshot was taken."""

    columns: int
    lines: int
    grid: Rows
    other: Rows
    alternate: bool
    other_size: tuple[int, int]
    history: tuple[Line | Pending, ...]  # pending rows are built where they are read
    unscrolled: int
    cursor: tuple[int, int, Cell, bool]
    link: Link | None  # the OSC 8 link open
    saved: tuple[tuple[str, SavedCursor], ...]
    margins: Margins | None
    mode: frozenset[int]
    private_modes: frozenset[int]
    keypad_application: bool
    title: str
    icon_name: str
    title_stack: tuple[tuple[str, str], ...]
    charsets: tuple[str, str, int]
    tabstops: frozenset[int]
    bells: int
    notifying: tuple[tuple[str, Partial], ...]  # kitty notifications being put together
    last_char: str
    parser: tuple[str, str | None, tuple[str, ...], int, bool, tuple[bytes, int]]


def _rows(grid: Grid) -> Rows:
    return tuple(map(frozen, grid))


def _grid(rows: Rows) -> Grid:
    return list(map(thawed, rows))


def _savepoint(saved: SavedCursor) -> SavedCursor:
    return saved._replace(cursor=copy.copy(saved.cursor))


def take(screen: VTScreen, stream: VTStream) -> TerminalSnapshot:
    """Copy the state of a screen and its parser."""
    c = screen.cursor
    return TerminalSnapshot(
        columns=screen.columns,
        lines=screen.lines,
        grid=_rows(screen.grid),
        other=_rows(screen._other),
        alternate=screen.alternate,
        other_size=screen._other_size,
        history=tuple(screen.history),  # rows in the scrollback are never modified
        unscrolled=screen.unscrolled,
        cursor=(c.x, c.y, c.attrs, c.hidden),
        link=screen.link,
        saved=tuple((slot, _savepoint(sp)) for slot, sp in screen._saved.items()),
        margins=screen.margins,
        mode=frozenset(screen.mode),
        private_modes=frozenset(screen.private_modes),
        keypad_application=screen.keypad_application,
        title=screen.title,
        icon_name=screen.icon_name,
        title_stack=tuple(screen.title_stack),
        charsets=(screen.g0_charset, screen.g1_charset, screen.charset),
        tabstops=frozenset(screen.tabstops),
        bells=screen.bells,
        notifying=tuple(screen.notifications.partial.items()),
        last_char=screen.last_char,
        parser=(
            stream.pending,
            stream.string,
            tuple(stream.string_kept),
            stream.string_length,
            stream.ignoring_csi,
            stream.decoder.getstate(),
        ),
    )


def restore(screen: VTScreen, stream: VTStream, snap: TerminalSnapshot) -> None:
    """Make ``screen`` and ``stream`` equal to the snapshot (which stays reusable)."""
    screen.columns, screen.lines = snap.columns, snap.lines
    screen.grid, screen._other = _grid(snap.grid), _grid(snap.other)
    screen.wide_seen = True  # conservative: the snapshot may hold wide characters
    screen.alternate = snap.alternate
    screen._other_size = snap.other_size
    screen.history.clear()
    screen.history.extend(snap.history)
    screen.unscrolled = snap.unscrolled
    x, y, attrs, hidden = snap.cursor
    screen.cursor.x, screen.cursor.y, screen.cursor.attrs, screen.cursor.hidden = (
        x,
        y,
        attrs,
        hidden,
    )
    screen.set_link(snap.link)
    screen._saved = {slot: _savepoint(sp) for slot, sp in snap.saved}
    screen.margins = snap.margins
    screen.mode = set(snap.mode)
    screen.private_modes = set(snap.private_modes)
    screen.keypad_application = snap.keypad_application
    screen.title, screen.icon_name = snap.title, snap.icon_name
    screen.title_stack = list(snap.title_stack)
    screen.g0_charset, screen.g1_charset, screen.charset = snap.charsets
    screen.tabstops = set(snap.tabstops)
    screen.bells = snap.bells
    screen.notifications = Notifications()  # events taken before are not told again
    screen.notifications.partial.update(snap.notifying)
    screen.last_char = snap.last_char
    pending, string, kept, length, ignoring, decoder = snap.parser
    stream.pending, stream.string, stream.string_kept = pending, string, list(kept)
    stream.string_length, stream.ignoring_csi = length, ignoring
    stream.decoder.setstate(decoder)
    screen.refresh_plain_draw()
    screen.dirty.update(range(screen.lines))
