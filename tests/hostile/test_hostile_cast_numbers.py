"""Absurd numbers in a recording: one line of error naming the line, never a traceback.

Python refuses to turn more than 4,300 digits into an int (``ValueError``), overflows turning
a shorter one into a float, and sums two 1e308 intervals to infinity and then NaN. Every such
number, wherever it sits in a v1, v2 or v3 file, is damage: ``render`` and ``export`` (the real
command line, in this process so that any exception fails the test) say so in one line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from observer.cli import main

HUGE = "8" * 5000
V2 = '{"version": 2, "width": 80, "height": 24}\n'
V3 = '{"version": 3, "term": {"cols": 80, "rows": 24}}\n'

CASES = {
    "v2 time of 5000 digits": (V2 + f'[{HUGE}, "o", "x"]\n', 2),
    "v3 interval of 5000 digits": (V3 + f'[{HUGE}, "o", "x"]\n', 2),
    "v2 float time of 5000 digits": (V2 + f'[{HUGE}.5, "o", "x"]\n', 2),
    "v3 intervals of 1e308 (sum: inf, then NaN)": (
        V3 + '[1e308, "o", "x"]\n[1e308, "o", "y"]\n[1e308, "o", "z"]\n',
        2,
    ),
    "a time of 1e300 s": (V2 + '[1.0, "o", "x"]\n[1e300, "o", "y"]\n', 3),
    "width of 5000 digits": (f'{{"version": 2, "width": {HUGE}, "height": 24}}\n', 1),
    "v3 rows of 5000 digits": (f'{{"version": 3, "term": {{"cols": 80, "rows": {HUGE}}}}}\n', 1),
    "timestamp of 4000 digits (float overflow)": (
        f'{{"version": 2, "width": 80, "height": 24, "timestamp": {"9" * 4000}}}\n',
        1,
    ),
    "idle_time_limit of 5000 digits": (
        f'{{"version": 2, "width": 80, "height": 24, "idle_time_limit": {HUGE}}}\n',
        1,
    ),
    "resize of 5000 digits": (V2 + f'[0.5, "o", "x"]\n[1.0, "r", "{HUGE}x24"]\n', 3),
    "v1 delay of 5000 digits": (
        f'{{"version": 1, "width": 80, "height": 24, "stdout": [[{HUGE}, "x"]]}}\n',
        1,
    ),
}


@pytest.mark.parametrize("command", ["render", "export"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_an_absurd_number_is_a_one_line_error_with_its_line_number(
    case: str, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, line = CASES[case]
    path = tmp_path / "absurd.cast"
    path.write_text(text + '[9.0, "o", "end"]\n' if text.count("\n") == 1 else text)
    assert main([command, str(path)]) == 1
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err[:500]
    assert lines[0].startswith(f"observer: {path}, line {line}: ")
    assert " — " in lines[0]
    assert len(lines[0]) < 300  # the number itself is not repeated back
