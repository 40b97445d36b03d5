"""A row's key: equal exactly when the row's cells are (what views repaint is decided by it)."""

from __future__ import annotations

from observer.terminal import TerminalModel


def test_a_row_written_again_the_same_keeps_its_key_and_any_visible_change_changes_it() -> None:
    model = TerminalModel(20, 3, scrollback=0)
    model.feed(b"\x1b[38;2;10;20;30mhello\x1b[0m world")
    first = model.row_key(0)
    model.feed(b"\x1b[2K\x1b[G\x1b[38;2;10;20;30mhello\x1b[0m world")  # an Ink-style redraw
    assert model.row_key(0) == first
    for change in (
        b"\x1b[G\x1b[38;2;10;20;31mhello",  # one step of one colour channel
        b"\x1b[G\x1b[1mhello",  # bold
        b"\x1b[G\x1b]8;;https://example.com/\x1b\\hello\x1b]8;;\x1b\\",  # a link
        b"\x1b[G\x1b[8mhello",  # concealed
        b"\x1b[Gjello",  # one letter
    ):
        model.feed(b"\x1b[2K\x1b[G\x1b[38;2;10;20;30mhello\x1b[0m world")
        assert model.row_key(0) == first
        model.feed(b"\x1b[0m" + change + b"\x1b[0m")
        assert model.row_key(0) != first, change
    assert model.row_key(1) == model.row_key(2)  # two blank rows
