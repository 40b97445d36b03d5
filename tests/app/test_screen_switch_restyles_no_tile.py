"""Opening a tile, going back and the command palette restyle none of the dashboard's tiles.

A CSS class on a screen restyles every widget on it: Textual's class for a screen under another
(``SUSPENDED_SCREEN_CLASS``) cost 40 tiles' worth of style matching each time ``enter``,
``escape`` or ``ctrl+p`` switched screens, most of what those keys took to answer. Only the
notification rack of the screen beneath changes now (``ObserverApp._notices_on_top``).
"""

from __future__ import annotations

from collections import Counter

import pytest
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode

from observer.app.app import ObserverApp
from observer.app.widgets.fleet_grid import FleetGrid
from tests.app.conftest import laid_out, scripted, settled
from tests.waiting import until


@pytest.mark.parametrize("keys", [["enter", "escape"], ["ctrl+p", "escape"]])
async def test_switching_screens_restyles_no_tile(
    keys: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = ObserverApp([scripted([b"$ "], identifier=f"agent-{n}") for n in range(6)])
    async with app.run_test(size=(120, 36)) as pilot:
        await settled(app)
        await until(lambda: laid_out(app), "the dashboard styled and drawn")
        dashboard = app.screen
        restyled: Counter[str] = Counter()
        apply = Stylesheet.apply

        def counted(self: Stylesheet, node: DOMNode, *args: object, **kwargs: object) -> None:
            on_dashboard = node is dashboard or dashboard in node.ancestors
            restyled["dashboard" if on_dashboard else "in front"] += 1
            if isinstance(node, FleetGrid) and on_dashboard:
                restyled["tile"] += 1
            apply(self, node, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(Stylesheet, "apply", counted)
        screens = []
        for key in keys:
            before = app.screen
            await pilot.press(key)
            await until(
                lambda: app.screen is not before and laid_out(app),  # noqa: B023 (awaited here)
                f"the screen {key} shows",
            )
            screens.append(type(app.screen).__name__)
        assert screens[-1] == "DashboardScreen"
        assert restyled["in front"]  # what the screen in front shows is styled as ever
        assert restyled["tile"] == 0, restyled
