"""A repaint with the unfinished input (``to_ansi(unfinished=True)``): a fresh model fed it and then
the rest of the stream equals the model fed the whole stream, wherever the stream was cut, inside a
CSI, an OSC, a DCS or a UTF-8 character included. Checked on byte literals and by cutting real
captured streams (``tests/fixtures/captures``) at every byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from observer.terminal import TerminalModel

CAPTURES = Path(__file__).resolve().parents[2] / "fixtures" / "captures"


def _seen(m: TerminalModel) -> tuple[object, ...]:
    return (
        [list(m.line(y)) for y in range(m.rows)],
        (m.cursor_x, m.cursor_y, m.cursor_visible, m.title),
        (m.alternate, m.synchronized, m.application_cursor, m.bracketed_paste, m.autowrap),
    )


def _resumed(head: bytes, cols: int, rows: int) -> TerminalModel:
    """A fresh model fed the repaint, with its unfinished input, of a model fed ``head``."""
    source = TerminalModel(cols, rows)
    source.feed(head)
    fresh = TerminalModel(cols, rows)
    fresh.feed(source.to_ansi(unfinished=True).encode("utf-8", "surrogateescape"))
    return fresh


def _bad_cuts(data: bytes, cuts: range | list[int], cols: int, rows: int) -> list[int]:
    whole = TerminalModel(cols, rows)
    whole.feed(data)
    expected = _seen(whole)
    bad = []
    for cut in cuts:
        fresh = _resumed(data[:cut], cols, rows)
        fresh.feed(data[cut:])
        if _seen(fresh) != expected:
            bad.append(cut)
    return bad


@pytest.mark.parametrize(
    "stream",
    [
        b"red: \x1b[31mX\x1b[0m \x1b[38;2;10;20;30mtrue\x1b[39m end",  # CSI
        "\x1b]0;caf\u00e9 \u4e2d\x07after \x1b]2;two\x1b\\x".encode(),  # OSC, BEL and ST
        b"a\x1bP1$r0;1m\x1b\\b\x1b_apc\x1b\\c\x1b^pm\x1b\\d\x1bXsos\x1b\\e",  # DCS, APC, PM, SOS
        "2: \u00e9, 3: \u4e2d, 4: \U0001f680 + \u0301".encode(),  # UTF-8 of every length
        b"ab\x1b[3bZ \x1b[?7l" + b"x" * 25 + b"\x1b[2b",  # REP, also without autowrap
        b"\x1b[" + b"1;" * 600 + b"31mskipped\x1b[32mgreen",  # a CSI too long, skipped
        b"\x1b(0lqk\x1b(B \x1b)0\x0eqq\x0f",  # character sets
        b"\x1b[?1049h\x1b[2;4r\x1b[?6h\x1b[Hin\x1b[?1049l",  # alternate screen, margins
    ],
)
def test_a_repaint_with_its_unfinished_input_goes_on_like_the_model(stream: bytes) -> None:
    assert _bad_cuts(stream, range(len(stream) + 1), 20, 5) == []


def test_a_string_longer_than_what_is_kept_keeps_its_length() -> None:
    """An unterminated string is abandoned after 1 MiB: the repaint makes its length up, so a
    fresh model abandons it at the same byte."""
    head = b"\x1b]0;" + b"t" * 5000
    fresh = _resumed(head, 20, 5)
    fresh.feed(b"t" * ((1 << 20) - 5002) + b"shown")
    assert fresh.text()[0] == "shown"
    source = TerminalModel(20, 5)
    source.feed(head + b"\x07")
    assert fresh.title == "" and source.title == "t" * 256


def test_a_character_cut_in_the_middle_is_carried_as_surrogate_escapes() -> None:
    m = TerminalModel(20, 5)
    m.feed("x\U0001f680".encode()[:3])
    repaint = m.to_ansi(unfinished=True)
    assert repaint.endswith("\udcf0\udc9f")
    assert repaint.encode("utf-8", "surrogateescape").endswith(b"\xf0\x9f")
    json.loads(json.dumps(repaint))  # survives a JSON text frame


def test_the_default_repaint_never_ends_inside_a_sequence() -> None:
    """What ``render --format ansi`` writes to a user's terminal: text after it is text."""
    for head in (b"\x1b[3", b"\x1b]0;title", b"\x1bP1$r", "\u4e2d".encode()[:2], b"\x1b[" * 3):
        m = TerminalModel(20, 5)
        m.feed(head)
        fresh = TerminalModel(20, 5)
        fresh.feed(m.to_ansi().encode())
        fresh.feed(b"Z")
        assert fresh.line(m.cursor_y)[m.cursor_x].data == "Z", head


# -- real captured streams ---------------------------------------------------------------------

#: Bytes fed after a cut before the resumed model is compared with the model fed straight on: the
#: parser's state shows in what the next bytes do (every sequence and string in the fixtures is
#: shorter).
WINDOW = 256


def _capture(name: str) -> tuple[bytes, int, int]:
    fixture = json.loads((CAPTURES / f"{name}.json").read_text(encoding="utf-8"))
    assert not fixture["resizes"]  # the repaint has no scrollback: no resize after the cut
    return (CAPTURES / f"{name}.bin").read_bytes(), fixture["cols"], fixture["rows"]


def _bad_cuts_in_capture(name: str, cuts: list[int]) -> list[int]:
    """Cut the capture at each of ``cuts`` (ascending): the model resumed from the repaint and
    fed the next :data:`WINDOW` bytes equals the model fed straight to there."""
    data, cols, rows = _capture(name)
    source, ahead = TerminalModel(cols, rows), TerminalModel(cols, rows)
    fed = fed_ahead = 0
    bad = []
    for cut in cuts:
        source.feed(data[fed:cut])
        fed = cut
        stop = min(cut + WINDOW, len(data))
        ahead.feed(data[fed_ahead:stop])
        fed_ahead = stop
        fresh = TerminalModel(cols, rows)
        fresh.feed(source.to_ansi(unfinished=True).encode("utf-8", "surrogateescape"))
        fresh.feed(data[cut:stop])
        if _seen(fresh) != _seen(ahead):
            bad.append(cut)
    return bad


def _sequence_cuts(data: bytes, every: int) -> list[int]:
    """Every cut inside an OSC or a DCS (through its terminator), and inside and right after
    every ``every``-th other escape sequence and multi-byte character."""
    cuts: set[int] = set()
    others = characters = 0
    for i, byte in enumerate(data):
        if byte == 0x1B and data[i + 1 : i + 2] in (b"]", b"P"):
            ends = [k for k in (data.find(b"\x07", i), data.find(b"\x1b\\", i + 1)) if k > 0]
            cuts.update(range(i, min(min(ends, default=len(data)) + 2, len(data)) + 1))
        elif byte == 0x1B:
            others += 1
            if others % every == 0:
                end = next((j for j in range(i + 2, len(data)) if 0x40 <= data[j] <= 0x7E), i)
                cuts.update(range(i, min(end + 2, len(data)) + 1))
        elif byte >= 0xC0:
            characters += 1
            if characters % every == 0:
                cuts.update(range(i, min(i + 4, len(data)) + 1))
    return sorted(cuts)


@pytest.mark.parametrize("name", ["wide-text", "emoji-sequences", "edges-wide-halves"])
def test_captured_streams_resume_from_a_cut_at_every_byte(name: str) -> None:
    data, _, _ = _capture(name)
    assert _bad_cuts_in_capture(name, list(range(len(data) + 1))) == []


@pytest.mark.parametrize("name", ["bash-readline", "vim-splits", "rich-progress"])
def test_captured_streams_resume_from_a_cut_inside_every_sequence(name: str) -> None:
    """bash's title (OSC), vim's OSC and DCS, Rich's UTF-8 progress bar."""
    data, _, _ = _capture(name)
    cuts = _sequence_cuts(data, every=11)
    assert len(cuts) > 50
    assert _bad_cuts_in_capture(name, cuts) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    sorted(
        path.stem
        for path in CAPTURES.glob("*.json")
        if not json.loads(path.read_text(encoding="utf-8"))["resizes"]
    ),
)
def test_every_captured_stream_resumes_from_a_cut_at_every_byte(name: str) -> None:
    data, _, _ = _capture(name)
    assert _bad_cuts_in_capture(name, list(range(len(data) + 1))) == []
