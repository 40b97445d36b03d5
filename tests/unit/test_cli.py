"""The command line: help for every command, one clear line for every user error."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

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
    """A command's options by destination (an old spelling, hidden from help, left out)."""
    return {
        a.dest: a
        for a in parser._actions
        if a.option_strings and a.dest != "help" and a.help != argparse.SUPPRESS
    }


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


@pytest.mark.parametrize(
    ("words", "what"),
    [
        (["record", "ws://127.0.0.1:1/"], "record: the following arguments are required"),
        (["record", "ws://127.0.0.1:1/", "-o", "x.cast", "--format", "v9"], "invalid choice"),
        (["watch", "agent", "--no-such-option"], "watch: unrecognized arguments: --no-such-"),
        (["no-such-command"], "invalid choice: 'no-such-command'"),
        (["token", "issue"], "token issue: the following arguments are required"),
    ],
)
def test_a_usage_error_is_one_line_saying_what_to_do(
    words: list[str], what: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(words)
    assert exit_info.value.code == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("observer: ") and what in lines[0]
    assert lines[0].endswith(" --help`") and " — see `observer " in lines[0]


def every_command() -> dict[str, argparse.ArgumentParser]:
    """Every command and action by its words (``config add``)."""
    found: dict[str, argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            found[path] = parser
        for sub in subs:
            for name, child in sub.choices.items():
                walk(child, f"{path} {name}".strip())

    walk(build_parser(), "")
    return found


def test_every_option_is_spelled_one_way_whatever_the_command() -> None:
    """An option that means the same in two commands has the same flags and metavar in both."""
    spelled: dict[str, tuple[tuple[str, ...], object, str]] = {}
    for name, parser in every_command().items():
        for dest, action in options(parser).items():
            metavar = "FILE" if action.metavar == "DIR" else action.metavar  # a folder written
            seen = (tuple(sorted(action.option_strings)), metavar)
            first = spelled.setdefault(dest, (*seen, name))
            assert first[:2] == seen, f"{dest}: `{first[2]}` says {first[:2]}, `{name}` {seen}"


def test_every_file_written_is_named_by_output_or_record_and_may_be_overwritten() -> None:
    commands = every_command()
    for name in ("record", "export", "screenshots"):
        assert options(commands[name])["output"].option_strings == ["-o", "--output"], name
    for name in ("record", "export", "watch", "demo"):
        assert "overwrite" in options(commands[name]), f"`{name}` has no --overwrite"
    for name in ("record", "serve", "render", "watch"):
        assert options(commands[name])["size"].metavar == "COLSxROWS", name


def test_an_old_spelling_still_works_for_one_release_and_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = build_parser().parse_args(["screenshots", "--out", "shots"])
    assert str(args.output) == "shots"
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "observer: --out is deprecated — use -o/--output (the old spelling goes next release)"
    ]
    assert "--out " not in command("screenshots").format_help()


def test_record_refuses_an_existing_file_before_connecting_and_names_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    existing = tmp_path / "kept.cast"
    existing.write_text("keep me")
    assert main(["record", "ws://127.0.0.1:1/", "-o", str(existing)]) == 1
    assert capsys.readouterr().err == (
        f"observer: {existing} already exists — add --overwrite to replace it, "
        "or choose another -o/--output file\n"
    )
    assert existing.read_text() == "keep me"
