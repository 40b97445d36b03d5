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


def test_a_row_painted_from_the_grid_is_the_row_painted_from_its_cells() -> None:
    """Screen-sync paints rows from the grid's glyphs; the repaint must be what the cells give,
    on every row of the captured real programs (links, wide characters, attributes)."""
    from pathlib import Path

    from observer.terminal.ansi import paint_glyphs, paint_row
    from observer.terminal.cells import BLANK

    captures = Path(__file__).parents[2] / "fixtures" / "captures"
    files = [*sorted(captures.glob("*.bin")), *sorted((captures.parent / "hyperlinks").glob("*"))]
    edges = [  # blanks that are not blank: a background, a link; wide characters at the end
        b"x\x1b[44m    \x1b[0m",
        b"\x1b]8;;https://example.com/\x1b\\   \x1b]8;;\x1b\\",
        b"\x1b[99G\xe4\xbd\xa0",
        b"\x1b[7m \x1b[0m" + b" " * 50,
    ]
    rows = 0
    for data in [*edges, *(f.read_bytes()[:300_000] for f in files if f.is_file())]:
        model = TerminalModel(100, 30, scrollback=0)
        model.feed(data)
        for y in range(model.rows):
            for pen in (BLANK, None):
                theirs: list[str] = []
                ours: list[str] = []
                paint_row(theirs, model.line(y), model.cols, pen)
                paint_glyphs(ours, model.glyphs(y), model.cols, pen)
                assert ours == theirs, (data[:40], y)
            rows += 1
    assert rows >= 30 * 30
