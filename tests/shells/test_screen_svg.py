"""Screen cells to Rich text and theme for the SVG image of ``observer render --format svg``."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.color import Color
from rich.terminal_theme import SVG_EXPORT_THEME

from observer.cli import main
from observer.commands._screen_output import screen_ansi, screen_svg, screen_to_text, terminal_theme
from observer.render.rich_cells import rich_colour
from observer.terminal import TerminalModel


@pytest.mark.parametrize(
    ("name", "rich"),
    [
        ("default", None),
        ("red", Color.from_ansi(1)),
        ("brown", Color.from_ansi(3)),
        ("brightbrown", Color.from_ansi(11)),
        ("brightblue", Color.from_ansi(12)),
        ("FF8700", Color.parse("#ff8700")),
        ("010203", Color.parse("#010203")),
        ("nonsense", None),
    ],
)
def test_model_colours_map_to_rich_colours_keeping_palette_indexes(
    name: str, rich: Color | None
) -> None:
    assert rich_colour(name) == rich


def test_cells_become_styled_text_runs_and_the_cursor_an_inverted_cell() -> None:
    model = TerminalModel(cols=10, rows=1)
    model.feed(b"\x1b[1;31mab\x1b[0m\x1b[4mc\x1b[0m d\x1b[D")
    text = screen_to_text(model)
    assert text.plain == "abc d     "
    styles = {text.plain[s.start : s.end]: s.style for s in text.spans}
    assert styles["ab"].bold and styles["ab"].color == Color.from_ansi(1)  # type: ignore[union-attr]
    assert styles["c"].underline  # type: ignore[union-attr]
    assert styles["d"].reverse  # type: ignore[union-attr]  # the cursor


def test_wide_characters_take_one_text_character_for_two_cells() -> None:
    model = TerminalModel(cols=6, rows=1)
    model.feed("界x".encode())
    assert screen_to_text(model).plain == "界x   "


def test_ansi_is_the_rows_in_sgr_with_palette_indexes_and_no_trailing_blanks() -> None:
    model = TerminalModel(cols=12, rows=3)
    model.feed(b"\x1b[31mred\x1b[0m \x1b[38;2;1;2;3mrgb\x1b[0m\r\n\x1b[44m  \x1b[0m")
    rows = screen_ansi(model, cursor=False).split("\n")
    assert rows[0] == "\x1b[31mred\x1b[0m \x1b[38;2;1;2;3mrgb\x1b[0m"
    assert rows[1] == "\x1b[44m  \x1b[0m"  # a coloured blank is something to see
    assert rows[2:] == ["", ""]


def test_a_recorded_theme_colours_the_image() -> None:
    palette = ":".join(f"#{i:02x}{i:02x}{i:02x}" for i in range(16))
    theme = terminal_theme({"fg": "#eeeeee", "bg": "#111111", "palette": palette})
    assert theme.background_color.hex == "#111111"
    assert theme.ansi_colors[1].hex == "#010101"
    assert theme.ansi_colors[9].hex == "#090909"
    eight = terminal_theme({"fg": "#eeeeee", "bg": "#111111", "palette": palette[: 8 * 8 - 1]})
    assert eight.ansi_colors[9].hex == "#010101"  # 8 colours serve as bright ones too
    assert terminal_theme({"fg": "#eee", "bg": "x", "palette": palette}) is SVG_EXPORT_THEME
    assert terminal_theme(None) is SVG_EXPORT_THEME


def test_render_svg_uses_the_recordings_theme(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    palette = ":".join(["#000000", "#123456"] + ["#aaaaaa"] * 14)
    header = {
        "version": 2,
        "width": 10,
        "height": 2,
        "theme": {"fg": "#eeeeee", "bg": "#111111", "palette": palette},
    }
    cast = tmp_path / "c.cast"
    cast.write_text(json.dumps(header) + "\n" + json.dumps([0.1, "o", "\x1b[31mred"]) + "\n")
    assert main(["render", str(cast), "--format", "svg", "--hide-cursor"]) == 0
    assert "#123456" in capsys.readouterr().out


def test_the_svg_hides_concealed_text_and_the_app_draws_blink_and_conceal() -> None:
    from observer.render.rich_cells import Palette, glyphs_to_segments

    model = TerminalModel(cols=20, rows=1)
    model.feed(b"\x1b[5mblink\x1b[25m \x1b[8;41msecret\x1b[0m shown")
    svg = screen_svg(model, cursor=False)
    assert "blink" in svg and "shown" in svg and "secret" not in svg
    assert screen_to_text(model, cursor=False).plain == "blink        shown  "
    # The app's rows (the model's glyphs, the theme's colours): the host terminal blinks and hides.
    segments = glyphs_to_segments(model.glyphs(0), Palette())
    styles = {s.text: s.style for s in segments}
    assert styles["blink"].blink and not styles["blink"].conceal  # type: ignore[union-attr]
    assert styles["secret"].conceal and styles["secret"].bgcolor  # type: ignore[union-attr]


CAPTURES = Path(__file__).resolve().parents[1] / "fixtures" / "captures"
CHAR_WIDTH = 20 * 0.61  # Rich's SVG: 20 px characters at its default aspect ratio
TEXT_RUN = re.compile(
    r'<text class="[^"]*" x="([^"]*)" y="[^"]*" textLength="([^"]*)" '
    r'clip-path="url\(#[^)]*-line-(\d+)\)">([^<]*)</text>'
)


def test_every_text_run_of_the_svg_spans_its_own_cells() -> None:
    """CJK, emoji and combining marks from a real shell's bytes (Rich counts characters, not
    cells: Textualize/rich#2742)."""
    meta = json.loads((CAPTURES / "wide-text.json").read_text())
    model = TerminalModel(cols=meta["cols"], rows=meta["rows"])
    model.feed((CAPTURES / "wide-text.bin").read_bytes())
    svg = screen_svg(model, cursor=False)
    wide = 0
    for x, length, row, escaped in TEXT_RUN.findall(svg):
        text = html.unescape(escaped).replace("\xa0", " ")
        if text == "\n":
            continue
        column, cells = round(float(x) / CHAR_WIDTH), round(float(length) / CHAR_WIDTH)
        assert cells == cell_len(text), (text, cells)
        assert float(x) == pytest.approx(column * CHAR_WIDTH)
        assert float(length) == pytest.approx(cells * CHAR_WIDTH)
        shown = "".join(cell.data for cell in model.line(int(row))[column : column + cells])
        assert shown == text, (row, column)
        wide += cell_len(text) > len(text)
    assert wide >= 3, "the capture shows wide characters"


def test_the_svg_names_local_fonts_and_fetches_nothing() -> None:
    model = TerminalModel(cols=10, rows=1)
    model.feed("日本 ok".encode())
    svg = screen_svg(model)
    assert "@font-face" not in svg and "url(" not in svg.replace("url(#", "")
    assert re.findall(r"https?://[^\"' )]+", svg) == [
        "http://www.w3.org/2000/svg",  # the namespace, never fetched
        "https://www.textualize.io",  # in a comment
    ]
