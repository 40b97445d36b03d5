"""Theme files: the built-ins load, user files override, broken files are reported not raised."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from observer.errors import ThemeError
from observer.themes import ANSI_KEYS, builtin_theme_files, load_theme, load_themes, parse_theme

BUILTINS = {
    "observer-dark",
    "observer-light",
    "dracula",
    "solarized-dark",
    "solarized-light",
    "gruvbox",
    "nord",
    "catppuccin-mocha",
    "tokyo-night",
}

MINIMAL = """
name = "mine"
[ui]
primary = "#112233"
[terminal]
foreground = "#eeeeee"
background = "#000000"
""" + "\n".join(f'{key} = "#{n:02x}{n:02x}{n:02x}"' for n, key in enumerate(ANSI_KEYS))


def test_all_builtin_themes_load_without_problems() -> None:
    themes, problems = load_themes(None)
    assert problems == []
    assert set(themes) >= BUILTINS
    assert all(len(t.terminal.ansi) == 16 for t in themes.values())
    assert not themes["solarized-light"].dark and themes["dracula"].dark


def test_published_palettes_are_used() -> None:
    dracula = load_theme("dracula")
    assert dracula.terminal.background == "#282A36"
    assert dracula.terminal.ansi[5] == "#FF79C6"
    assert load_theme("solarized-dark").terminal.background == "#002B36"
    assert load_theme("nord").terminal.ansi[1] == "#BF616A"


def test_a_user_theme_is_found_in_the_config_dir_and_wins(tmp_path: Path) -> None:
    (tmp_path / "themes").mkdir()
    (tmp_path / "themes" / "mine.toml").write_text(MINIMAL)
    (tmp_path / "themes" / "nord.toml").write_text(MINIMAL.replace('"mine"', '"nord"'))
    themes, problems = load_themes(tmp_path)
    assert problems == []
    assert themes["mine"].terminal.cursor == "#EEEEEE"
    assert themes["nord"].ui["primary"] == "#112233"


def test_a_broken_user_theme_is_reported_with_its_file_and_problem(tmp_path: Path) -> None:
    (tmp_path / "themes").mkdir()
    bad = tmp_path / "themes" / "bad.toml"
    bad.write_text(MINIMAL.replace('"#112233"', '"blue-ish"'))
    (tmp_path / "themes" / "worse.toml").write_text("name = [")
    themes, problems = load_themes(tmp_path)
    assert set(themes) >= BUILTINS
    messages = sorted(str(p) for p in problems)
    assert len(messages) == 2
    assert str(bad) in messages[0] and "ui.primary" in messages[0] and "blue-ish" in messages[0]
    assert "worse.toml" in messages[1] and "not valid TOML" in messages[1]


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda t: t.replace("[terminal]", "[term]"), "missing the [terminal] table"),
        (lambda t: t.replace('name = "mine"', 'name = "Bad Name"'), "name must be"),
        (lambda t: t.replace('black = "#000000"\n', ""), "terminal.black"),
        (lambda t: t + '\n[ui]\nprimry = "#000000"', "not valid TOML"),
    ],
)
def test_each_kind_of_mistake_is_named(change: object, problem: str) -> None:
    with pytest.raises(ThemeError, match=problem.replace("[", r"\[").replace("]", r"\]")):
        parse_theme(change(MINIMAL), "x.toml")  # type: ignore[operator]


def test_an_unknown_theme_name_lists_the_known_ones() -> None:
    with pytest.raises(ThemeError, match="dracula"):
        load_theme("no-such-theme")


def test_the_repository_themes_dir_is_the_packaged_one() -> None:
    root = Path(__file__).resolve().parents[2]
    names = {p.name for p in (root / "themes").glob("*.toml")}
    assert names == {entry.name for entry in builtin_theme_files()}


def test_the_package_build_ships_the_themes_and_the_built_loader_finds_them(tmp_path: Path) -> None:
    """setuptools' ``build_py`` (what a wheel is made of) run on a copy of the project."""
    root = Path(__file__).resolve().parents[2]
    project = tmp_path / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(root / name, project / name)
    shutil.copytree(
        root / "observer", project / "observer", ignore=shutil.ignore_patterns("__pycache__")
    )
    build = tmp_path / "build"
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import setuptools; setuptools.setup()",
            "-q",
            "build_py",
            "--build-lib",
            str(build),
        ],
        check=True,
        capture_output=True,
        cwd=project,
        timeout=110,
    )
    shipped = {p.name for p in (build / "observer" / "themes").glob("*.toml")}
    assert {f"{name}.toml" for name in BUILTINS} <= shipped
    code = "import observer.themes as t; print(t.__file__); print(len(t.load_themes()[0]))"
    out = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(build)!r}); {code}"],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=30,
    ).stdout.split()
    assert out[0].startswith(str(build))
    assert int(out[1]) >= len(BUILTINS)
