"""One-line titles and status lines end in ``…`` where they do not fit; they never wrap away."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text

from observer.app.app import ObserverApp
from observer.app.widgets.one_line import OneLine, fit_line
from observer.app.widgets.replay_status import ReplayStatus
from observer.protocol.events import OutputReceived
from tests.app.conftest import played, scripted, tile_title
from tests.app.test_replay import replaying, write_cast
from tests.waiting import until

ERROR = "no session 'delta' at ws://127.0.0.1:9/ (HTTP 404) — check the profile's identifier"


def shown(line: OneLine) -> str:
    """What the widget's one row shows on screen."""
    return line.render_line(0).text


def test_fit_line_cuts_the_end_with_an_ellipsis_and_keeps_short_lines() -> None:
    assert fit_line(Text("abcdef"), 4).plain == "abc…"
    assert fit_line(Text("abc"), 4).plain == "abc"
    assert fit_line(Text("abc"), 0).plain == ""


@pytest.mark.parametrize("size", [(80, 24), (20, 6)])
async def test_a_closed_tile_shows_its_name_and_the_start_of_its_error(
    size: tuple[int, int],
) -> None:
    links = [scripted(identifier=name) for name in ("alpha", "beta", "gamma", "delta")]
    for link in links:
        link.label = f"{link.session.identifier} · ws://127.0.0.1:9"
    app = ObserverApp(links)
    async with app.run_test(size=size):
        await played(links[3])  # the failure comes after the hello
        links[3].session.connection_failed(ERROR, retryable=False, now=0.0)
        app.screen.update_titles()
        screen = app.screen
        whole = f" 4  delta  closed: {ERROR}"
        await until(
            lambda: (line := tile_title(screen, 3)) == whole[: len(line) - 1] + "…",
            "the closed tile's title drawn",
        )
        line = tile_title(app.screen, 3)
        width = len(line)
        assert width > 4 and line == whole[: width - 1] + "…", line


async def test_the_replay_status_line_ends_in_an_ellipsis_in_a_narrow_window(
    tmp_path: Path,
) -> None:
    title = "a title far too long to fit in forty columns of a status line"
    events = [[0.0, "o", f"\x1b]2;{title}\x07hello"], [1.0, "m", "takeover"], [3.0, "o", "!"]]
    async with replaying(write_cast(tmp_path / "t.cast", events), size=(40, 10)) as (pilot, *_):
        await pilot.press("right_square_bracket")
        line = pilot.app.screen.query_one(ReplayStatus)
        await until(lambda: "0:01.0 /" in shown(line), "the marker's time")
        text = shown(line)
        assert text.startswith(" ⏸ PAUSE  0:01.0 / 0:03.0 │ 1× │ ◆ take") and text.endswith("…"), (
            text
        )
        assert len(text) == line.size.width == 40


async def test_a_narrow_tile_that_needs_someone_still_shows_its_name_first() -> None:
    links = [scripted(identifier=name) for name in ("alpha", "beta", "gamma", "delta")]
    for link in links:
        link.label = f"{link.session.identifier} · ws://127.0.0.1:9"
    app = ObserverApp(links)
    async with app.run_test(size=(40, 12)):
        await played(links[3])  # the notification comes after the hello
        links[3].push(OutputReceived(b"\x1b]9;Claude needs your permission to use Bash\x07", 0))
        tile = app.screen.tiles[3]
        await until(lambda: tile.attention, "the tile's attention")
        app.screen.update_titles()
        screen = app.screen
        await until(lambda: tile_title(screen, 3).endswith("…"), "the tile's title drawn, cut")
        line = tile_title(app.screen, 3)
        assert tile.attention and line.startswith(" 4  delta  "), line
        assert line.endswith("…")
