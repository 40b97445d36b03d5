"""What a tile keeps of the rows it drew: one strip per screen row (its last version), nothing
derived.

Textual keeps every strip derived from another (cut to the view, filtered) in caches on that
one, and each strip carries seven cache objects of its own. Keeping the whole row a view cut its
line from kept three strips per row version, and the cyclic collector walks every one of those
objects in collections that stop every tile. The view keeps the line as it shows it; the row it
was cut from and the filtered copy drawn in a frame are garbage as soon as that frame is drawn.
"""

from __future__ import annotations

import gc
import random

import pytest
from textual.filter import Monochrome
from textual.strip import Strip

from observer.app.app import ObserverApp
from observer.app.screens.dashboard import DashboardScreen
from observer.protocol.events import OutputReceived
from tests.app.conftest import laid_out, scripted, settled
from tests.waiting import until

CACHES = ("_crop_cache", "_filter_cache", "_divide_cache", "_style_cache", "_offsets_cache")


@pytest.mark.usefixtures("textual_patched")  # as the command that starts the app runs it
async def test_a_tile_keeps_one_strip_per_row_and_nothing_derived() -> None:
    before = strips_alive()  # what earlier tests in this process may still hold
    links = [scripted([b"$ "], identifier=f"a{n}", cols=120, rows=30) for n in range(4)]
    app = ObserverApp(links)
    app._filters.append(Monochrome())  # a line filter in play, as NO_COLOR sets
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(app)
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        rng = random.Random(1)
        offset = 2
        for frame in range(40):  # every row of every tile changes, in truecolour
            chunk = b"".join(
                b"\x1b[%d;1H\x1b[38;2;%d;9;9mrow %d v%d" % (y, rng.randrange(256), y, frame)
                for y in range(1, 31)
            )
            for link in links:
                link.push(OutputReceived(chunk, offset))
            offset += len(chunk)
            await pilot.pause(0.02)
        await settled(app)  # every version parsed, its frame drawn
        await until(lambda: laid_out(app), "the last frame's lines drawn")
        kept = []
        for tile in screen.tiles:
            for _, strip in tile._strips.values():
                assert strip.cell_length == tile.width  # the line as the tile shows it
                assert not any(getattr(strip, cache) for cache in CACHES), strip
                kept.append(strip)
        assert kept  # the tiles drew their rows
        lines = list(screen.grid._lines.values())  # the grid's lines, as drawn
        assert all(line.cell_length == screen.grid.size.width for line in lines)
        alive = strips_alive() - before
        assert alive < len(kept) + len(lines) + 150, (alive, len(kept), len(lines))


def strips_alive() -> int:
    """Strips alive in this process, once the cyclic garbage is collected."""
    gc.collect()
    return sum(1 for thing in gc.get_objects() if isinstance(thing, Strip))
