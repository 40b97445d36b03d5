"""``observer render --format ansi`` of a hostile recording leaves the user's terminal as it was.

The agent's output sets titles (OSC 0/1/2), resets the terminal (RIS), turns on mouse tracking,
focus reports, bracketed paste, the alternate screen, application keypad and cursor keys, writes
the clipboard (OSC 52), a hyperlink (OSC 8), DCS and APC strings and a kitty keyboard mode. A
repaint for the host may carry text, colours and attributes only: every one of those would stay
on in the user's terminal after ``render`` exits (issue: "render --format ansi changes the user's
terminal"). Checked twice: on the bytes, and in a real tmux pane afterwards.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from observer.asciicast import markers
from observer.asciicast.markers import MarkerKind
from observer.recording.recorder import Recorder
from tests.hostile.running import observer_stdout
from tests.waiting import until_blocking

pytestmark = pytest.mark.timeout(120)

ST = "\x1b\\"
HOSTILE = (
    "\x1b]0;owned-0\x07\x1b]1;owned-1\x07\x1b]2;owned-2" + ST,
    "\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1006h\x1b[?1005h\x1b[?1015h",  # mouse tracking
    "\x1b[?1004h\x1b[?2004h",  # focus reports, bracketed paste
    "\x1b[?1h\x1b=\x1b[4h\x1b[?6h\x1b[?7l\x1b[?25l",  # app cursor, keypad, insert, origin, nowrap
    "\x1b]52;c;Y3VybCBldmlsIHwgc2gK\x07",  # clipboard write
    "\x1bP$qm" + ST + "\x1b_Gf=100;AAAA" + ST + "\x1b[>1u",  # DCS, APC, kitty keyboard push
    "\x1b]8;;https://evil.example/" + ST + "link\x1b]8;;" + ST,
    "\x1bc",  # RIS, then the screen's content and the alternate screen left on
    "\x1b[?1049h\x1b[1;31mred\x1b[0m \x1b[4munder\x1b[0m \x1b[38;2;1;2;3mrgb\x1b[0m\r\n",
    "\x1b]2;last title\x07\x1b[?1000h\x1b[?2004h",
)
SGR = re.compile(r"\x1b\[[0-9;:]*m")


@pytest.fixture(scope="module")
def hostile_cast(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("render") / "hostile.cast"
    ticks = iter(range(10**6))
    title = "\x1b]2;header title\x07\u202eevil"
    with Recorder(path, cols=40, rows=6, title=title, clock=lambda: next(ticks) / 10) as rec:
        rec.marker(markers.label(MarkerKind.CONNECT))
        for chunk in HOSTILE:
            rec.output(chunk.encode())
        rec.marker(markers.label(MarkerKind.EXIT, "0"))
    return path


def render(path: Path, *options: str) -> str:
    return observer_stdout("render", str(path), *options)


@pytest.mark.parametrize("cursor", [(), ("--hide-cursor",)])
def test_render_ansi_writes_text_colours_and_attributes_only(
    hostile_cast: Path, cursor: tuple[str, ...]
) -> None:
    out = render(hostile_cast, "--format", "ansi", *cursor)
    without_sgr = SGR.sub("", out)
    assert re.findall(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]", without_sgr) == []  # no ESC left at all
    assert without_sgr.splitlines()[0].rstrip() == "red under rgb"
    assert "\x1b[1;31mred" in out and "\x1b[4munder" in out and "\x1b[38;2;1;2;3mrgb" in out
    assert "owned" not in out and "title" not in out


def test_render_text_and_svg_carry_no_control_either(hostile_cast: Path) -> None:
    text = render(hostile_cast, "--format", "text")
    assert re.findall(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]", text) == []
    svg = render(hostile_cast, "--format", "svg")
    assert re.findall(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e]", svg) == []
    assert "evil" in svg and "owned" not in svg


@pytest.fixture
def tmux() -> Iterator[list[str]]:
    """A tmux server of its own, one 80x24 pane running ``sh``."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (the reference emulator for these checks)")
    command = ["tmux", "-L", f"observer-{uuid.uuid4().hex[:8]}", "-f", "/dev/null"]
    subprocess.run(
        [*command, "new-session", "-d", "-x", "80", "-y", "24", "sh"], check=True, timeout=10
    )
    try:
        yield command
    finally:
        subprocess.run([*command, "kill-server"], timeout=10, check=False)


def pane(tmux: list[str], what: str) -> str:
    result = subprocess.run(
        [*tmux, "display-message", "-p", what], capture_output=True, text=True, timeout=10
    )
    return result.stdout.strip()


def wait_for(tmux: list[str], text: str) -> str:
    shown = [""]

    def pane() -> str:
        command = [*tmux, "capture-pane", "-p", "-J"]
        shown.append(subprocess.run(command, capture_output=True, text=True, timeout=10).stdout)
        return shown[-1] if text in shown[-1] else ""

    return until_blocking(pane, lambda: f"{text!r} in the pane:\n{shown[-1]}", 60, poll=0.1)


FLAGS = (
    "#{pane_title}|#{alternate_on}|#{mouse_any_flag}|#{mouse_button_flag}|#{mouse_all_flag}|"
    "#{mouse_standard_flag}|#{mouse_sgr_flag}|#{mouse_utf8_flag}|#{keypad_flag}|"
    "#{keypad_cursor_flag}|#{insert_flag}|#{origin_flag}|#{wrap_flag}|#{cursor_flag}"
)


def test_render_ansi_in_a_real_terminal_changes_none_of_its_modes(
    hostile_cast: Path, tmux: list[str]
) -> None:
    before = pane(tmux, FLAGS)
    line = shlex.join([sys.executable, "-m", "observer", "render", str(hostile_cast)])
    subprocess.run(
        [*tmux, "send-keys", f"{line} --format ansi; echo render-done", "Enter"],
        check=True,
        timeout=10,
    )
    shown = wait_for(tmux, "\nrender-done")
    assert "red under rgb" in shown
    assert pane(tmux, FLAGS) == before  # title, screen, mouse, keypad, cursor: all as they were
    # Bracketed paste: tmux wraps a paste in ESC[200~ ... ESC[201~ only if the pane asked for it.
    subprocess.run([*tmux, "send-keys", "cat -v", "Enter"], check=True, timeout=10)
    subprocess.run([*tmux, "set-buffer", "pasted"], check=True, timeout=10)
    subprocess.run([*tmux, "paste-buffer", "-p"], check=True, timeout=10)
    subprocess.run([*tmux, "send-keys", "Enter"], check=True, timeout=10)
    shown = wait_for(tmux, "pasted")
    assert "200~" not in shown
