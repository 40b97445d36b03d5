"""A compositor that draws only the widgets under what changed (the dashboard's).

Textual's compositor draws a partial update by rendering every widget whose *clip* overlaps the
box around all the regions that changed. A tile's clip is the whole grid, so each update drew
all 40 tiles' containers, and the box around a few tiles' changed rows in far corners of the
screen covers most of it: measured with 40 live tiles, 20–26 updates a second drew about ten
times the cells that changed (2,000 widget renders a second for 200 tile frames).

This one renders a widget only where its *visible* region overlaps a region that changed, and
only the lines of those regions; and not at all where the widgets in front of it have already
drawn every changed part of it (a tile's border box behind its terminal's changed rows: the
compositor paints front to back and the first strip drawn for a cell wins, so what a widget
behind would draw there is thrown away). What reaches the terminal is the same: an update writes only
the changed regions' spans, and each chop there is the front-most widget's (every widget's edges
are cuts), which overlaps a changed region, so it is rendered. Textual pins this API to 8.x
(``pyproject.toml``); ``tests/app/test_sparse_compositor.py`` checks the screen it draws against
Textual's own after many partial updates.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import cast

from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget


class SparseCompositor(Compositor):
    """Textual's compositor, rendering only widgets under a changed region (module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self._changed: tuple[tuple[int, int, int, int], ...] = ()
        self._shown_of: object = None
        self._shown_widgets: list[tuple[Widget, Region, Region, int, int, int, int]] = []

    def render_partial_update(self) -> ChopsUpdate | None:
        self._changed = merged(self._dirty_regions)
        try:
            return super().render_partial_update()
        finally:
            self._changed = ()

    def _shown(self) -> list[tuple[Widget, Region, Region, int, int, int, int]]:
        """The visible widgets, front to back: each with its region, its clip, and the left,
        top, right and bottom edges of the part of it that shows. Kept while Textual keeps
        its map of them (a new map each time the layout changes)."""
        widgets = self.visible_widgets
        if self._shown_of is not widgets:
            self._shown_of = widgets
            self._shown_widgets = []
            for widget, (region, clip) in widgets.items():
                x, y, width, height = region.intersection(clip)
                self._shown_widgets.append((widget, region, clip, x, y, x + width, y + height))
        return self._shown_widgets

    def _render_chops(
        self, crop: Region, is_rendered_line: Callable[[int], bool]
    ) -> Sequence[Mapping[int, Strip]]:
        """Textual's chops (each rendered line cut where widgets start and end, front-most
        strip first), made for the lines rendered only: Textual made a map of every cut of
        every line of the screen for each update (with 40 tiles, 60 maps of up to 40 cuts,
        50 times a second), where an update writes a few lines. A widget's cuts on a line are
        found by bisection, not by testing every cut of the line."""
        cuts = self.cuts
        chops: list[dict[int, Strip | None]] = [
            dict.fromkeys(cut_set[:-1]) if is_rendered_line(y) else {}
            for y, cut_set in enumerate(cuts)
        ]
        for region, clip, strips in self._get_renders(crop):
            render_x, render_y, render_width, render_height = region.intersection(clip)
            first_cut, last_cut = render_x, render_x + render_width
            for y, strip in zip(range(render_y, render_y + render_height), strips, strict=False):
                if not is_rendered_line(y):
                    continue
                line_cuts = cuts[y]
                shown = line_cuts[
                    bisect_left(line_cuts, first_cut) : bisect_right(line_cuts, last_cut)
                ]
                chops_line = chops[y]
                get = chops_line.get
                pieces = strip.divide([cut - render_x for cut in shown[1:]])
                for cut, piece in zip(shown, pieces, strict=False):
                    if get(cut) is None:  # front to back: the first strip drawn wins
                        chops_line[cut] = piece
        return cast("Sequence[Mapping[int, Strip]]", chops)

    def _get_renders(
        self, crop: Region | None = None
    ) -> Iterable[tuple[Region, Region, list[Strip]]]:
        changed = self._changed
        if not crop or not changed:
            yield from super()._get_renders(crop)
            return
        covered: list[tuple[int, int, int, int]] = []  # what front widgets drew, in full
        for widget, region, clip, x, y, right, end in self._shown():  # front to back
            top, bottom = end, y
            hidden = True  # every changed part of this widget is drawn by a widget in front
            for (
                left,
                first,
                after,
                last,
            ) in changed:  # plain ints: 40 tiles' rows, 20 times a second
                if left < right and after > x and first < end and last > y:
                    top, bottom = min(top, max(first, y)), max(bottom, min(last, end))
                    if hidden:
                        part = (max(left, x), max(first, y), min(after, right), min(last, end))
                        hidden = any(within(part, drawn) for drawn in covered)
            if top >= bottom or hidden:
                continue
            # The lines from ``top`` to ``bottom`` of the visible part; handed on as the region
            # the strips stand in (the chops are cut from where it starts).
            lines = widget.render_lines(
                Region(x - region.x, top - region.y, right - x, bottom - top)
            )
            covered.append((x, top, right, bottom))
            yield Region(region.x, top, region.width, bottom - top), clip, lines


def within(part: tuple[int, int, int, int], drawn: tuple[int, int, int, int]) -> bool:
    """Whether the rectangle ``part`` lies inside ``drawn`` (both (left, top, right, bottom))."""
    return (
        drawn[0] <= part[0] and drawn[1] <= part[1] and part[2] <= drawn[2] and part[3] <= drawn[3]
    )


def merged(regions: Iterable[Region]) -> tuple[tuple[int, int, int, int], ...]:
    """``regions`` as (left, top, right, bottom), rows of the same span one above the other made
    one (a tile repaints its rows one region each)."""
    spans: list[list[int]] = []
    for x, y, width, height in sorted(regions, key=lambda r: (r.x, r.width, r.y)):
        last = spans[-1] if spans else None
        if last is not None and last[0] == x and last[2] == x + width and last[3] >= y:
            last[3] = max(last[3], y + height)
        else:
            spans.append([x, y, x + width, y + height])
    return tuple((a, b, c, d) for a, b, c, d in spans)
