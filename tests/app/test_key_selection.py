"""Copy mode's point and anchor (pure)."""

from __future__ import annotations

from observer.app.widgets.key_selection import KeySelection
from observer.app.widgets.selection import Point, Selection


def test_the_point_moves_within_the_terminal_and_the_anchor_stays() -> None:
    keys = KeySelection(Point(0, 0))
    assert keys.move("up", 5, 10) and keys.point == Point(0, 0)  # already at the top
    keys.move("right", 5, 10)
    keys.anchor_here()
    for _ in range(20):
        keys.move("right", 5, 10)
    keys.move("down", 5, 10)
    assert keys.selection == Selection(Point(0, 1), Point(1, 9))
    assert not keys.move("y", 5, 10)


def test_before_the_anchor_the_selection_is_the_point_alone() -> None:
    keys = KeySelection(Point(3, 4))
    keys.move("left", 5, 10)
    assert keys.selection == Selection(Point(3, 3), Point(3, 3))
