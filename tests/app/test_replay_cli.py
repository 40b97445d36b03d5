"""``observer replay`` refuses bad arguments and damaged headers with one line, before any UI."""

from __future__ import annotations

from pathlib import Path

import pytest

from observer.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(["replay", *argv])
    return status, capsys.readouterr().err


def test_a_missing_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.cast"
    assert run(capsys, str(missing)) == (
        1,
        f"observer: {missing} does not exist — check the file name\n",
    )


def test_a_damaged_header_is_refused_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cast = tmp_path / "bad.cast"
    cast.write_text('{"version": 2, "width": 80\n[0.1, "o", "x"]\n')
    status, err = run(capsys, str(cast))
    assert status == 1
    assert err.startswith("observer: ") and "line 1" in err and err.count("\n") == 1


def test_an_absurd_size_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cast = tmp_path / "huge.cast"
    cast.write_text('{"version": 2, "width": 99999999, "height": 24}\n')
    status, err = run(capsys, str(cast))
    assert status == 1
    assert err.startswith("observer: ") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [("--speed", "32", "--speed 32 is outside 0.25..16"), ("--idle-limit", "0", "--idle-limit 0")],
)
def test_bad_speed_or_idle_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, says: str
) -> None:
    cast = tmp_path / "ok.cast"
    cast.write_text('{"version": 2, "width": 20, "height": 4}\n')
    status, err = run(capsys, str(cast), option, value)
    assert status == 1
    assert err.startswith(f"observer: {says}")
