"""Snapshot tests of the app's views (pytest-textual-snapshot), from the same scenes as the SVGs.

Regenerate after an intended visual change with ``pytest tests/snapshots --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

import pytest

from observer.demo.scenes import SCENES

NAMES = [
    "watch",
    "full-window",
    "cropped",
    "confirm",
    "control",
    "dashboard",
    "theme-dracula",
    "theme-solarized-light",
]


@pytest.mark.parametrize("name", NAMES)
def test_the_view_looks_as_approved(name: str, snap_compare: Any) -> None:
    scene = next(s for s in SCENES if s.name == name)
    app = scene.app()

    async def prepare(pilot: Any) -> None:
        await scene.prepare(pilot, scene.clock)

    assert snap_compare(app, terminal_size=scene.size, run_before=prepare)
