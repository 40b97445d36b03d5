"""Painted lines are freed by reference counting: no cycle for the collector to find
(:mod:`observer.app.textual_patches`, installed as the command that starts the app does)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from observer.app import textual_patches
from observer.app.app import ObserverApp
from observer.protocol.events import OutputReceived
from tests.app.conftest import scripted, settled

pytestmark = pytest.mark.usefixtures("textual_patched")


@pytest.fixture
def collector_off() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def strips_alive() -> int:
    return sum(1 for o in gc.get_objects() if isinstance(o, Strip))


def test_a_line_divided_into_itself_is_freed_without_the_cyclic_collector(
    collector_off: None,
) -> None:
    before = strips_alive()
    for n in range(100):
        line = Strip([Segment(f"line {n}", Style(bold=True))], 7 + len(str(n)))
        line.divide([line.cell_length])
        del line
    assert strips_alive() == before


@given(
    st.lists(st.text(alphabet="ab ", min_size=1, max_size=5), min_size=1, max_size=4),
    st.lists(st.integers(min_value=0, max_value=25), max_size=4),
)
def test_divided_lines_are_the_ones_textual_gives(texts: list[str], cuts: list[int]) -> None:
    line = Strip([Segment(t) for t in texts])
    cuts = [*sorted(set(cuts)), line.cell_length]
    ours = line.divide(cuts)
    theirs = textual_patches._textual_divide(Strip([Segment(t) for t in texts]), cuts)
    assert [(s.text, s.cell_length) for s in ours] == [(s.text, s.cell_length) for s in theirs]


async def test_a_dashboard_painting_output_leaves_no_lines_for_the_cyclic_collector() -> None:
    links = [scripted([b"hello"], identifier=f"a{n}") for n in range(3)]
    app = ObserverApp(links)
    async with app.run_test(size=(120, 36)) as pilot:
        await settled(app)
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            for n in range(20):
                for index, link in enumerate(links):
                    link.push(OutputReceived(f"\r\nline {n} of agent {index}".encode(), 5 + n))
                await pilot.pause(0.05)
            gc.collect()
            assert not [o for o in gc.garbage if isinstance(o, Strip)]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()


def test_a_line_makes_its_caches_when_first_used_and_uses_them_as_textual_does() -> None:
    line = Strip([Segment("hello world", Style(bold=True))], 11)
    assert not [n for n in textual_patches.CACHES if n in dir(line) and _made(line, n)]
    cropped = line.crop(2, 7)
    assert cropped.text == "llo w"
    assert line.crop(2, 7) is cropped  # cached, as Textual caches it
    assert _made(line, "_crop_cache") and not _made(line, "_divide_cache")
    assert line.apply_style(Style(italic=True)).text == "hello world"
    with pytest.raises(AttributeError):
        line.no_such_attribute  # noqa: B018


def test_a_line_costs_no_cache_object_until_one_is_used(collector_off: None) -> None:
    before = len(gc.get_objects())
    lines = [Strip([Segment(f"line {n}")], 6 + len(str(n))) for n in range(1000)]
    # The strip, its list and its segment (Textual made 14 more: seven caches and their dicts).
    assert len(gc.get_objects()) - before < 4 * len(lines)
    del lines


def _made(line: Strip, name: str) -> bool:
    return name in {n for n in type(line).__slots__ if _slot_set(line, n)}


def _slot_set(line: Strip, name: str) -> bool:
    try:
        object.__getattribute__(line, name)
    except AttributeError:
        return False
    return True
