"""The benchmark runner's adapters read real outputs of every benchmark module.

The fixtures are outputs captured by running each module (``tests/benchmarks/fixtures/NAME.txt``,
made with the runner's ``--quick`` arguments): when a module's printed format changes, these tests
fail until its adapter (and the fixture) follow.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.benchmarks import __main__ as runner
from tests.benchmarks.adapters import EXPECTED, NOT_MEASURED, rows_for

FIXTURES = Path(__file__).resolve().parents[2] / "benchmarks" / "fixtures"
BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def fixture(name: str) -> str:
    return (FIXTURES / f"{name}.txt").read_text()


def test_every_benchmark_module_has_an_adapter_a_fixture_and_quick_arguments() -> None:
    modules = {p.stem for p in BENCHMARKS.glob("*.py")} - runner.SKIP
    assert modules == set(EXPECTED)
    assert modules == set(runner.MODULES)
    assert modules == {p.stem for p in FIXTURES.glob("*.txt")}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_real_output_yields_every_expected_row_with_figures(name: str) -> None:
    rows, missing = rows_for(name, fixture(name))
    assert missing == []
    assert len(rows) == len(EXPECTED[name])
    for figure, goal, _anchor, measured, _ratio in rows:
        assert figure and goal
        assert any(ch.isdigit() for ch in measured) or measured in {"same", "yes"}, figure


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_an_output_in_another_format_shows_every_row_as_not_measured(name: str) -> None:
    garbled = fixture(name).replace(" ", "\t|\t")
    rows, missing = rows_for(name, garbled)
    assert missing == list(EXPECTED[name])
    assert [row[0] for row in rows] == list(EXPECTED[name])
    assert all(row[3] == NOT_MEASURED for row in rows)


def test_a_failed_module_shows_its_rows_as_not_measured_with_the_reason() -> None:
    rows, missing = rows_for("recording", fixture("recording"), "the benchmark failed, exit 1")
    assert len(missing) == len(EXPECTED["recording"])
    assert {row[3] for row in rows} == {"not measured (the benchmark failed, exit 1)"}


def test_a_module_without_an_adapter_is_a_visible_gap() -> None:
    rows, missing = rows_for("newcomer", "anything")
    assert missing == ["newcomer"]
    assert rows[0][3] == "not measured (no adapter)"


def test_the_server_watcher_rows_carry_ratio_spread_and_cpu_per_megabyte() -> None:
    rows, _ = rows_for("server", fixture("server"))
    by_figure = {row[0]: row for row in rows}
    row = by_figure["agent throughput with 100 watchers + 1 stalled"]
    assert row[2] == "0 watchers: 15.3 MB/s"
    assert row[3] == "9.1 MB/s; server CPU 88.0 ms/MB (fan-out 5.50); 140% as bytes"
    assert row[4] == "0.60 (rounds 0.60-0.60)"
    assert by_figure["agent throughput with 100 watchers"][3].startswith("10.4 MB/s")


def test_the_server_table_may_gain_columns_at_its_end() -> None:
    widened = "\n".join(
        line + ("  new column" if line.startswith("scenario") else "    12.5")
        if line.startswith(("scenario", "0 watchers", "10 watchers", "100 watchers", "1 stalled"))
        else line
        for line in fixture("server").splitlines()
    )
    rows, missing = rows_for("server", widened)
    assert missing == []
    assert rows == rows_for("server", fixture("server"))[0]


def test_the_server_rows_are_missing_when_its_columns_change_order() -> None:
    swapped = fixture("server").replace("agent MB/s  ratio", "ratio  agent MB/s")
    _, missing = rows_for("server", swapped)
    assert [key for key in missing if key.startswith("agent throughput")] == [
        key for key in EXPECTED["server"] if key.startswith("agent throughput")
    ]


@pytest.mark.parametrize("name", ["terminal", "client_faults", "recording", "app_flood", "live"])
def test_other_tables_may_gain_columns_at_their_end_too(name: str) -> None:
    lines = fixture(name).splitlines()
    widened = "\n".join(line + ("  9.9 |" if line.startswith("| ") else "  9.9") for line in lines)
    rows, missing = rows_for(name, widened)
    assert missing == []
    assert rows == rows_for(name, fixture(name))[0]


def test_the_readme_block_between_the_markers_is_replaced_and_the_rest_kept() -> None:
    readme = f"# t\nbefore\n{runner.START}\nold table\n{runner.END}\nafter\n"
    assert runner.insert(readme, ["| new |"]) == (
        f"# t\nbefore\n{runner.START}\n| new |\n\n{runner.END}\nafter\n"
    )
    with pytest.raises(ValueError, match="no"):
        runner.insert("# no markers\n", ["| new |"])


def test_the_readme_summary_is_the_chosen_rows_in_their_order_under_the_header() -> None:
    header = ["| figure | goal | anchor (same run) | measured | ratio |", "|---|---|---|---|---|"]
    rows = [f"| {name} | g | a | m | r |" for name in reversed(runner.SUMMARY)]
    lines = ["Machine:", "", "- date: today", "", *header, "| not chosen | g | a | m | r |", *rows]
    shown = runner.summary(lines)
    assert shown[:2] == header
    assert shown[2 : 2 + len(runner.SUMMARY)] == rows[::-1]
    assert len(runner.SUMMARY) == 10 and "| not chosen |" not in "\n".join(shown)
    assert "docs/benchmarks.md" in shown[-1]


def test_the_runner_exits_non_zero_and_shows_the_output_when_a_row_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``run`` is replaced so no benchmark runs: its output is the recording fixture, changed."""
    changed = fixture("recording").replace("record flood", "record deluge")

    def run(name: str, quick: bool) -> runner.Result:
        rows, missing = rows_for(name, changed)
        return runner.Result(rows, missing, f"python -m tests.benchmarks.{name}", changed, 1.0)

    monkeypatch.setattr(runner, "run", run)
    out = tmp_path / "benchmarks.md"
    monkeypatch.setattr("sys.argv", ["benchmarks", "--only", "recording", "--out", str(out)])
    assert runner.main() == 1
    text = out.read_text()
    assert (
        f"| asciicast record, fastest PTY flood | {EXPECTED['recording']['asciicast record, fastest PTY flood']} | — | {NOT_MEASURED} | — |"
        in text
    )
    assert "record deluge" in text  # the module's output is shown below the table
    monkeypatch.setattr("sys.argv", ["benchmarks", "--only", "recording", "--out", str(out)])
    monkeypatch.setattr(
        runner,
        "run",
        lambda name, quick: runner.Result(*rows_for(name, fixture(name)), "c", "o", 1.0),
    )
    assert runner.main() == 0
