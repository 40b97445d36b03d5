"""Live rewind's history: what the live model was fed, on disk and redacted, shown at any moment."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest

from observer.asciicast import MARKER, OUTPUT
from observer.recording.history import KEYFRAME_EVERY, SessionHistory
from observer.replay.rewind import Rewind, behind_text
from observer.replay.search import find
from observer.terminal import TerminalModel


def frame(n: int) -> bytes:
    """A full-screen counter, redrawn in place on the alternate screen."""
    return b"\x1b[?1049h\x1b[H\x1b[2J" + b"counter %d\r\nsecond line %d" % (n, n)


def fed(history: SessionHistory, model: TerminalModel, data: bytes, now: float) -> None:
    model.feed(data)
    history.fed(data, model, now)


@pytest.fixture
def live(tmp_path: Path) -> tuple[SessionHistory, TerminalModel]:
    model = TerminalModel(40, 6)
    return SessionHistory(tmp_path, model, now=100.0), model


def test_going_back_shows_the_screen_as_it_was_while_live_goes_on(
    live: tuple[SessionHistory, TerminalModel],
) -> None:
    history, model = live
    for n in range(41):  # a counter twice a second for 20 s
        fed(history, model, frame(n), 100.0 + n / 2)
    rewind = Rewind(history.timeline, history.keyframes)
    now = history.time_of(120.0)
    history.flush(model, 120.0)
    rewind.back(now)
    rewind.back(now)
    assert rewind.player.model.text()[0] == "counter 20"  # 10 s before 40
    assert rewind.label(now) == f"REWIND {behind_text(10)}" == "REWIND \u22120:10"
    fed(history, model, frame(41), 120.5)  # live goes on; the view stays where it was
    assert rewind.player.model.text()[0] == "counter 20"
    assert rewind.forward(now + 0.5, 30.0) is None and not rewind.rewound
    assert model.text()[0] == "counter 41"


def test_every_moment_matches_feeding_from_the_start(
    live: tuple[SessionHistory, TerminalModel],
) -> None:
    history, model = live
    history.keyframes.spacing = 1.0
    for n in range(60):
        fed(history, model, frame(n)[: 5 + n % 17], 100.0 + n * 0.3)  # cut anywhere
        fed(history, model, frame(n)[5 + n % 17 :], 100.0 + n * 0.3 + 0.15)
    history.flush(model, 200.0)
    assert len(history.keyframes.keyframes) > 5
    rewind = Rewind(history.timeline, history.keyframes)
    for t in (0.2, 3.0, 7.77, 12.5, 17.9):
        rewind.seek(t, 100.0)
        reference = TerminalModel(40, 6)
        count = history.timeline.count_at(t)
        reference.feed(history.timeline.output(0, count))
        assert rewind.player.model.text() == reference.text()


def test_markers_and_search_find_moments_of_the_history(
    live: tuple[SessionHistory, TerminalModel],
) -> None:
    history, model = live
    for n in range(20):
        if n == 7:
            history.marker("notification: needs permission", 100.0 + n)
        fed(history, model, frame(n), 100.0 + n)
    history.flush(model, 120.0)
    rewind = Rewind(history.timeline, history.keyframes)
    rewind.marker(-1, 20.0)
    assert rewind.at == 7.0 and rewind.player.model.text()[0] == "counter 7"
    assert rewind.marker(1, 20.0) is None and not rewind.rewound  # past the last: live
    (match,) = find(history.timeline, history.keyframes, "counter 13")
    rewind.jump(match, 20.0)
    assert rewind.player.model.text()[0] == "counter 13"


def test_secrets_are_masked_on_disk_and_on_the_rewound_screen(tmp_path: Path) -> None:
    model = TerminalModel(80, 6)
    history = SessionHistory(tmp_path, model, now=100.0)
    secret = b"ghp_" + b"a1B2" * 10
    fed(history, model, b"\x1b[2J\x1b[Htoken " + secret[:10], 100.0)
    fed(history, model, secret[10:] + b" done", 100.05)  # within the hold, as recordings
    fed(history, model, b"\r\nnext", 106.0)
    history.flush(model, 106.5)
    on_disk = history.read(0, 1 << 20)
    assert secret not in on_disk and b"done" in on_disk
    rewind = Rewind(history.timeline, history.keyframes)
    rewind.seek(5.0, 7.0)  # what was held back is released after the hold, as recordings do
    assert rewind.player.model.text()[:2] == ["token " + "*" * len(secret) + " done", ""]
    rewind.seek(6.0, 7.0)
    assert rewind.player.model.text()[1] == "next"


def test_past_the_disk_cap_the_oldest_is_dropped_and_the_rest_still_shows(
    tmp_path: Path,
) -> None:
    model = TerminalModel(40, 6)
    history = SessionHistory(tmp_path, model, now=0.0, cap=40_000, segment=10_000)
    for n in range(2000):
        fed(history, model, frame(n), n * 0.2)
    history.flush(model, 400.0)
    files = list(tmp_path.iterdir())
    assert history.dropped > 0 and sum(f.stat().st_size for f in files) <= 50_000
    # Memory too: what can no longer be shown was forgotten (the timeline starts later).
    assert history.timeline.time(0) > 200.0 and len(history.timeline) < 1000
    rewind = Rewind(history.timeline, history.keyframes)
    rewind.seek(0.0, 400.0)  # the oldest moment still held
    shown = int(rewind.player.model.text()[0].split()[1])
    assert shown > 1000 and rewind.at == rewind.earliest
    rewind.seek(398.8, 400.0)
    assert rewind.player.model.text()[0] == "counter 1994"
    history.close()
    assert list(tmp_path.iterdir()) == []


def test_the_history_file_is_a_recording_with_markers(
    live: tuple[SessionHistory, TerminalModel],
) -> None:
    history, model = live
    fed(history, model, frame(1), 100.0)
    history.marker("exit", 101.0)
    codes = [history.timeline.code(i) for i in range(len(history.timeline))]
    assert codes == [OUTPUT, MARKER]


def test_a_scrolling_log_rewinds_to_its_screen_and_keyframes_keep_no_scrollback(
    tmp_path: Path,
) -> None:
    model = TerminalModel(40, 6, 1000)
    history = SessionHistory(tmp_path, model, now=0.0)
    history.keyframes.spacing = 2.0
    for n in range(300):
        fed(history, model, b"log line %d\r\n" % n, n * 0.1)
    history.flush(model, 30.0)
    assert len(model.history) > 200
    assert all(not k.snapshot.history for k in history.keyframes.keyframes)
    rewind = Rewind(history.timeline, history.keyframes)
    rewind.seek(15.05, 30.0)
    assert rewind.player.model.text()[-2] == "log line 150"


def test_a_spool_file_that_cannot_be_made_stops_the_history_not_the_session(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "history"
    folder.mkdir()
    model = TerminalModel(40, 6)
    history = SessionHistory(folder, model, now=0.0, segment=2_000)
    shutil.rmtree(folder)
    folder.write_text("")  # no new spool file can be made where the folder was
    for n in range(200):
        fed(history, model, frame(n), n * 0.2)
    history.marker("exit", 50.0)
    assert isinstance(history.error, NotADirectoryError)
    assert model.text()[0] == "counter 199"  # the session went on
    events = len(history.timeline)
    fed(history, model, frame(200), 41.0)
    history.flush(model, 42.0)
    assert len(history.timeline) == events  # and the history kept nothing more
    history.close()


def test_a_rewound_view_goes_on_over_the_history_once_its_oldest_is_forgotten(
    tmp_path: Path,
) -> None:
    from observer.app.links import LiveScreen
    from observer.app.rewind import RewindSource
    from observer.client.watched import WatchedSession

    session = WatchedSession(size=(40, 6))
    model = session.model
    history = SessionHistory(tmp_path, model, now=0.0, cap=40_000, segment=10_000)
    source = RewindSource(LiveScreen(session), history, lambda: model)
    for n in range(100):
        fed(history, model, frame(n), n * 0.2)
    source.move(lambda rewind, live: rewind.back(live), 20.0)
    assert source.model.text()[0] == "counter 75"
    timeline = history.timeline
    for n in range(100, 2000):
        fed(history, model, frame(n), n * 0.2)
    assert history.timeline is not timeline  # forgotten: a new, shorter timeline
    source.move(lambda rewind, live: rewind.back(live), 400.0)  # 0:15 is gone: the oldest kept
    assert source.rewind.at == source.rewind.earliest > 200.0
    assert int(source.model.text()[0].split()[1]) > 1000
    source.go_live()
    assert source.model is model
    source.move(lambda rewind, live: rewind.back(live, 9.9), 400.0)
    assert source.model.text()[0] == "counter 1950"


def test_a_flood_is_keyframed_by_its_bytes_but_at_most_once_a_second(tmp_path: Path) -> None:
    """A build log at about 500 KB/s, fed in the feeder's pieces (cut mid-line): the keyframes'
    byte budget is reached several times a second, so a seek feeds at most a second's output;
    the live model is not snapshot more often than that."""
    model = TerminalModel(120, 40, 1000)
    history = SessionHistory(tmp_path, model, now=0.0)
    line = b"\x1b[32m[%8d]\x1b[0m CC src/module_%04d/file.o -O2 -Wall -c \x1b[33mok\x1b[0m\r\n"
    stream = b"".join(line % (n, n % 9973) for n in range(70_000))  # 5 MB: 10 s at 500 KB/s
    piece = 12_345
    for start in range(0, len(stream), piece):
        fed(history, model, stream[start : start + piece], start / 500_000)
    keyframes = history.keyframes.keyframes
    gaps = [b.time - a.time for a, b in itertools.pairwise(keyframes)]
    assert 8 <= len(keyframes) <= 11 and min(gaps) >= KEYFRAME_EVERY
    widest = max(b.offset - a.offset for a, b in itertools.pairwise(keyframes))
    assert widest <= 600_000  # about a second's output, not the five seconds' of the spacing
    history.flush(model, 11.0)
    rewind = Rewind(history.timeline, history.keyframes)
    rewind.seek(history.duration, 11.0)  # the last moment: the live screen
    assert rewind.player.model.text() == model.text()
