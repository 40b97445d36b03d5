"""``observer render``: the screen of a recording at a moment, as text, ANSI or SVG, and clear errors."""

from __future__ import annotations

import json
import os
import pty
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from observer.cli import main

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "observer" / "data" / "demo.cast"
ASCIINEMA = Path(sys.executable).with_name("asciinema")

V2_HEADER = {"version": 2, "width": 20, "height": 4}


def write_v2(path: Path, events: list[list[object]], header: dict[str, object] = V2_HEADER) -> Path:
    path.write_text("\n".join(json.dumps(x) for x in [header, *events]) + "\n")
    return path


def render(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["render", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def screen(rows: list[str], height: int) -> str:
    return "".join(f"{row}\n" for row in rows + [""] * (height - len(rows)))


COUNTING = [
    [0.5, "o", "one\r\n"],
    [1.0, "m", "first"],
    [1.5, "o", "two\r\n"],
    [2.0, "m", "second"],
    [2.5, "o", "\x1b[31mthree\x1b[0m"],
]


def test_text_is_exactly_the_screen_rows_with_trailing_blanks_trimmed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cast = write_v2(tmp_path / "c.cast", COUNTING)
    assert render(capsys, str(cast)) == (0, screen(["one", "two", "three"], 4), "")


@pytest.mark.parametrize(
    ("at", "rows"),
    [
        ("0", []),
        ("0.5", ["one"]),
        ("1.49", ["one"]),
        ("0:01.5", ["one", "two"]),
        ("99", ["one", "two", "three"]),
    ],
)
def test_at_renders_every_event_up_to_that_moment_and_beyond_the_end_the_last_screen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], at: str, rows: list[str]
) -> None:
    cast = write_v2(tmp_path / "c.cast", COUNTING)
    assert render(capsys, str(cast), "--at", at) == (0, screen(rows, 4), "")


def test_at_marker_stops_at_the_first_marker_with_that_label(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cast = write_v2(tmp_path / "c.cast", COUNTING)
    assert render(capsys, str(cast), "--at-marker", "second") == (0, screen(["one", "two"], 4), "")


def test_an_unknown_marker_is_an_error_listing_the_markers_there_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cast = write_v2(tmp_path / "c.cast", COUNTING)
    status, out, err = render(capsys, str(cast), "--at-marker", "third")
    assert (status, out) == (1, "")
    assert err == f"observer: {cast} has no marker 'third' — its markers are 'first', 'second'\n"


def test_resize_events_are_applied(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cast = write_v2(
        tmp_path / "c.cast",
        [[0.1, "o", "abcdefghij"], [0.2, "r", "5x2"], [0.3, "o", "\r\nxy"]],
    )
    status, out, _ = render(capsys, str(cast))
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 2
    assert all(len(line) <= 5 for line in lines)
    assert lines[-1] == "xy"


def test_v1_and_v3_recordings_render_like_v2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    v1 = tmp_path / "v1.json"
    v1.write_text(
        json.dumps(
            {
                "version": 1,
                "width": 20,
                "height": 4,
                "stdout": [[0.5, "one\r\n"], [1.0, "two\r\n"], [1.0, "\x1b[31mthree\x1b[0m"]],
            },
            indent=2,
        )
    )
    v3 = tmp_path / "v3.cast"
    v3.write_text(
        '{"version": 3, "term": {"cols": 20, "rows": 4}}\n# a comment\n'
        '[0.5, "o", "one\\r\\n"]\n[1.0, "m", "first"]\n[0.5, "o", "two\\r\\n"]\n[1.0, "o", "three"]\n'
    )
    expected = screen(["one", "two", "three"], 4)
    assert render(capsys, str(v1)) == (0, expected, "")
    assert render(capsys, str(v3)) == (0, expected, "")
    assert render(capsys, str(v3), "--at", "1.5") == (0, screen(["one"], 4), "")


def test_size_overrides_the_recorded_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cast = write_v2(tmp_path / "c.cast", COUNTING)
    status, out, _ = render(capsys, str(cast), "--size", "10x2")
    assert (status, out) == (0, screen(["two", "three"], 2))


def test_ansi_shows_the_same_screen_when_printed_into_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from observer.terminal import TerminalModel

    cast = write_v2(tmp_path / "c.cast", COUNTING)
    status, out, _ = render(capsys, str(cast), "--format", "ansi", "--hide-cursor")
    assert status == 0
    # One line per row, as a terminal's tty shows it (its ONLCR turns \n into \r\n); one row
    # more than the screen, for the last line's newline.
    fresh = TerminalModel(cols=20, rows=5)
    fresh.feed(out.replace("\n", "\r\n").encode())
    assert fresh.text() == ["one", "two", "three", "", ""]
    assert fresh.line(2)[0].fg == "red"
    assert out.count("\n") == 4


def test_svg_is_an_image_of_the_screen_with_its_colours(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cast = write_v2(tmp_path / "c.cast", COUNTING, dict(V2_HEADER, title="<b>run</b>"))
    status, out, _ = render(capsys, str(cast), "--format", "svg")
    assert status == 0
    root = ET.fromstring(out)
    assert root.tag.endswith("svg")
    texts = "".join(root.itertext()).replace("\xa0", " ")
    assert "three" in texts
    assert "<b>run</b>" in texts  # the title is text, escaped, not markup
    assert "#cc555a" in out  # Rich's SVG theme red, used for "three"


def test_the_bundled_demo_renders_at_each_marker(capsys: pytest.CaptureFixture[str]) -> None:
    status, failed, _ = render(capsys, str(DEMO), "--at-marker", "tests failed")
    assert status == 0
    assert "1 failed, 1 passed" in failed
    assert "Fixing" not in failed
    _, fixed, _ = render(capsys, str(DEMO), "--at-marker", "fix applied")
    assert "+    return a + b" in fixed
    _, end, _ = render(capsys, str(DEMO))
    rows = end.splitlines()
    assert len(rows) == 24
    assert rows[-2:] == ["● Done: 2 tests pass.", ""]  # the final newline scrolled one row


def test_raw_terminal_bytes_need_a_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = tmp_path / "out.bin"
    raw.write_bytes(b"\x1b[2J\x1b[Hhello\r\n\x1b[1;32mworld\x1b[0m")
    status, out, err = render(capsys, str(raw))
    assert (status, out) == (1, "")
    assert err.startswith(f"observer: {raw} is not an asciicast recording")
    assert "--size COLSxROWS" in err
    assert render(capsys, str(raw), "--size", "12x3") == (0, screen(["hello", "world"], 3), "")


@pytest.mark.parametrize(
    ("content", "argv", "message"),
    [
        (None, [], "does not exist — check the file name"),
        (
            '{"version": 2, "width": 8, "height": 2}\n[1, "o", "a"]\n[oops\n',
            [],
            ", line 3: not valid JSON",
        ),
        (
            '{"version": 9, "width": 8, "height": 2}\n',
            [],
            "line 1: unsupported asciicast version 9",
        ),
        ('{"version": 2, "width": 0, "height": 2}\n', [], "line 1: absurd terminal size"),
        ('{"version": 2, "width": 8, "height": 2}\n', ["--at", "-1"], "is not a moment"),
        (
            '{"version": 2, "width": 8, "height": 2}\n',
            ["--size", "big"],
            "--size 'big' is not COLSxROWS — write it like 120x40",
        ),
        ('{"version": 2, "width": 8, "height": 2}\n', ["--at-marker", "x"], "has no markers"),
        ("plain text\n", ["--size", "8x2", "--at", "1"], "raw terminal bytes, which have no times"),
    ],
)
def test_user_errors_are_one_line_and_a_failing_status(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: str | None,
    argv: list[str],
    message: str,
) -> None:
    path = tmp_path / "c.cast"
    if content is not None:
        path.write_text(content)
    status, out, err = render(capsys, str(path), *argv)
    assert (status, out) == (1, "")
    assert err.startswith("observer: ") and err.count("\n") == 1
    assert message in err
    assert " — " in err


def test_a_recording_cut_off_by_a_kill_renders_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cast = tmp_path / "c.cast"
    cast.write_text('{"version": 2, "width": 8, "height": 2}\n[1, "o", "kept"]\n[2, "o", "lo')
    status, out, err = render(capsys, str(cast))
    assert (status, out) == (0, screen(["kept"], 2))
    assert "the last line" in err and "cut off" in err


def test_lenient_skips_damaged_lines_and_says_how_many(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cast = tmp_path / "c.cast"
    cast.write_text(
        '{"version": 2, "width": 8, "height": 2}\n[1, "o", "a"]\n[oops\n[2, "o", "b"]\n'
    )
    status, out, err = render(capsys, str(cast), "--lenient")
    assert (status, out) == (0, screen(["ab"], 2))
    assert "skipped 1 damaged line(s)" in err and "line 3" in err


def test_the_real_command_prints_no_traceback(tmp_path: Path) -> None:
    cast = tmp_path / "c.cast"
    cast.write_text('{"version": 2, "width": 8, "height": 2}\n[1, "o", "a"]\n[oops\n')
    result = subprocess.run(
        [sys.executable, "-m", "observer", "render", str(cast)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stdout == ""
    assert (
        result.stderr
        == f"observer: {cast}, line 3: not valid JSON (Expecting value) — the file is damaged\n"
    )


def asciinema_rec(path: Path, command: str, cols: int, rows: int) -> None:
    """Record ``command`` with the real ``asciinema rec`` inside a real PTY of the given size."""
    import fcntl
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    proc = subprocess.Popen(
        [str(ASCIINEMA), "rec", "-q", "--overwrite", "-c", command, str(path)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=dict(os.environ, TERM="xterm-256color"),
        # asciinema writes to /dev/tty and reads its size: make the PTY the controlling terminal.
        start_new_session=True,
        preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),
    )
    os.close(slave)
    while True:
        try:
            if not os.read(master, 65536):
                break
        except OSError:
            break
    assert proc.wait(timeout=60) == 0
    os.close(master)


def test_a_recording_made_by_asciinema_rec_renders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cast = tmp_path / "rec.cast"
    command = (
        "printf '\\033[2J\\033[Htop line\\n\\033[1;31mred\\033[0m and plain\\n'; "
        "printf 'overwritten\\rOVER\\n'; printf '\\033[5;10Hat 5,10'"
    )
    asciinema_rec(cast, command, cols=30, rows=6)
    header = json.loads(cast.read_text().splitlines()[0])
    assert (header["width"], header["height"]) == (30, 6)
    status, out, _ = render(capsys, str(cast))
    assert status == 0
    assert out == screen(["top line", "red and plain", "OVERwritten", "", "         at 5,10"], 6)
    status, svg, _ = render(capsys, str(cast), "--format", "svg")
    assert status == 0
    assert "OVERwritten" in "".join(ET.fromstring(svg).itertext())


def test_output_survives_a_non_utf8_locale(tmp_path: Path) -> None:
    cast = write_v2(tmp_path / "c.cast", [[0.1, "o", "box ┌─┐ é ✓"]])
    result = subprocess.run(
        [sys.executable, "-m", "observer", "render", str(cast)],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
        env=dict(os.environ, PYTHONIOENCODING="ascii", LC_ALL="C"),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode("utf-8").splitlines()[0] == "box ┌─┐ é ✓"


def test_raw_forces_raw_bytes_even_when_they_start_like_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = tmp_path / "out.bin"
    raw.write_bytes(b'{"not": "a header"}\r\nplain')
    status, _, err = render(capsys, str(raw), "--size", "20x2")
    assert status == 1 and "line 1" in err
    assert render(capsys, str(raw), "--raw", "--size", "20x2") == (
        0,
        screen(['{"not": "a header"}', "plain"], 2),
        "",
    )


def test_idle_limit_measures_at_on_the_capped_timeline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cast = write_v2(tmp_path / "c.cast", [[1.0, "o", "one\r\n"], [100.0, "o", "two\r\n"]])
    assert render(capsys, str(cast), "--at", "3")[1] == screen(["one"], 4)
    assert render(capsys, str(cast), "--at", "3", "--idle-limit", "2") == (
        0,
        screen(["one", "two"], 4),
        "",
    )
    status, _, err = render(capsys, str(cast), "--idle-limit", "0")
    assert status == 1 and "--idle-limit 0.0 is not a positive number" in err


@pytest.mark.parametrize(
    ("text", "seconds"), [("12.5", 12.5), ("1:30", 90.0), ("1:02:03.5", 3723.5), ("0", 0.0)]
)
def test_moments_are_seconds_or_clock_times(text: str, seconds: float) -> None:
    from observer.commands.render import parse_moment

    assert parse_moment(text) == seconds


@pytest.mark.parametrize("text", ["", "abc", "-1", "1:-5", "nan", "inf", "1::2"])
def test_nonsense_moments_are_refused(text: str) -> None:
    from observer.commands.render import parse_moment
    from observer.errors import UsageError

    with pytest.raises(UsageError, match="is not a moment"):
        parse_moment(text)


def test_the_marker_list_in_an_error_is_short_and_escapes_control_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = [[0.0, "m", "\x1b[2Jevil"]] + [[i * 0.1, "m", f"m{i}"] for i in range(30)]
    cast = write_v2(tmp_path / "c.cast", events)
    status, _, err = render(capsys, str(cast), "--at-marker", "nope")
    assert status == 1
    assert "its markers are '\\x1b[2Jevil', 'm0', 'm1'," in err
    assert "'m18' and 11 more\n" in err
    assert "\x1b" not in err


def test_a_dash_reads_a_recording_or_raw_bytes_from_stdin(tmp_path: Path) -> None:
    cast = write_v2(tmp_path / "c.cast", COUNTING)
    command = [sys.executable, "-m", "observer", "render", "-"]
    result = subprocess.run(
        command, input=cast.read_bytes(), cwd=ROOT, capture_output=True, timeout=60
    )
    assert (result.returncode, result.stdout) == (0, screen(["one", "two", "three"], 4).encode())
    result = subprocess.run(
        [*command, "--size", "10x2"],
        input=b"raw\r\nbytes",
        cwd=ROOT,
        capture_output=True,
        timeout=60,
    )
    assert (result.returncode, result.stdout) == (0, b"raw\nbytes\n")
    result = subprocess.run(
        command,
        input=b'{"version": 2, "width": 8, "height": 2}\n[x\n',
        cwd=ROOT,
        capture_output=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stderr.decode().startswith("observer: <stdin>, line 2: not valid JSON")
