"""Moving the focus between tiles repaints the two tiles, not the whole dashboard.

Textual repaints the whole screen when a screen's focus changes: with 40 tiles each arrow key
drew every tile and wrote 75 KB to the terminal (the focus key took up to 270 ms). The tile
that loses the focus and the one that gains it repaint their borders themselves.
"""

from __future__ import annotations

import pytest
from textual.geometry import Region

from observer.app.app import ObserverApp
from observer.app.sparse_compositor import SparseCompositor
from observer.app.widgets.tile import Tile
from tests.app.conftest import scripted


async def test_a_focus_move_repaints_the_two_tiles_only(monkeypatch: pytest.MonkeyPatch) -> None:
    app = ObserverApp([scripted([b"$ "], identifier=f"agent-{n}") for n in range(6)])
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause(0.3)
        full: list[bool] = []
        repainted: list[Region] = []
        partial = SparseCompositor.render_partial_update
        whole = SparseCompositor.render_full_update

        def partial_update(self: SparseCompositor) -> object:
            repainted.extend(self._dirty_regions)
            return partial(self)

        def full_update(self: SparseCompositor, simplify: bool = False) -> object:
            full.append(True)
            return whole(self, simplify)

        monkeypatch.setattr(SparseCompositor, "render_partial_update", partial_update)
        monkeypatch.setattr(SparseCompositor, "render_full_update", full_update)
        first, second = list(app.screen.query(Tile))[:2]
        assert app.screen.focused is first
        await pilot.press("right")
        await pilot.pause(0.3)
        assert app.screen.focused is second
        assert not full
        for tile in (first, second):  # both borders: the corner's colour changed
            corner = tile.region.offset
            assert any(region.contains_point(corner) for region in repainted), tile
        others = [tile.region for tile in app.screen.query(Tile)][2:]
        assert not any(region.overlaps(other) for region in repainted for other in others)
