"""Terminal sizes as written in resize events, recording headers and on the command line."""

from __future__ import annotations

import pytest

from observer.errors import UsageError
from observer.protocol import frames
from observer.terminal import model
from observer.terminal.size import MAX_SIZE, SizeError, format_size, parse_size


@pytest.mark.parametrize(
    ("text", "size"), [("80x24", (80, 24)), (" 120X40 ", (120, 40)), ("1000x1", (1000, 1))]
)
def test_sizes_parse(text: str, size: tuple[int, int]) -> None:
    assert parse_size(text) == size
    assert parse_size(format_size(*size)) == size


@pytest.mark.parametrize(
    "text", ["80", "x24", "80x", "80x-1", "0x24", "1001x1", "٨٠x24", "8.0x2", "80x24x1", "9" * 30]
)
def test_bad_sizes_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_size(text)


def test_a_bad_size_says_which_option_and_how_to_write_one() -> None:
    with pytest.raises(UsageError) as malformed:
        parse_size("big", "--size")
    assert str(malformed.value) == "--size 'big' is not COLSxROWS — write it like 120x40"
    with pytest.raises(SizeError) as too_wide:
        parse_size("5000x10", "--size")
    assert too_wide.value.what == "--size '5000x10': 5000 columns is outside 1..1000"


def test_the_protocol_and_the_model_take_the_same_largest_size() -> None:
    assert frames.MAX_DIMENSION == model.MAX_COLS == model.MAX_ROWS == MAX_SIZE
