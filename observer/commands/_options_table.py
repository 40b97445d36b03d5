"""``docs/options.md``: every option of every command, made from the parsers themselves.

``python -m observer.commands._options_table > docs/options.md`` writes it; a test compares the
file with :func:`options_table`, so the table cannot drift from the command line.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from dataclasses import dataclass

HEADER = """\
# Every option of every command

Made from the parsers by `python -m observer.commands._options_table > docs/options.md`; a test
fails when this file and the command line disagree. One spelling per meaning: `-o/--output`
names any file or folder a command writes, `--overwrite` lets it replace one that exists,
`--format` is one kind of thing per command (an asciicast version where a recording is written,
the kind of text elsewhere), `--size COLSxROWS` chooses a terminal's size, `-i/--identifier ID`
names a session. `watch` and `demo` write a recording beside what they show: `--record FILE`.
"""


@dataclass(frozen=True, slots=True)
class Option:
    """One option of one command, as ``--help`` shows it."""

    command: str
    spelling: str
    argument: str
    help: str
    old: bool


def commands(parser: argparse.ArgumentParser, path: str = "observer") -> Iterator[
    tuple[str, argparse.ArgumentParser]
]:  # fmt: skip
    """Every command and action that takes options, by the words that run it."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs or any(a.option_strings for a in parser._actions if a.dest != "help"):
        yield path, parser
    for sub in subs:
        for name, child in sub.choices.items():
            yield from commands(child, f"{path} {name}")


def options(path: str, parser: argparse.ArgumentParser) -> Iterator[Option]:
    """The options of one command (``--help`` and ``--version`` left out)."""
    for action in parser._actions:
        if not action.option_strings or action.dest in ("help", "version"):
            continue
        old = action.help == argparse.SUPPRESS
        argument = "" if action.nargs == 0 else str(action.metavar or action.dest.upper())
        if action.choices is not None and action.metavar is None:
            argument = "|".join(str(c) for c in action.choices)
        text = getattr(action, "new", "") if old else str(action.help or "")
        spelling = "/".join(action.option_strings)
        yield Option(path, spelling, _cell(argument), _cell(text), old)


def options_table(parser: argparse.ArgumentParser | None = None) -> str:
    """The Markdown of ``docs/options.md``."""
    if parser is None:
        from observer.cli import build_parser

        parser = build_parser()
    found = [o for path, command in commands(parser) for o in options(path, command)]
    lines = [HEADER, "| command | option | argument | what it does |", "|---|---|---|---|"]
    lines += [
        f"| `{o.command}` | `{o.spelling}` | {_code(o.argument)} | {o.help} |"
        for o in found
        if not o.old
    ]
    old = [o for o in found if o.old]
    if old:
        lines += [
            "",
            "## Old spellings, kept for one release",
            "",
            "Each still works and prints one line saying what replaced it.",
            "",
            "| command | old spelling | now |",
            "|---|---|---|",
        ]
        lines += [f"| `{o.command}` | `{o.spelling}` | `{o.help}` |" for o in old]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    """Text in a table's cell: a ``|`` would end the cell, even inside backticks (GFM)."""
    return text.replace("|", "\\|")


def _code(text: str) -> str:
    return f"`{text}`" if text else ""


if __name__ == "__main__":
    print(options_table(), end="")
