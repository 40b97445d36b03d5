"""Web addresses in terminal text and the text a selection covers (pure: cells in, text out)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from observer.app.urls import FoundLink, describe, spans, url_at
from observer.app.widgets.selection import Point, Selection, line_text
from observer.terminal import Cell, TerminalModel


def lines_of(model: TerminalModel) -> Callable[[int], Sequence[Cell]]:
    def cells_of(line: int) -> Sequence[Cell]:
        return model.line(line) if 0 <= line < model.rows else ()

    return cells_of


def target_at(cells_of: Callable[[int], Sequence[Cell]], line: int, column: int) -> str | None:
    found = url_at(cells_of, line, column)
    return None if found is None else found.target


def screen(data: str, cols: int = 40, rows: int = 6) -> TerminalModel:
    model = TerminalModel(cols, rows, scrollback=0)
    model.feed(data.encode())
    return model


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("see https://example.com/a.", "https://example.com/a"),
        (
            "(https://en.wikipedia.org/wiki/Tmux_(software))",
            "https://en.wikipedia.org/wiki/Tmux_(software)",
        ),
        ('"http://example.com/x?y=1&z=2",', "http://example.com/x?y=1&z=2"),
        ("│ https://example.com/boxed │", "https://example.com/boxed"),
        ("https://bücher.example/straße", "https://bücher.example/straße"),
        ("go to https://", None),
        ("file:///etc/passwd and javascript:alert(1)", None),
    ],
)
def test_addresses_are_found_without_the_punctuation_around_them(
    text: str, found: str | None
) -> None:
    assert [text[a:b] for a, b in spans(text)] == ([found] if found else [])


def test_the_address_under_a_cell_and_only_under_it() -> None:
    model = screen("a https://example.com/one b https://example.com/two")
    cells_of = lines_of(model)
    assert target_at(cells_of, 0, 2) == "https://example.com/one"
    assert target_at(cells_of, 0, 26) is None
    assert target_at(cells_of, 1, 5) == "https://example.com/two"


def test_an_address_wrapped_over_rows_is_joined_from_any_of_its_rows() -> None:
    url = "https://example.com/" + "x" * 70
    model = screen(f"go {url} now", cols=40)
    cells_of = lines_of(model)
    for line, column in ((0, 10), (1, 0), (2, 11)):
        assert target_at(cells_of, line, column) == url
    assert target_at(cells_of, 2, 14) is None  # " now"


def test_a_row_that_ends_blank_is_not_joined_to_the_next() -> None:
    model = screen("https://example.com/a\r\nmore")
    assert target_at(lines_of(model), 0, 3) == "https://example.com/a"


def test_a_host_in_another_script_is_also_shown_in_its_ascii_form() -> None:
    assert describe(FoundLink("https://example.com/", "https://example.com/")) == (
        "https://example.com/"
    )
    cyrillic = "https://\u0430pple.com/login"  # a Cyrillic а
    text = describe(FoundLink(cyrillic, cyrillic))
    assert text.endswith("host: xn--pple-43d.com")


def test_a_selection_runs_through_the_lines_between_its_ends_either_way() -> None:
    model = screen("first line\r\nsecond\r\nthird line")
    cells_of = lines_of(model)
    forward = Selection(Point(0, 6), Point(2, 4))
    backward = Selection(Point(2, 4), Point(0, 6))
    assert forward.text(cells_of) == backward.text(cells_of) == "line\nsecond\nthird"
    assert forward.span(1) == (0, 1 << 30) and forward.span(3) is None


def test_a_selection_starting_on_half_a_wide_character_takes_it_whole() -> None:
    model = screen("ab漢字cd")
    assert Selection(Point(0, 3), Point(0, 6)).text(lines_of(model)) == "漢字c"


def test_whole_lines_drop_trailing_blanks_and_empty_lines() -> None:
    model = screen("one   \r\ntwo\r\n\r\n")
    assert line_text(lines_of(model), range(6)) == "one\ntwo"
