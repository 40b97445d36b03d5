"""``observer export``: the transcript of the demo, of a recording with takeovers, of damage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from observer.asciicast import markers
from observer.asciicast.markers import MarkerKind, label
from observer.cli import main
from observer.client.recording_policy import RecordingPolicy
from observer.recording.recorder import Recorder

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "observer" / "data" / "demo.cast"


def export(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["export", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_demo_transcript_has_the_screen_at_every_marker_and_at_the_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = export(capsys, str(DEMO))
    assert (status, err) == (0, "")
    assert out.startswith("observer transcript of demo.cast — agent: fix calc\n80x24 · 0:09.4")
    headings = [line for line in out.splitlines() if line.startswith("── ")]
    assert [h.split(" ", 2)[2] for h in headings] == [
        "marker 'task' ──",
        "marker 'tests failed' ──",
        "marker 'fix applied' ──",
        "marker 'tests passed' ──",
        "end (exited with status 0) ──",
    ]
    failed = out.split("── 0:03.1 marker 'tests failed' ──\n")[1].split("\n\n")[0]
    assert "│ 1 failed, 1 passed in 0.77s" in failed.splitlines()
    assert "│ FAILED test_calc.py::test_add - assert -1 == 5" in failed.splitlines()
    assert "0 takeover(s)" in out


def test_takeovers_are_listed_with_their_span_and_what_was_typed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    now = [0.0]
    cast = tmp_path / "t.cast"
    with Recorder(cast, cols=30, rows=5, clock=lambda: now[0]) as rec:
        rec.output(b"Proceed? [y/N] ")
        rec.marker("agent waiting")
        now[0] = 4.0
        rec.marker(label(MarkerKind.TAKEOVER_START))
        now[0] = 5.0
        rec.input(b"y\r")
        rec.output(b"y\r\nproceeding\r\n")
        now[0] = 6.5
        rec.marker(label(MarkerKind.TAKEOVER_END))
        now[0] = 9.0
        rec.marker(label(MarkerKind.TAKEOVER_START))
        rec.input(b"\x03")
        rec.exit(130)
    status, out, _ = export(capsys, str(cast))
    assert status == 0
    lines = out.splitlines()
    start = lines.index("takeovers (a person held the keyboard):")
    assert lines[start + 1] == "  0:04.0 – 0:06.5, 2.5 s, typed: y⏎"
    assert lines[start + 2] == "  0:09.0 – 0:09.0 (never handed back), 0.0 s, typed: ^C"
    ended = out.split("marker 'takeover end' ──\n")[1].split("\n\n")[0]
    assert ended.splitlines() == ["│ Proceed? [y/N] y", "│ proceeding"]
    assert "── 0:09.0 end (exited with status 130) ──" in lines


def test_the_transcript_goes_to_a_file_with_o(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_path = tmp_path / "demo.txt"
    assert export(capsys, str(DEMO), "-o", str(out_path)) == (0, "", "")
    assert "marker 'tests passed'" in out_path.read_text(encoding="utf-8")


def test_an_existing_transcript_is_replaced_only_with_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_path = tmp_path / "notes.txt"
    out_path.write_text("mine\n")
    status, out, err = export(capsys, str(DEMO), "-o", str(out_path))
    assert (status, out) == (1, "") and out_path.read_text() == "mine\n"
    assert err == (
        f"observer: {out_path} already exists — add --overwrite to replace it, "
        "or choose another -o/--output file\n"
    )
    assert export(capsys, str(DEMO), "-o", str(out_path), "--overwrite") == (0, "", "")
    assert "marker 'tests passed'" in out_path.read_text(encoding="utf-8")


def test_a_damaged_recording_is_a_one_line_error_or_skipped_with_lenient(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cast = tmp_path / "d.cast"
    lines = [{"version": 2, "width": 10, "height": 2}, [0.5, "o", "ok"], [1.0, "m", "here"]]
    text = "\n".join(json.dumps(x) for x in lines).replace('"ok"]', '"ok"')
    cast.write_text(text + "\n")
    status, out, err = export(capsys, str(cast))
    assert (status, out) == (1, "")
    assert err.startswith("observer: ") and "line 2" in err and err.count("\n") == 1
    assert "--lenient skips damaged lines" in err
    status, out, err = export(capsys, str(cast), "--lenient")
    assert status == 0
    assert "marker 'here'" in out
    assert "skipped 1 damaged line" in err


def test_a_missing_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = export(capsys, str(tmp_path / "none.cast"))
    assert status == 1
    assert err == f"observer: {tmp_path / 'none.cast'} does not exist — check the file name\n"


def record_a_takeover(path: Path) -> Path:
    """A recording as the recorder writes one today: every marker from the one vocabulary."""
    now = [0.0]
    with Recorder(path, cols=30, rows=4, clock=lambda: now[0]) as rec:
        rec.marker(markers.label(MarkerKind.CONNECT))
        rec.output(b"Proceed? [y/N] ")
        now[0] = 2.0
        rec.marker(markers.label(MarkerKind.TAKEOVER_START))
        rec.input(b"y\r")
        rec.output(b"y\r\nproceeding\r\n")
        now[0] = 3.5
        rec.marker(markers.label(MarkerKind.TAKEOVER_END))
        now[0] = 5.0
        rec.output(b"done\r\n")
        rec.marker(markers.label(MarkerKind.EXIT, "0"))
        rec.exit(0)
    return path


def test_a_recording_with_todays_markers_exports_its_takeovers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = export(capsys, str(record_a_takeover(tmp_path / "t.cast")))
    assert status == 0
    assert "30x4 · 0:05.0 · 4 marker(s) · 1 takeover(s)" in out
    assert "  0:02.0 – 0:03.5, 1.5 s, typed: y⏎" in out.splitlines()
    headings = [line.split(" ", 2)[2] for line in out.splitlines() if line.startswith("── ")]
    assert headings == [
        "marker 'connect' ──",
        "marker 'takeover start' ──",
        "marker 'takeover end' ──",
        "marker 'exit: 0' ──",
        "end (exited with status 0) ──",
    ]


def test_render_at_marker_takeover_finds_the_recorders_takeover(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cast = str(record_a_takeover(tmp_path / "t.cast"))
    assert main(["render", cast, "--at-marker", "takeover"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == ["Proceed? [y/N]", ""]
    assert main(["render", cast, "--at-marker", "takeover end"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == ["Proceed? [y/N] y", "proceeding"]


@pytest.mark.parametrize("label", ["takeover started", "Takeover Started"])
def test_older_takeover_labels_are_read_the_same_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], label: str
) -> None:
    cast = tmp_path / "old.cast"
    events = [{"version": 2, "width": 10, "height": 2}, [1.0, "m", label], [2.0, "o", "typed"]]
    cast.write_text("\n".join(json.dumps(x) for x in events) + "\n")
    _, out, _ = export(capsys, str(cast))
    assert "1 takeover(s)" in out and "(never handed back)" in out
    assert main(["render", str(cast), "--at-marker", "takeover"]) == 0
    assert capsys.readouterr().out == "\n\n"


def test_export_format_is_spelled_text_as_in_render_and_txt_still_works_with_a_note(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, text, err = export(capsys, str(DEMO), "--format", "text")
    assert (status, err) == (0, "")
    status, txt, err = export(capsys, str(DEMO), "--format", "txt")
    assert (status, txt) == (0, text)
    assert err == (
        "observer: --format txt is deprecated — use --format text "
        "(the old spelling goes next release)\n"
    )


def test_a_screen_landing_just_after_connect_is_the_screen_at_connect(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Some recordings hold ``connect`` just before the peer's first screen (a snapshot 0.4 ms
    later, with a resize and a title): the transcript opens with that screen, not a blank one."""
    cast = tmp_path / "c.cast"
    lines = [
        {"version": 2, "width": 20, "height": 3, "title": "old title"},
        [0.01, "m", "connect"],
        [0.0104, "r", "30x4"],
        [0.0104, "o", "\x1bc\x1b]2;agent: tests\x07$ make test\r\nok"],
        [3.0, "o", "\r\n\x1b]2;agent: done\x07$ "],
        [4.0, "r", "40x5"],
    ]
    cast.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    status, out, _ = export(capsys, str(cast))
    assert status == 0
    assert out.splitlines()[:2] == [
        "observer transcript of c.cast — agent: tests",
        "30x4, later 40x5 · 0:04.0 · 1 marker(s) · 0 takeover(s)",
    ]
    connect = out.split("── 0:00.0 marker 'connect' ──\n")[1].split("\n\n")[0]
    assert connect.splitlines() == ["│ $ make test", "│ ok"]


def test_a_takeover_whose_keys_were_not_recorded_does_not_say_typed_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    now = [0.0]
    cast = tmp_path / "k.cast"
    with Recorder(cast, cols=30, rows=4, clock=lambda: now[0]) as rec:
        rec.output(b"Proceed? [y/N] ")
        rec.marker(markers.label(MarkerKind.TAKEOVER_START))
        now[0] = 2.0
        rec.output(b"y\r\n")
        rec.marker(markers.label(MarkerKind.TAKEOVER_END))
    _, out, _ = export(capsys, str(cast))
    assert "  0:00.0 – 0:02.0, 2.0 s, keys not recorded" in out.splitlines()
    with Recorder(cast, cols=30, rows=4, clock=lambda: now[0], overwrite=True,
                  input_recorded=True) as rec:  # fmt: skip
        rec.marker(markers.label(MarkerKind.TAKEOVER_START))
        rec.marker(markers.label(MarkerKind.TAKEOVER_END))
        rec.marker(markers.label(MarkerKind.TAKEOVER_START, "another client"))
        rec.marker(markers.label(MarkerKind.TAKEOVER_END))
    _, out, _ = export(capsys, str(cast))
    assert "  0:00.0 – 0:00.0, 0.0 s, typed nothing" in out.splitlines()
    assert "  0:00.0 – 0:00.0, 0.0 s, by another client, keys not recorded" in out.splitlines()


def test_export_names_who_held_the_keyboard_through_a_handover(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Written by the recording policy, read by export: one vocabulary on both sides."""
    now = [0.0]
    cast = tmp_path / "h.cast"
    with Recorder(cast, cols=30, rows=4, clock=lambda: now[0]) as rec:
        policy = RecordingPolicy(lambda cols, rows, title: rec, record_input=True)
        policy.started(30, 4, "", complete=True)
        policy.output(b"Proceed? ", 0)
        now[0] = 1.0
        policy.held("other", "alice", ["bob"])
        now[0] = 3.0
        policy.held("you", "bob", ["alice"])
        policy.input(b"y\r")
        now[0] = 4.0
        policy.held("none")
    status, out, _ = export(capsys, str(cast))
    assert status == 0
    lines = out.splitlines()
    start = lines.index("takeovers (a person held the keyboard):")
    assert lines[start + 1 : start + 3] == [
        "  0:01.0 – 0:03.0, 2.0 s, by alice, keys not recorded",
        "  0:03.0 – 0:04.0, 1.0 s, by bob, typed: y⏎",
    ]
    assert "marker 'handover: alice → bob; watching: alice' ──" in out
