"""``observer screenshots`` saves SVGs of the real app's views."""

from __future__ import annotations

from pathlib import Path

from observer.cli import main


def test_screenshots_saves_one_svg_per_view(tmp_path: Path, capsys: object) -> None:
    status = main(["screenshots", "-o", str(tmp_path), "--only", "watch", "--only", "control"])
    assert status == 0
    watch = (tmp_path / "watch.svg").read_text()
    control = (tmp_path / "control.svg").read_text()
    assert watch.startswith("<svg") and "WATCH" in watch and "REC" in watch
    assert "CONTROL" in control
    assert "@font-face" not in watch and "cdnjs" not in watch  # opening one contacts nobody
    assert sorted(p.name for p in tmp_path.iterdir()) == ["control.svg", "watch.svg"]


def test_an_unknown_view_is_a_usage_error(tmp_path: Path, capsys: object) -> None:
    assert main(["screenshots", "-o", str(tmp_path), "--only", "nope"]) == 1
    assert "no view named nope" in capsys.readouterr().err  # type: ignore[attr-defined]
