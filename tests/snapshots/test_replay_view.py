"""Snapshot test of the replay screen (pytest-textual-snapshot), the same scene as its SVG.

Regenerate after an intended visual change with ``pytest tests/snapshots --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

from observer.demo.scenes import Clock, bundled_recording


def test_the_replay_view_looks_as_approved(snap_compare: Any) -> None:
    from observer.app.replay_app import scene_app, scene_prepare

    app = scene_app(bundled_recording(), Clock())
    assert snap_compare(app, terminal_size=(102, 36), run_before=scene_prepare)
