"""One client's ``observer.v1`` messages told as raw, asciicast v2/v3 and ALiS streams.

The messages are the server's own (``frames.encode``); the streams are read as asciinema-player
reads them (:mod:`tests.stream_readers`).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from observer.protocol import frames
from observer.server.stream_translator import StreamTranslator
from observer.server.websocket_adapter import Message
from observer.terminal import BellRung, NotificationSent
from tests.stream_readers import Played, read_alis, read_cast, read_raw, screen

READERS: dict[str, Callable[[list[Message]], Played]] = {
    "raw": lambda out: read_raw(out),  # type: ignore[arg-type]
    "v2.asciicast": lambda out: read_cast(out, 2),  # type: ignore[arg-type]
    "v3.asciicast": lambda out: read_cast(out, 3),  # type: ignore[arg-type]
    "v1.alis": lambda out: read_alis(out),  # type: ignore[arg-type]
}
MARKED = ("v2.asciicast", "v3.asciicast", "v1.alis")
RED = b"\x1b[31mred\x1b[0m"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        self.now += 0.01
        return self.now


def hello(cols: int = 40, rows: int = 5, holder: frames.Holder = "none") -> Message:
    return frames.encode(frames.Hello("agent-1", "watch", cols, rows, 0, holder, 1, "build"))


def snapshot(offset: int, data: str = "\x1bc$ ", cols: int = 40, rows: int = 5) -> Message:
    return frames.encode(frames.Snapshot(offset, cols, rows, data))


def translate(stream: str, messages: list[Message]) -> tuple[StreamTranslator, list[Message]]:
    translator = StreamTranslator(stream, Clock(), lambda: 1_700_000_000.5)
    out = [item for message in messages for item in translator.translate(message)]
    return translator, out


def a_session() -> list[Message]:
    return [
        hello(),
        snapshot(0),
        frames.encode(frames.Presence(2)),
        RED,
        frames.encode(frames.Resize(50, 6)),
        frames.encode(frames.Control("other")),
        b"\r\nmore",
        frames.encode(frames.Control("none")),
        frames.encode(frames.Error("x", "dropped")),
        frames.encode(frames.Exit(3)),
    ]


@pytest.mark.parametrize("stream", list(READERS))
def test_a_session_reads_as_the_player_reads_it(stream: str) -> None:
    translator, out = translate(stream, a_session())
    played = READERS[stream](out)
    assert (played.cols, played.rows) == (40, 5)
    model = screen(played)
    assert model.text()[0].startswith("$ red") and model.text()[1].startswith("more")
    assert (model.cols, model.rows) == ((40, 5) if stream == "raw" else (50, 6))
    assert translator.ended and translator.translate(RED) == []


@pytest.mark.parametrize("stream", MARKED)
def test_takeovers_and_the_exit_are_events(stream: str) -> None:
    _, out = translate(stream, a_session())
    played = READERS[stream](out)
    assert played.markers() == ["connect", "takeover start: another client", "takeover end"]
    assert played.codes()[-1] == "x" and str(played.events[-1][2]) == "3"
    times = [time for time, _, _ in played.events]
    assert times == sorted(times) and 0 < times[-1] < 1000
    assert played.ended is (stream == "v1.alis")


def test_the_asciicast_header_has_the_size_title_and_start() -> None:
    v2 = read_cast(translate("v2.asciicast", a_session())[1], 2).header  # type: ignore[arg-type]
    assert v2 == {
        "version": 2,
        "width": 40,
        "height": 5,
        "timestamp": 1_700_000_000,
        "title": "build",
    }
    v3 = read_cast(translate("v3.asciicast", a_session())[1], 3).header  # type: ignore[arg-type]
    assert v3["term"] == {"cols": 40, "rows": 5} and v3["title"] == "build"


@pytest.mark.parametrize("stream", MARKED)
def test_a_holder_at_join_is_marked_after_the_first_screen(stream: str) -> None:
    _, out = translate(stream, [hello(holder="other"), snapshot(0)])
    played = READERS[stream](out)
    assert played.markers() == ["connect", "takeover start: another client"]


@pytest.mark.parametrize("stream", list(READERS))
def test_bytes_resent_after_a_snapshot_are_sent_once(stream: str) -> None:
    _, out = translate(
        stream, [hello(), snapshot(0, "\x1bc"), b"abc", snapshot(2, "\x1bcab"), b"cd"]
    )
    assert screen(READERS[stream](out)).text()[0].rstrip() == "abcd"


@pytest.mark.parametrize("stream", list(READERS))
def test_a_dropped_backlog_shows_as_a_gap_then_the_screen(stream: str) -> None:
    """A slow client's backlog is dropped before translation: the snapshot after it starts past
    what the translator saw, so the viewer gets a reset and the whole screen."""
    messages = [hello(), snapshot(0, "\x1bc"), b"old", snapshot(500, "\x1bcnew screen"), b"!"]
    _, out = translate(stream, messages)
    played = READERS[stream](out)
    assert screen(played).text()[0].startswith("new screen!")
    if stream in MARKED:
        assert "gap" in played.markers()


@pytest.mark.parametrize("stream", MARKED)
def test_notifications_are_markers_in_stream_order(stream: str) -> None:
    translator, out = translate(stream, [hello(), snapshot(0), b"asks"])
    out += translator.notified([NotificationSent("Claude", "needs permission", "osc9")])
    out += translator.notified([BellRung()])
    out += translator.translate(b" more")
    played = READERS[stream](out)
    assert played.markers()[-2:] == ["notification: Claude: needs permission", "notification: bell"]
    assert played.codes()[-1] == "o"


def test_a_late_joiner_to_an_exited_program_gets_the_screen_then_the_end() -> None:
    messages = [hello(), snapshot(7, "\x1bcdone"), frames.encode(frames.Exit(0))]
    translator, out = translate("v1.alis", messages)
    played = read_alis(out)  # type: ignore[arg-type]
    assert played.init.endswith("done") and played.codes() == ["m", "x"] and played.ended
    assert translator.ended


def test_output_is_never_copied_for_the_raw_stream() -> None:
    _, out = translate("raw", [hello(), snapshot(0), RED])
    assert out[-1] is RED


def test_a_stream_the_translator_does_not_speak_is_refused() -> None:
    with pytest.raises(ValueError):
        StreamTranslator("observer.v1", Clock(), lambda: 0.0)
