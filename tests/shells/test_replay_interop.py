"""A recording made by the real ``asciinema rec`` (2.4, in a real PTY) replays and exports."""

from __future__ import annotations

from pathlib import Path

import pytest

from observer.cli import main
from observer.replay import KeyframeIndex, Player, find, screen_at
from tests.shells.test_render_cli import asciinema_rec
from tests.unit.replay.casts import load


def test_a_recording_made_by_asciinema_rec_replays_seeks_and_searches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cast = tmp_path / "rec.cast"
    command = (
        "printf 'first screen\\n'; sleep 0.3; printf '\\033[2J\\033[H\\033[32mgreen\\033[0m done\\n'; "
        "sleep 0.3; printf '\\033[?1049h\\033[Hfull\\033[?1049l'"
    )
    asciinema_rec(cast, command, cols=30, rows=6)
    timeline = load(cast)
    index = KeyframeIndex(timeline, spacing=0.1)
    while not index.build(100):
        pass
    player = Player(timeline, index)
    player.seek(timeline.duration)
    assert player.model.text()[0] == "green done"
    for moment in (0.0, timeline.duration / 2, timeline.duration, 0.1):
        player.seek(moment)
        assert player.model.text() == screen_at(timeline, timeline.count_at(moment)).text()
    matches = find(timeline, index, "green done")
    assert len(matches) == 1
    assert matches[0].time > 0.2
    assert main(["export", str(cast)]) == 0
    assert "│ green done" in capsys.readouterr().out
