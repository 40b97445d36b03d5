"""Hostile agent output through the replay path: a recording → ``observer render`` and the model,
and the same events played into the app's view.

The recording holds every payload of :mod:`tests.hostile.payloads`, a hostile title in its header
and 10,000 resize events. ``observer render`` runs as a real subprocess.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from observer.app.app import ObserverApp
from observer.app.links import ConnectionChanged, ScriptedLink, Step
from observer.client.watched import WatchedSession
from observer.protocol.events import OutputReceived, Resized, SessionStarted
from observer.recording.castfiles import open_cast
from observer.recording.recorder import Recorder
from observer.terminal import TerminalModel
from tests.app.conftest import scripted
from tests.hostile import payloads
from tests.hostile.live import CapturingDriver, host_output, screen_text, until

# A guard against a hang, not a speed check: replaying 10,000 resizes (each re-wrapping the
# scrollback) took 72-84 s on a busy machine.
pytestmark = pytest.mark.timeout(300)
RESIZES = 10_000
CHUNK = 4096


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hostile") / "hostile.cast"
    ticks = iter(range(10**6))
    with Recorder(
        path, cols=80, rows=24, title=payloads.TITLE, clock=lambda: next(ticks) / 1000
    ) as recorder:
        data = payloads.stream()
        for start in range(0, len(data) // 2, CHUNK):
            recorder.output(data[start : start + CHUNK])
        for i in range(RESIZES):
            recorder.resize(2 + i % 400, 1 + i % 150)
        recorder.resize(80, 24)
        for start in range(len(data) // 2 // CHUNK * CHUNK, len(data), CHUNK):
            recorder.output(data[start : start + CHUNK])
    return path


def render(path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "observer", "render", str(path), *options],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="surrogateescape",
        timeout=100,
    )


def test_the_checker_finds_what_it_looks_for() -> None:
    assert payloads.foreign_output("ok\x1b[31mred\x1b[0m\x1b]22;default\x07") == []
    assert payloads.foreign_output("\x1b[?1049h\x1b[>1u\x1b[3;7H\x1b[2K\x1b[38:5:1m\x1b[<u") == []
    hostile_sequences = (
        "\x1b]52;c;eA==\x07",  # clipboard write
        "\x1bP$qm\x1b\\",  # DECRQSS
        "\x9b6n",  # C1 CSI
        "\x07",  # bell
        "\x1b_G\x1b\\",  # APC (kitty graphics)
        "\x1b[21t",  # report the window title
        "\x1b[8;5;10t",  # resize the host window
        "\x1b[6n",  # cursor position report
        "\x1b[c",  # primary device attributes
        "\x1b[>c",  # secondary device attributes
        "\x1b[?u",  # kitty keyboard flags query
        "\x1b]2;title\x07",  # window title
    )
    for hostile in hostile_sequences:
        assert payloads.foreign_output("ok" + hostile) != [], repr(hostile)


def test_rendering_as_text_prints_the_screen_and_no_control_at_all(recording: Path) -> None:
    result = render(recording, "--format", "text")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] == [payloads.MARKUP.decode(), payloads.END.decode()]
    assert re.findall(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]", result.stdout) == []


def test_rendering_as_svg_keeps_markup_as_escaped_text(recording: Path) -> None:
    result = render(recording, "--format", "svg")
    assert result.returncode == 0, result.stderr
    svg = result.stdout
    assert (
        "<script" not in svg
        and "javascript:" not in svg
        and "file:///" not in svg.split("[link=")[0]
    )
    assert "[@click=app.quit]quit[/]" in svg.replace("&#160;", " ")
    assert re.findall(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e]", svg) == []


def test_raw_hostile_bytes_render_like_a_recording(tmp_path: Path) -> None:
    raw = tmp_path / "hostile.bin"
    raw.write_bytes(payloads.stream())
    result = render(raw, "--size", "80x24")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:2] == [payloads.MARKUP.decode(), payloads.END.decode()]


def test_the_model_replays_the_recording_with_every_resize(recording: Path) -> None:
    model = TerminalModel(80, 24)
    sizes = 0
    with open_cast(recording) as reader:
        for event in reader:
            if event.code == "o":
                model.feed(event.data.encode())
            elif event.code == "r":
                cols, rows = (int(n) for n in event.data.split("x"))
                model.resize(cols, rows)
                sizes += 1
    assert sizes == RESIZES + 1
    assert (model.cols, model.rows) == (80, 24)
    assert model.text()[:2] == [payloads.MARKUP.decode(), payloads.END.decode()]
    assert model.take_replies()  # the queries were seen; only a server ever sends these
    assert model.title == "[b]boss[/b] [@click=app.quit]q[/] \ufffd31m\ufffdevil"


def recorded_steps(recording: Path) -> list[tuple[float, Step]]:
    steps: list[tuple[float, Step]] = [
        (0.0, ConnectionChanged("connected")),
        (0.0, SessionStarted("replay", "watch", 80, 24, 0, "none", 1, "")),
    ]
    offset = 0
    with open_cast(recording) as reader:
        for event in reader:
            if event.code == "o":
                data = event.data.encode()
                steps.append((0.0, OutputReceived(data, offset)))
                offset += len(data)
            elif event.code == "r":
                cols, rows = (int(n) for n in event.data.split("x"))
                steps.append((0.0, Resized(cols, rows)))
    return steps


async def test_the_view_plays_the_recording_and_writes_nothing_foreign(recording: Path) -> None:
    """The recording's events go through the app as a session source would deliver them
    (its view is the same ``TerminalView`` the ``replay`` command shows)."""
    source = ScriptedLink(WatchedSession(), recorded_steps(recording), label="hostile.cast")
    CapturingDriver.written = []
    app = ObserverApp([source])
    app.driver_class = CapturingDriver
    async with app.run_test(size=(100, 30), headless=False) as pilot:
        await until(lambda: payloads.END.decode() in screen_text(app), "the end of the recording")
        assert payloads.MARKUP.decode() in screen_text(app)
        await pilot.press("ctrl+t")  # still answers keys after the storm
        await pilot.press("n")
        assert app.is_running and app.return_code is None
    out = host_output()
    assert payloads.END.decode() in out
    assert payloads.foreign_output(out) == []
    assert source.sent == []


async def test_the_dashboard_shows_hostile_sessions_as_text_only() -> None:
    data = payloads.stream()
    chunks = [data[i : i + CHUNK] for i in range(0, len(data), CHUNK)]
    sources = [scripted(chunks, identifier=f"agent-{n}", cols=80, rows=24) for n in (1, 2)]
    CapturingDriver.written = []
    app = ObserverApp(sources)
    app.driver_class = CapturingDriver
    async with app.run_test(size=(120, 30), headless=False) as pilot:
        await until(
            lambda: all(
                payloads.END.decode() in "".join(s.model.text())
                for s in (link.session for link in app.links)
            ),
            "both sessions at the end of the payload",
        )
        await pilot.resize_terminal(121, 30)  # a full repaint (see docs/proof.md, findings)
        await until(lambda: payloads.END.decode() in host_output(), "the tiles on the host")
        assert app.is_running and app.return_code is None
    assert payloads.foreign_output(host_output()) == []
    assert all(source.sent == [] for source in sources)


@pytest.mark.timeout(240)  # the keyframe index over 10,000 resizes takes ~20 s on a busy machine
async def test_observer_replay_plays_the_hostile_recording_as_text_only(recording: Path) -> None:
    """``observer replay``'s own screen (keyframes, seeking) over the hostile recording."""
    from tests.hostile.running import capturing_replay, indexed

    app = capturing_replay(recording)
    async with app.run_test(size=(100, 32), headless=False) as pilot:
        replay = await indexed(pilot, timeout=180)
        await pilot.press("shift+right", "shift+right")  # past the end: the last screen
        text = replay.player.model.text()
        assert text[:2] == [payloads.MARKUP.decode(), payloads.END.decode()]
        await pilot.press("shift+left", "right", "left", "shift+right")  # seeking through it all
        await pilot.resize_terminal(101, 32)
        await until(lambda: payloads.END.decode() in host_output(), "the last screen on the host")
        assert app.is_running and app.return_code is None
    assert payloads.foreign_output(host_output()) == []
