"""Six hex digits is a colour, for every reader of a colour alike."""

from __future__ import annotations

from importlib import resources

import pytest

from observer.commands._screen_output import terminal_theme
from observer.errors import ThemeError
from observer.render.rich_cells import rich_colour
from observer.terminal.ansi import sgr
from observer.terminal.cells import Cell
from observer.terminal.colours import hex_rgb, is_hex_colour
from observer.themes import parse_theme

COLOURS = ["ff8800", "FF8800", "0a0B0c"]
NOT_COLOURS = ["ff880", "ff88000", "gg8800", "ff8800\n", " ff8800", "", "default", "red"]
_DARK = resources.files("observer.themes").joinpath("observer-dark.toml").read_text("utf-8")


def _theme_accepts(digits: str) -> bool:
    foreground = next(line for line in _DARK.splitlines() if line.startswith("foreground"))
    try:
        parse_theme(_DARK.replace(foreground, f'foreground = "#{digits}"'), "t.toml")
    except ThemeError:
        return False
    return True


def _svg_accepts(digits: str) -> bool:
    palette = ":".join(["#000000"] * 16)
    theme = terminal_theme({"fg": f"#{digits}", "bg": "#000000", "palette": palette})
    return theme.foreground_color.hex == f"#{digits.lower()}" if len(digits) == 6 else False


@pytest.mark.parametrize("digits", COLOURS)
def test_every_reader_takes_six_hex_digits_as_the_same_colour(digits: str) -> None:
    rgb = hex_rgb(digits)
    assert rgb == (int(digits[:2], 16), int(digits[2:4], 16), int(digits[4:], 16))
    assert sgr(Cell("x", fg=digits)) == "\x1b[0;38;2;{};{};{}m".format(*rgb)
    colour = rich_colour(digits)
    assert colour is not None and colour.triplet is not None and tuple(colour.triplet) == rgb
    assert _svg_accepts(digits)
    assert _theme_accepts(digits)


@pytest.mark.parametrize("text", NOT_COLOURS)
def test_every_reader_refuses_what_is_not_six_hex_digits(text: str) -> None:
    assert not is_hex_colour(text) and hex_rgb(text) is None
    if text not in ("default", "red"):  # palette names are colours of their own
        assert sgr(Cell("x", fg=text)) == "\x1b[0m"
        assert rich_colour(text) is None
    assert not _svg_accepts(text)
    assert not _theme_accepts(text)
