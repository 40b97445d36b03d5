"""``observer render`` on recordings of real programs reproduces what an independent emulator showed.

The fixtures under ``tests/fixtures/captures`` hold every byte real programs (vim, htop, a shell)
wrote, captured by tmux, with the screens tmux showed at checkpoints and the resizes it applied.
Here those bytes become asciicast recordings (resize events and one marker per checkpoint), and
``observer render --at-marker`` must print tmux's screen exactly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from observer.asciicast import CastFormat, CastWriter, Header
from observer.cli import main

CAPTURES = Path(__file__).resolve().parents[1] / "fixtures" / "captures"
# The programs whose screens exercise what render adds on top of the model: resizes mid-stream
# (vim-resize, resize-shell), full-screen redraws and colour (htop, vim-splits, shell-colours).
PROGRAMS = ["vim-resize", "resize-shell", "htop", "vim-splits", "shell-colours"]


def cast_from_capture(name: str, path: Path, fmt: CastFormat) -> dict[str, Any]:
    """Write the capture ``name`` as an asciicast file; return its metadata."""
    meta = json.loads((CAPTURES / f"{name}.json").read_text())
    data = (CAPTURES / f"{name}.bin").read_bytes()
    # At one offset, tmux's checkpoint was taken before its resize.
    points = [(c["offset"], 0, c) for c in meta["checkpoints"]]
    points += [(r["offset"], 1, r) for r in meta.get("resizes", [])]
    points.sort(key=lambda p: (p[0], p[1]))
    with path.open("w", encoding="utf-8") as stream:
        writer = CastWriter(stream, Header(3, meta["cols"], meta["rows"]), format=fmt)
        done, now = 0, 0.0
        for offset, kind, item in points:
            if offset > done:
                now += 0.25
                writer.write_event(now, "o", data[done:offset].decode("utf-8"))
                done = offset
            now += 0.25
            if kind == 1:
                writer.write_event(now, "r", f"{item['cols']}x{item['rows']}")
            else:
                writer.write_event(now, "m", item["label"])
    return meta


@pytest.mark.parametrize("name", PROGRAMS)
def test_render_at_each_checkpoint_prints_the_screen_tmux_showed(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cast = tmp_path / f"{name}.cast"
    meta = cast_from_capture(name, cast, "v2" if name == "htop" else "v3")
    for checkpoint in meta["checkpoints"]:
        assert main(["render", str(cast), "--at-marker", checkpoint["label"]]) == 0
        out, err = capsys.readouterr()
        assert err == ""
        assert out.split("\n")[:-1] == checkpoint["screen"], checkpoint["label"]


# Captures whose screens hold blinking (vttest's graphic renditions) and concealed text.
ATTRIBUTES = ["vttest-screen", "edges-sgr-charsets"]


@pytest.mark.parametrize("name", ATTRIBUTES)
def test_render_ansi_writes_the_colours_and_attributes_tmux_showed(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every cell tmux listed has its colours, blink and conceal in ``render --format ansi``."""
    from tests.unit.terminal.test_captured_programs import clusters, styled_rows, visible

    cast = tmp_path / f"{name}.cast"
    meta = cast_from_capture(name, cast, "v3")
    seen = {"blink": 0, "conceal": 0}
    for checkpoint in meta["checkpoints"]:
        label = checkpoint["label"]
        args = ["render", str(cast), "--at-marker", label, "--format", "ansi", "--hide-cursor"]
        assert main(args) == 0
        out, _ = capsys.readouterr()
        rows = zip(
            styled_rows(out.split("\n")), styled_rows(checkpoint["screen_sgr"]), strict=False
        )
        for y, (got, want) in enumerate(rows):
            for x, ((ch, ours), (_, theirs)) in enumerate(
                zip(clusters(got), clusters(want), strict=False)
            ):
                blank = ch.strip() == ""
                assert visible(ours, blank) == visible(theirs, blank), (label, y, x, ch)
                seen["blink"] += theirs.blink and not blank
                seen["conceal"] += theirs.conceal and not blank
    assert seen["blink" if name == "vttest-screen" else "conceal"] > 0
