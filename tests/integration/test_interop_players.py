"""Our recordings in other people's tools: asciinema 2.4 (``cat``, ``play``), termtosvg and
asciinema-player 3.18 in headless Chromium.

Both recorders' files of one session (:func:`tests.integration.recorders_scenario.record_both`:
a notification, a takeover, a resize and an exit), in the default format, are played by the real
tools as a user runs them. Each test skips, saying why, where its tool is not installed
(asciinema 2.4 comes with the dev extras; ``.ci/run`` installs termtosvg; the web player needs
Chromium and the player's npm bundle, named by ``OBSERVER_ASCIINEMA_PLAYER``).
"""

from __future__ import annotations

import asyncio
import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from observer.asciicast import CastReader
from observer.asciicast.markers import MarkerKind, kind_of
from observer.recording.recorder import Recorder
from tests.integration.headless_chromium import (
    chromium_or_skip,
    dump_dom,
    player_bundle_or_skip,
    player_page,
)
from tests.integration.recorders_scenario import record_both

pytestmark = [pytest.mark.interop, pytest.mark.timeout(120)]


def tool(name: str, install: str) -> str:
    """The tool's path (beside this interpreter first), or skip saying how to install it."""
    found = Path(sys.executable).with_name(name)
    path = str(found) if found.exists() else shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed here ({install})")
    return path


@pytest.fixture(scope="module")
def recordings(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The headless recording and the app's, of the same session."""
    return asyncio.run(record_both(tmp_path_factory.mktemp("recordings")))


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
    )


def test_asciinema_2_cats_both_recordings(recordings: tuple[Path, Path]) -> None:
    asciinema = tool("asciinema", "pip install asciinema==2.4.0, as the dev extras do")
    assert run(asciinema, "--version").stdout.startswith("asciinema 2.")
    for cast in recordings:
        shown = run(asciinema, "cat", str(cast))
        assert shown.returncode == 0, (cast.name, shown.stderr)
        assert "Proceed? [y/N]" in shown.stdout and "answered y" in shown.stdout


def test_asciinema_2_plays_every_marker_after_the_first_screen(
    recordings: tuple[Path, Path],
) -> None:
    """What ``asciinema play`` plays, as events: ``-m`` pauses at each marker with the screen
    before it shown, so ``connect`` comes after the first output and the last marker before the
    last event."""
    asciinema = tool("asciinema", "pip install asciinema==2.4.0, as the dev extras do")
    for cast in recordings:
        played = run(asciinema, "play", "--out-fmt", "asciicast", "-s", "20", str(cast))
        assert played.returncode == 0, (cast.name, played.stderr)
        events = [json.loads(line) for line in played.stdout.splitlines()[1:]]
        labels = [data for _, code, data in events if code == "m"]
        kinds = [kind_of(label) for label in labels]
        for kind in (MarkerKind.CONNECT, MarkerKind.NOTIFICATION, MarkerKind.TAKEOVER_END):
            assert kind in kinds, (cast.name, labels)
        assert MarkerKind.TAKEOVER_START in kinds, (cast.name, labels)
        assert events[0][1] == "o", "the first screen comes before connect"
        last_marker = max(time for time, code, _ in events if code == "m")
        assert events[-1][1] != "m" and events[-1][0] > last_marker, (cast.name, events[-3:])


def test_termtosvg_renders_both_recordings(recordings: tuple[Path, Path], tmp_path: Path) -> None:
    termtosvg = tool("termtosvg", "pip install termtosvg; .ci/run does where it installs")
    for cast in recordings:
        image = tmp_path / f"{cast.stem}.svg"
        rendered = run(termtosvg, "render", str(cast), str(image))
        assert rendered.returncode == 0, (cast.name, rendered.stderr)
        svg = image.read_text()
        assert svg.startswith("<svg") and "answered" in svg, cast.name


MARKER_TOOLTIP = re.compile(
    r'<span class="ap-marker[^"]*"></span><span class="ap-tooltip">([^<]*)<'
)


def player_markers(cast: Path, chromium: str, bundle: Path, folder: Path) -> list[str]:
    """The marker labels asciinema-player's progress bar shows for ``cast`` (tooltips read
    ``MM:SS - label``), from the DOM headless Chromium renders."""
    page = folder / f"{cast.stem}.html"
    options = {"preload": True, "controls": True}
    page.write_text(player_page(bundle, {"data": cast.read_text()}, options))
    dom = dump_dom(chromium, page)
    return [html.unescape(text).partition(" - ")[2] for text in MARKER_TOOLTIP.findall(dom)]


def test_asciinema_player_in_headless_chromium_shows_every_marker(
    recordings: tuple[Path, Path], tmp_path: Path
) -> None:
    """The web player lists only markers before a recording's last event; a recording that
    ends on a marker (a session quit right after handing the keyboard back) shows it too."""
    chromium = chromium_or_skip()
    bundle = player_bundle_or_skip()
    ends_on_marker = tmp_path / "ends-on-marker.cast"
    with Recorder(ends_on_marker, cols=40, rows=5) as recorder:
        recorder.output(b"$ ")
        recorder.marker("takeover end")
    for cast in (*recordings, ends_on_marker):
        with cast.open(encoding="utf-8") as stream:
            written = [event.data for event in CastReader(stream) if event.code == "m"]
        assert player_markers(cast, chromium, bundle, tmp_path) == written, cast.name
