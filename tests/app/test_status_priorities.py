"""What the status bar keeps when the window is too narrow for all of it: the mode, who holds the
keyboard, the watchers and the title before the agent's own words, which are cut first."""

from __future__ import annotations

from rich.text import Text

from observer.app.app import ObserverApp
from observer.app.links import LatencyMeasured
from observer.app.widgets.one_line import Part, fit_parts
from observer.app.widgets.status_bar import StatusBar
from observer.protocol.events import ControlChanged
from tests.app.conftest import played, scripted
from tests.waiting import until

QUESTION = "needs your permission to run: rm -rf /tmp/build/project/node_modules/.cache && npm test"


def shown(app: ObserverApp) -> str:
    return app.screen.query_one(StatusBar).render().plain


def whole(app: ObserverApp) -> str:
    return app.screen.query_one(StatusBar).describe(app.clock()).plain


async def test_a_long_wait_keeps_the_mode_holder_watchers_and_title_and_cuts_its_words() -> None:
    source = scripted(
        [b"\x1b]2;agent: fixing tests\x07", f"\x1b]9;{QUESTION}\x07".encode()],
        identifier="build-7",
    )
    app = ObserverApp([source])
    async with app.run_test(size=(130, 20)) as pilot:
        await played(source)
        source.push(LatencyMeasured(0.004))
        await until(lambda: "watching" in whole(app), "the watchers")
        text = shown(app)
        assert len(whole(app)) > 130 and len(text) <= 130
        assert text.startswith(
            " WATCH  ctrl+t takes control │ connected │ agent needs permission 0s: needs your"
        )
        assert "…" in text and "npm test" not in text
        assert text.endswith(" │ 1 watching │ agent: fixing tests …"), text
        source.push(ControlChanged("other"))
        await until(lambda: "held by another client" in whole(app), "the holder")
        await pilot.resize_terminal(80, 20)
        await until(lambda: len(shown(app)) <= 80, "the narrower window")
        text = shown(app)
        assert text.startswith(" WATCH  held by another client │ connected │ 1 watching │ agent:")
        assert "needs your" not in text and text.endswith("…")


def test_parts_are_cut_then_left_out_by_rank_and_a_part_goes_with_the_one_it_follows() -> None:
    parts = [
        Part(Text(" MODE "), 0),
        Part(Text(" │ head"), 1),
        Part(Text(": the agent's long words"), 5, shortest=8, least=3, after=1),
        Part(Text(" │ title of the session"), 2, shortest=10),
        Part(Text(" │ 9 ms"), 4),
    ]
    assert fit_parts(parts, 100).plain == (
        " MODE  │ head: the agent's long words │ title of the session │ 9 ms"
    )
    assert (
        fit_parts(parts, 60).plain == " MODE  │ head: the agent's … │ title of the session │ 9 ms"
    )
    assert fit_parts(parts, 45).plain == " MODE  │ head │ title of the session │ 9 ms …"
    assert fit_parts(parts, 30).plain == " MODE  │ head │ title of th…"
    # The title may be cut to 10 cells and has them before anything else but the mode.
    assert fit_parts(parts, 20).plain == " MODE  │ title of…"
    assert fit_parts(parts, 4).plain == " MO…"
