"""Cells to segments: colours from the palette, attributes, wide characters, safety."""

from __future__ import annotations

import pyte
from pyte.screens import Char
from rich.color import Color
from rich.console import Console

from observer.commands._screen_output import screen_to_text
from observer.rendering import Mark, Palette, StyleCache, cells_to_segments, style_cache
from observer.terminal.sanitize import sanitize

PALETTE = Palette()


def cell(data: str = " ", **attrs: object) -> Char:
    return Char(data, **attrs)  # type: ignore[arg-type]


def test_runs_of_equal_style_become_one_segment() -> None:
    row = [cell("a"), cell("b"), cell("c", fg="red"), cell("d", fg="red")]
    segments = cells_to_segments(row, PALETTE)
    assert [s.text for s in segments] == ["ab", "cd"]


def test_named_colours_come_from_the_palette_and_hex_is_true_colour() -> None:
    row = [cell("r", fg="red"), cell("b", fg="brightbrown"), cell("t", fg="ff8700", bg="00005f")]
    red, bright_yellow, true = cells_to_segments(row, PALETTE)
    assert red.style is not None and red.style.color == Color.parse(PALETTE.ansi[1])
    assert bright_yellow.style is not None
    assert bright_yellow.style.color == Color.parse(PALETTE.ansi[11])
    assert true.style is not None and true.style.color == Color.parse("#ff8700")
    assert true.style.bgcolor == Color.parse("#00005f")


def test_default_colours_are_the_palette_foreground_and_background() -> None:
    (segment,) = cells_to_segments([cell("x")], PALETTE)
    assert segment.style is not None
    assert segment.style.color == Color.parse(PALETTE.foreground)
    assert segment.style.bgcolor == Color.parse(PALETTE.background)


def test_reverse_swaps_resolved_colours_including_defaults() -> None:
    (segment,) = cells_to_segments([cell("x", reverse=True)], PALETTE)
    assert segment.style is not None
    assert segment.style.color == Color.parse(PALETTE.background)
    assert segment.style.bgcolor == Color.parse(PALETTE.foreground)


def test_attributes_map_to_rich_style_flags() -> None:
    row = [cell("x", bold=True, italics=True, underscore=True, strikethrough=True)]
    (segment,) = cells_to_segments(row, PALETTE)
    assert segment.style is not None
    assert segment.style.bold and segment.style.italic
    assert segment.style.underline and segment.style.strike


def test_cursor_cell_is_drawn_in_the_cursor_colour() -> None:
    segments = cells_to_segments([cell("a"), cell("b"), cell("c")], PALETTE, cursor_x=1)
    assert [s.text for s in segments] == ["a", "b", "c"]
    assert segments[1].style is not None
    assert segments[1].style.bgcolor == Color.parse(PALETTE.cursor)


def test_wide_characters_keep_the_row_width() -> None:
    screen = pyte.Screen(6, 1)
    pyte.Stream(screen).feed("日本ab")
    row = [screen.buffer[0][x] for x in range(6)]
    segments = cells_to_segments(row, PALETTE)
    assert "".join(s.text for s in segments) == "日本ab"
    assert sum(s.cell_length for s in segments) == 6


def test_control_characters_never_reach_the_output() -> None:
    row = [cell("\x1b"), cell("]"), cell("\x9b"), cell("\x07")]
    text = "".join(s.text for s in cells_to_segments(row, PALETTE))
    assert "\x1b" not in text and "\x9b" not in text and "\x07" not in text
    assert sanitize("a\x1b[2Jb\x85") == "a\ufffd[2Jb\ufffd"


def test_style_cache_is_bounded() -> None:
    cache = StyleCache(PALETTE, size=16)
    for n in range(100):
        cache.get((f"{n:06x}", "default", False, False, False, False, False, False, Mark.NONE))
    assert len(cache) == 16


def test_the_shared_cache_is_per_palette() -> None:
    other = Palette(foreground="#000000")
    assert style_cache(PALETTE) is style_cache(PALETTE)
    assert style_cache(other) is not style_cache(PALETTE)


def test_markup_in_cells_is_rendered_literally() -> None:
    screen = pyte.Screen(20, 1)
    pyte.Stream(screen).feed("[@click=quit]x[/]")

    class Model:
        cols, rows, cursor_x, cursor_y, cursor_visible = 20, 1, 0, 0, False

        def line(self, y: int) -> list[Char]:
            return [screen.buffer[y][x] for x in range(20)]

    console = Console(width=20, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(screen_to_text(Model()))
    assert console.export_text().rstrip() == "[@click=quit]x[/]"


def test_a_row_drawn_from_the_grid_looks_as_drawn_from_its_cells() -> None:
    """What views draw (the grid's glyphs) against the cells the model gives everyone else, on
    real programs' captured screens, with the cursor and search matches on them."""
    from pathlib import Path

    from observer.rendering import glyphs_to_segments
    from observer.terminal import TerminalModel

    captures = sorted(Path(__file__).parent.parent.joinpath("fixtures", "captures").glob("*.bin"))
    assert captures
    rows = 0
    for capture in captures:
        model = TerminalModel(120, 40, scrollback=0)
        model.feed(capture.read_bytes()[:200_000])
        for y in range(model.rows):
            for palette in (PALETTE, None):
                for cursor, matches in ((None, ()), (y % 7, ()), (3, ((1, 9), (30, 44)))):
                    theirs = cells_to_segments(model.line(y), palette, cursor, matches)
                    ours = glyphs_to_segments(model.glyphs(y), palette, cursor, matches)
                    assert ours == theirs, (capture.name, y)
            rows += 1
    assert rows >= 40 * len(captures)
