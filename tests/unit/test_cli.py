"""The command line: help for every command, one clear line for every user error."""

from __future__ import annotations

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
