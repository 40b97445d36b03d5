"""Bidirectional controls from the agent never reach the host terminal or an image.

U+202A–202E, U+2066–2069, U+200E/200F and U+061C make a line display in another order than it
reads (CVE-2021-42574, "trojan source"): a comment can seem to end a line of code it is in, and
the reviewer reads another program than the one that runs. The agent can put them in its output
(the terminal model joins them to a cell), in its window title, and in the recording's title and
marker labels. Each path that shows them — the watch view, the replay view, ``render`` as text,
ANSI and SVG, ``export`` — must show a visible placeholder instead and pass none through.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from observer.app.app import ObserverApp
from observer.asciicast import markers
from observer.asciicast.markers import MarkerKind
from observer.protocol.events import OutputReceived, TitleChanged
from observer.recording.recorder import Recorder
from observer.terminal.sanitize import PLACEHOLDER
from tests.app.conftest import greeting
from tests.hostile.live import CapturingDriver, host_output, until
from tests.hostile.running import capturing_replay, indexed, observer_stdout

pytestmark = pytest.mark.timeout(120)

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
FOUND = re.compile(f"[{BIDI}]")
TROJAN = "x if admin\u202e \u2066// check later\u2069 \u2066{\u2069 \u200fend\u061c."
"""Agent output with every bidi control, each after a visible character (so it joins a cell)."""


@pytest.fixture(scope="module")
def cast(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bidi") / "bidi.cast"
    ticks = iter(range(10**6))
    with Recorder(
        path, cols=60, rows=5, title=f"title\u202e{BIDI}", clock=lambda: next(ticks) / 10
    ) as rec:
        rec.output(f"\x1b]2;window\u202etitle\x07{TROJAN}\r\n".encode())
        rec.output(f"{BIDI}a{BIDI}b\r\n".encode())
        rec.marker(markers.label(MarkerKind.MARK, f"look\u202e{BIDI}here"))
        rec.output(b"after the mark\r\n")
    return path


@pytest.mark.parametrize("format", ["text", "ansi", "svg"])
def test_render_shows_placeholders_for_bidi_controls(cast: Path, format: str) -> None:
    out = observer_stdout("render", str(cast), "--format", format)
    assert FOUND.findall(out) == []
    assert PLACEHOLDER in out
    assert "check late" in out.replace("&#160;", " ")


def test_render_text_keeps_each_row_its_width(cast: Path) -> None:
    rows = observer_stdout("render", str(cast), "--format", "text").splitlines()
    # The model joined each control to the cell before it: that cell shows the placeholder.
    p = PLACEHOLDER
    assert rows[:2] == [f"x if admi{p}{p}// check late{p}{p}{p}{p}en{p}.", f"{p}b"]


def test_export_shows_placeholders_in_screens_labels_and_title(cast: Path) -> None:
    out = observer_stdout("export", str(cast))
    assert FOUND.findall(out) == []
    assert "look" in out and "after the mark" in out and PLACEHOLDER in out


async def test_the_watch_view_writes_no_bidi_control_to_the_host() -> None:
    from observer.app.links import ScriptedLink
    from observer.client.watched import WatchedSession
    from tests.hostile.live import screen_text

    steps = [
        *greeting("agent", 60, 8),
        (0.0, TitleChanged(f"title\u202e{BIDI}")),
        (0.0, OutputReceived(f"{TROJAN}\r\nEND-OF-BIDI\r\n".encode(), 0)),
    ]
    CapturingDriver.written = []
    app = ObserverApp([ScriptedLink(WatchedSession(), steps, label="bidi")])
    app.driver_class = CapturingDriver
    async with app.run_test(size=(80, 16), headless=False) as pilot:
        await until(lambda: "END-OF-BIDI" in screen_text(app), "the output on the view")
        await pilot.resize_terminal(81, 16)  # a full repaint, title and status included
        await until(lambda: "END-OF-BIDI" in host_output(), "the output on the host")
    out = host_output()
    assert FOUND.findall(out) == []
    assert PLACEHOLDER in out


async def test_the_replay_view_writes_no_bidi_control_to_the_host(cast: Path) -> None:
    app = capturing_replay(cast)
    async with app.run_test(size=(80, 16), headless=False) as pilot:
        await indexed(pilot)
        await pilot.press("right_square_bracket")  # to the mark: its label is in the status line
        await pilot.resize_terminal(81, 16)
        await until(lambda: "look" in host_output() and "late" in host_output(), "the mark")
    out = host_output()
    assert FOUND.findall(out) == []
    assert PLACEHOLDER in out
