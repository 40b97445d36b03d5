"""Cells to segments: colours from the palette, attributes, wide characters, safety."""

from __future__ import annotations

from collections.abc import Iterable

import pyte
from hypothesis import given, settings
from hypothesis import strategies as st
from pyte.screens import Char
from rich.cells import cell_len
from rich.color import Color
from rich.console import Console
from rich.segment import Segment

from observer.commands._screen_output import screen_to_text
from observer.render.rich_cells import Mark, Palette, StyleCache, cells_to_segments, style_cache
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
        cache.get((f"{n:06x}", "default", *[False] * 8, Mark.NONE))
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

    from observer.render.rich_cells import glyphs_to_segments
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


def _columns(strip: Iterable[Segment]) -> list[tuple[str, object]]:
    """A strip as its columns: each character with its style (a combining one joins the column
    before; a wide one fills its second column with "")."""
    columns: list[tuple[str, object]] = []
    for text, style, _ in strip:
        for char in text:
            if cell_len(char) == 0 and columns:
                columns[-1] = (columns[-1][0] + char, columns[-1][1])
                continue
            columns.append((char, style))
            if cell_len(char) == 2:
                columns.append(("", style))
    return columns


@settings(max_examples=300, deadline=None)
@given(
    text=st.lists(
        st.sampled_from(["a", "b", " ", "界", "🙂", "e\u0301", "\x1b[31m", "\x1b[44m", "\x1b[0m"]),
        max_size=60,
    ),
    left=st.integers(-4, 29),
    width=st.integers(1, 34),
    cursor=st.one_of(st.none(), st.integers(0, 29)),
    matches=st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), max_size=2),
)
def test_a_view_draws_the_columns_it_shows_from_its_span(
    text: list[str], left: int, width: int, cursor: int | None, matches: list[tuple[int, int]]
) -> None:
    """A view makes only the glyphs its columns show into segments (``glyph_span``), and draws
    each column as the row holds it: a wide character cut by either edge becomes a blank in its
    style, a combining mark stays on its character, and columns past the row are blank."""
    from rich.style import Style
    from textual.strip import Strip

    from observer.app.widgets.strips import placed
    from observer.render.rich_cells import glyph_span, glyphs_to_segments
    from observer.terminal import TerminalModel

    # A view narrower than the row shows a crop of it; a wider one, the row after -left blanks.
    width = max(width, 30 - left) if left < 0 else min(width, 30 - left)
    model = TerminalModel(30, 2, scrollback=0)
    model.feed("".join(text).encode())
    glyphs, blank = model.glyphs(0), Style(bgcolor="black")
    marked = tuple((a, b) for a, b in matches if a < b)
    row = _columns(glyphs_to_segments(glyphs, PALETTE, cursor, marked))
    expected = []
    for x in range(left, left + width):
        if not 0 <= x < len(row):
            expected.append((" ", blank))
            continue
        char, style = row[x]
        cut = (char == "" and x == left) or (cell_len(char) == 2 and x == left + width - 1)
        expected.append((" ", style) if cut else (char, style))
    start, end, cells = glyph_span(glyphs, left, width)
    shifted = tuple((a - start, b - start) for a, b in marked)
    at = None if cursor is None else cursor - start
    part = Strip(glyphs_to_segments(glyphs[start:end], PALETTE, at, shifted), cells)
    shown = placed(part, left - start, width, blank)
    assert shown.cell_length == width
    assert _columns(shown) == expected


def test_styles_filtered_once_draw_what_the_line_filters_draw() -> None:
    from rich.style import Style
    from rich.terminal_theme import MONOKAI
    from textual.color import Color as TextualColor
    from textual.filter import ANSIToTruecolor, Monochrome
    from textual.strip import Strip

    from observer.app.widgets.strips import StyleFilters, filtered

    background = TextualColor(10, 20, 30)
    kept = StyleFilters(limit=2)  # forgets its styles during the test, too
    rows = [
        [Segment("red ", Style(color="red")), Segment("blue", Style(color="#0000ff", dim=True))],
        [Segment("a", Style(bgcolor="color(3)", bold=True)), Segment("b", Style())],
        [Segment("true", Style(color="#102030", bgcolor="#405060"))],
    ]
    for filters in ((ANSIToTruecolor(MONOKAI),), (Monochrome(),), ()):
        for segments in rows * 2:
            strip = Strip(segments)
            ours = kept.apply(strip, filters, background)
            assert list(ours) == list(filtered(strip, filters, background))
            assert ours.cell_length == strip.cell_length
    truecolour = Strip(rows[2])
    # A row the filters do not change is drawn as it is, not copied.
    assert kept.apply(truecolour, (ANSIToTruecolor(MONOKAI),), background) is truecolour
