"""SGR 2 (faint): kept by the model, repainted by ``to_ansi`` and drawn by the view and
``observer render`` (pyte 0.8.2 drops it, so faint text used to show at full strength)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.color import ColorTriplet, blend_rgb
from rich.terminal_theme import SVG_EXPORT_THEME

from observer.cli import main
from observer.render.rich_cells import Palette, cells_to_segments
from observer.terminal import TerminalModel

# The same bytes in tmux 3.3a, `capture-pane -e -p` (the independent emulator of the
# captured-programs fixtures) gave:
#   ESC[2mD ESC[1mB ESC[0m..N ESC[1;2mX ESC[0m..R ESC[2mY ESC[4:2mZ ESC[0;4:2m..Q
# i.e. faint D, bold+faint B, plain N, bold+faint X, plain R, faint Y, faint underlined Z,
# underlined Q: 22 ends both bold and faint, 0 ends everything.
TMUX_INPUT = b"\x1b[2mD\x1b[1mB\x1b[22mN\x1b[2;1mX\x1b[0mR\x1b[2mY\x1b[21mZ\x1b[22mQ"
TMUX_ATTRS = {
    "D": (False, True, False),
    "B": (True, True, False),
    "N": (False, False, False),
    "X": (True, True, False),
    "R": (False, False, False),
    "Y": (False, True, False),
    "Z": (False, True, True),
    "Q": (False, False, True),
}


def fed(data: bytes, cols: int = 20, rows: int = 3) -> TerminalModel:
    m = TerminalModel(cols, rows)
    m.feed(data)
    return m


def test_faint_bold_and_their_resets_match_tmux() -> None:
    m = fed(TMUX_INPUT)
    got = {c.data: (c.bold, c.dim, c.underscore) for c in m.line(0)[:8]}
    assert got == TMUX_ATTRS


def test_a_faint_cell_still_offers_every_pyte_field() -> None:
    cell = fed(b"\x1b[2;1;31mx").line(0)[0]
    assert (cell.data, cell.fg, cell.bold, cell.dim, cell.italics) == (
        "x",
        "red",
        True,
        True,
        False,
    )
    assert fed(b"x").line(0)[0].dim is False


def test_to_ansi_repaints_faint_text_and_a_faint_pen() -> None:
    a = fed(TMUX_INPUT + b"\x1b[2m")
    b = fed(a.to_ansi().encode())
    assert list(b.line(0)) == list(a.line(0))
    a.feed(b"p")
    b.feed(b"p")
    assert b.line(0)[8] == a.line(0)[8] and a.line(0)[8].dim


def test_the_view_draws_faint_cells_faint() -> None:
    row = fed(b"\x1b[2mdim\x1b[22mnormal").line(0)
    segments = cells_to_segments(row, Palette())
    assert segments[0].text == "dim" and segments[0].style is not None
    assert segments[0].style.dim
    assert segments[1].text.startswith("normal") and segments[1].style is not None
    assert not segments[1].style.dim


def test_render_svg_draws_faint_text_in_a_colour_blended_towards_the_background(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = tmp_path / "out.bin"
    raw.write_bytes(b"\x1b[2;31mfaint\x1b[0m \x1b[31mred")
    assert main(["render", str(raw), "--size", "20x2", "--format", "svg"]) == 0
    svg = capsys.readouterr().out
    theme = SVG_EXPORT_THEME
    red = theme.ansi_colors[1]
    faint = blend_rgb(red, theme.background_color, 0.4)
    assert f"fill: {ColorTriplet(*red).hex}" in svg
    assert f"fill: {faint.hex}" in svg
