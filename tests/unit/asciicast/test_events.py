"""Terminal sizes as written in resize events and on the command line."""

from __future__ import annotations

import pytest

from observer.asciicast import format_size, parse_size


@pytest.mark.parametrize(("text", "size"), [("80x24", (80, 24)), (" 120X40 ", (120, 40))])
def test_sizes_parse(text: str, size: tuple[int, int]) -> None:
    assert parse_size(text) == size
    assert parse_size(format_size(*size)) == size


@pytest.mark.parametrize("text", ["80", "x24", "80x", "80x-1", "0x24", "10001x1", "٨٠x24", "8.0x2"])
def test_bad_sizes_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_size(text)
