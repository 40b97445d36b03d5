"""Both recorders (the app's ``watch --record``, which ``demo --record`` shares, and the headless
``observer record``) write the same markers, and what ``export`` and ``render --at-marker`` read.

The session is :func:`tests.integration.recorders_scenario.record_both`'s: a notification, a
takeover, a resize to the controller's view, an answer and an exit.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from observer.asciicast import CastReader
from observer.asciicast.markers import kind_of
from tests.integration.recorders_scenario import record_both

pytestmark = pytest.mark.timeout(90)


def observer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "observer", *args], capture_output=True, text=True, timeout=60
    )


async def test_a_takeover_is_exported_and_rendered_from_both_recorders(tmp_path: Path) -> None:
    headless, app_side = await record_both(tmp_path)
    headless_markers, app_markers = markers(headless), markers(app_side)
    assert [kind for kind, _ in headless_markers] == [kind for kind, _ in app_markers]
    assert ("notification", "notification: needs you") in headless_markers
    assert ("notification", "notification: needs you") in app_markers
    assert resizes(headless) == resizes(app_side) == ["72x12"]
    # Both connect with one unlabelled token: the markers name it "token" and six hex digits of its digest.
    for cast in (headless, app_side):
        exported = observer("export", str(cast))
        assert exported.returncode == 0, exported.stderr
        assert "1 takeover(s)" in exported.stdout, (cast.name, exported.stdout)
        rendered = observer("render", str(cast), "--at-marker", "takeover", "--format", "text")
        assert rendered.returncode == 0, rendered.stderr
        assert "Proceed?" in rendered.stdout
        exported_markers = observer("export", str(cast)).stdout
        assert "takeover start: token " in exported_markers
    assert "typed: y⏎" in observer("export", str(app_side)).stdout


def events(path: Path) -> list[tuple[str, str]]:
    with path.open(encoding="utf-8") as stream:
        return [(event.code, event.data) for event in CastReader(stream)]


def markers(path: Path) -> list[tuple[str, str]]:
    """Each marker's kind and label, in order."""
    found = [data for code, data in events(path) if code == "m"]
    return [(getattr(kind_of(label), "value", ""), label) for label in found]


def resizes(path: Path) -> list[str]:
    return [data for code, data in events(path) if code == "r"]
