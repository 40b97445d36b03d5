"""Screen-sync from the server's model to a tile's model: frames carry exactly the changed rows.

Writer and reader together: a real :class:`TerminalModel` on the server side is fed real bytes
(colours, attributes, wide characters, scrolling); its frames go through the wire encoding and
the native session to a :class:`ScreenView`, whose repaints are fed to a second model. Both
models must hold the same cells.
"""

from __future__ import annotations

from observer.protocol import frames
from observer.protocol.adapters.native import NativeAdapter
from observer.protocol.events import ScreenReceived
from observer.protocol.screen_view import ScreenView
from observer.server.screen_sync import RowVersions, ScreenFeed, row_text
from observer.terminal import TerminalModel

COLS, ROWS = 40, 8


class Tile:
    """The client side: a native session, a view, and the tile's own model."""

    def __init__(self) -> None:
        self.session = NativeAdapter()
        hello = frames.Hello("a", "watch", COLS, ROWS, 0, "none", 1, "")
        self.session.receive(frames.encode(hello))
        self.view = ScreenView()
        self.model = TerminalModel(COLS, ROWS, scrollback=0)
        self.changed: set[int] = set()

    def take(self, message: str) -> None:
        [event] = self.session.receive(message)
        assert isinstance(event, ScreenReceived)
        self.changed = self.view.apply(event)
        self.model.feed(self.view.repaint(self.changed))


class Server:
    def __init__(self) -> None:
        self.model = TerminalModel(COLS, ROWS, scrollback=0)
        self.rows = RowVersions(ROWS)
        self.now = 0.0
        self.feed = ScreenFeed(4, clock=lambda: self.now)
        self.offset = 0

    def output(self, data: bytes) -> None:
        self.rows.bump(self.model.feed(data))
        self.offset += len(data)

    def frame(self) -> str | None:
        return self.feed.frame(self.model, self.rows, self.offset)

    def next_frame(self) -> str:
        """The frame a quarter of a second on (the feed's 4 a second): there must be one."""
        self.now += 0.25
        frame = self.frame()
        assert frame is not None
        return frame


def same_cells(server: TerminalModel, tile: TerminalModel) -> None:
    for y in range(ROWS):
        assert tile.line(y) == server.line(y), y
    assert (tile.cursor_x, tile.cursor_y) == (server.cursor_x, server.cursor_y)
    assert tile.cursor_visible == server.cursor_visible


def test_a_tile_shows_the_servers_cells_and_gets_only_the_rows_that_changed() -> None:
    server, tile = Server(), Tile()
    server.output(
        b"\x1b[1;31mred bold\x1b[0m plain \x1b[4;38;2;10;200;30mtrue colour\x1b[0m\r\n"
        b"wide: \xe4\xbd\xa0\xe5\xa5\xbd|\x1b[7m reverse \x1b[0m\r\n\x1b[?25l\x1b]2;build\x07"
    )
    first = server.frame()
    assert first is not None and '"full":true' in first
    tile.take(first)
    same_cells(server.model, tile.model)
    assert tile.view.title == "build" and not tile.view.cursor_visible
    server.output(b"\x1b[5;3Hfive\x1b[7;1H\x1b[2mseven dim")
    assert server.frame() is None  # a quarter of a second has not passed
    tile.take(server.next_frame())
    assert tile.changed == {4, 6}
    same_cells(server.model, tile.model)


def test_a_scrolling_screen_is_sent_whole_and_a_quiet_one_not_at_all() -> None:
    server, tile = Server(), Tile()
    for n in range(30):
        server.output(b"line %d\r\n" % n)
    first = server.frame()
    assert first is not None
    tile.take(first)
    same_cells(server.model, tile.model)
    server.now += 1.0
    assert server.frame() is None  # nothing changed: no frame at all
    server.output(b"more\r\n")
    frame = server.frame()
    assert frame is not None
    tile.take(frame)
    # A scroll moves every row, but the cursor's blank row is blank again: not sent.
    assert tile.changed == set(range(ROWS - 1))
    same_cells(server.model, tile.model)


def test_a_resize_and_an_overflow_give_a_full_frame() -> None:
    server, tile = Server(), Tile()
    server.output(b"hello")
    tile.take(server.frame() or "")
    server.now += 1.0
    server.feed.reset()
    again = server.frame()
    assert again is not None and '"full":true' in again
    server.model.resize(COLS, ROWS + 2)
    server.rows.resized(ROWS + 2)
    server.now += 1.0
    resized = server.frame()
    assert resized is not None and '"rows":10' in resized and '"full":true' in resized


def test_a_row_is_painted_from_its_first_column_without_trailing_blanks() -> None:
    model = TerminalModel(20, 2, scrollback=0)
    model.feed(b"  a\x1b[1mb\x1b[0m   ")
    assert row_text(model.glyphs(0)) == "  a\x1b[0;1mb"
    assert row_text(model.glyphs(1)) == ""


def test_an_ink_redraw_sends_only_the_rows_whose_cells_changed() -> None:
    server, tile = Server(), Tile()
    region = [b"\x1b[38;2;%d;90;200mline %d\x1b[0m" % (10 + n, n) for n in range(6)]
    server.output(b"\r\n".join(region))
    tile.take(server.frame() or "")
    region[2] = b"\x1b[38;2;12;90;201mline 2\x1b[0m"  # one colour channel of one row
    region[4] = b"\x1b[38;2;14;90;200mline 4!\x1b[0m"  # one letter more
    server.output(b"\x1b[2K\x1b[1A" * 5 + b"\x1b[2K\x1b[G" + b"\r\n".join(region))  # all redrawn
    tile.take(server.next_frame())
    assert tile.changed == {2, 4}
    same_cells(server.model, tile.model)
    server.output(b"\x1b[2K\x1b[1A" * 5 + b"\x1b[2K\x1b[G" + b"\r\n".join(region))  # the same again
    server.now += 0.25
    assert server.frame() is None  # nothing to send (the cursor stands where it stood)


def test_blanks_that_are_not_blank_and_wide_characters_at_the_edge_reach_the_tile() -> None:
    server, tile = Server(), Tile()
    server.output(
        b"x\x1b[44m    \x1b[0m\r\n"  # a background over blanks at the end of a row
        b"\x1b]8;;https://example.com/\x1b\\   \x1b]8;;\x1b\\\r\n"  # a link over blanks
        b"\x1b[3;" + str(server.model.cols - 1).encode() + b"H\xe4\xbd\xa0\r\n"  # wide, last
        b"\x1b[7m \x1b[0m" + b" " * 30  # a reversed blank, then plain ones
    )
    frame = server.frame()
    assert frame is not None
    tile.take(frame)
    same_cells(server.model, tile.model)
