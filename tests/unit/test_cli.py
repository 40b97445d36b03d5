"""The command line: help for every command, one clear line for every user error."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from observer import __version__
from observer.cli import build_parser, main


def test_version_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"observer {__version__}"


def test_no_command_prints_help_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: observer" in capsys.readouterr().out


def test_every_command_has_help_with_an_example() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, command in sub.choices.items():  # type: ignore[union-attr]
        text = command.format_help()
        assert "example" in text.lower(), f"`observer {name} --help` shows no example"


def test_help_does_not_import_the_tui() -> None:
    code = (
        "import sys; from observer.cli import build_parser; build_parser();"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual','websockets','keyring')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def command(*path: str) -> argparse.ArgumentParser:
    parser = build_parser()
    for name in path:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[name]
    return parser


def options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {a.dest: a for a in parser._actions if a.option_strings and a.dest != "help"}


def test_config_add_spells_every_option_as_watch_does() -> None:
    """A profile holds what `watch URL` takes: the same option names, aliases and metavars;
    both take `auto` (detect it) or a protocol's name."""
    add, watch = options(command("config", "add")), options(command("watch"))
    for dest, action in add.items():
        assert dest in watch, f"`watch` has no {action.option_strings[0]}"
        assert action.option_strings == watch[dest].option_strings
        assert action.metavar == watch[dest].metavar
    assert add["protocol"].choices == watch["protocol"].choices  # auto, then every protocol


def test_every_url_argument_is_described_alike() -> None:
    """A URL argument of auth and config reads the same everywhere, metavar and help."""
    found = [
        next(a for a in command(*path)._actions if a.dest == "url")
        for path in (("auth", "login"), ("auth", "logout"), ("auth", "status"), ("config", "add"))
    ]
    assert {a.metavar for a in found} == {"URL"}
    assert all(str(a.help).startswith("endpoint URL (ws, wss, http or https)") for a in found)
