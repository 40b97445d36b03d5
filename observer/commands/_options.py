"""The options several commands share, spelled once: one spelling per meaning.

``-o/--output`` names any file (or folder) a command writes, ``--overwrite`` lets it replace one
that exists, ``--size COLSxROWS`` chooses a terminal's size, ``-i/--identifier ID`` names a
session. An earlier spelling keeps working for one release: it is hidden from ``--help`` and
prints one deprecation line when used (:func:`add_old_spelling`). ``docs/options.md`` is the
table of every command's options, made from the parsers (:mod:`observer.commands._options_table`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from observer.errors import UsageError, joined


class CommandLineParser(argparse.ArgumentParser):
    """argparse's parser, but a usage error is one line, ``observer: <what> — <what to do>``
    (argparse prints the usage and the error on two or more), and exits with status 2."""

    required_late: tuple[argparse.Action, ...] = ()
    """Required options an old spelling may give instead (argparse would refuse it)."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """Parse, then check the options that an old spelling may give."""
        parsed, extra = super().parse_known_args(args, namespace)
        missing = [a for a in self.required_late if getattr(parsed, a.dest, None) is None]
        if missing:
            spelled = ", ".join("/".join(a.option_strings) for a in missing)
            self.error(f"the following arguments are required: {spelled}")
        return parsed, extra

    def error(self, message: str) -> NoReturn:
        """Print the one line and exit."""
        command = self.prog.removeprefix("observer").strip()
        what = f"{command}: {message}" if command else message
        print(f"observer: {joined(what, f'see `{self.prog} --help`')}", file=sys.stderr)
        raise SystemExit(2)


def add_output_option(
    parser: argparse.ArgumentParser,
    help: str,
    *,
    required: bool = False,
    metavar: str = "FILE",
    default: Path | None = None,
) -> argparse.Action:
    """Add ``-o/--output`` (``output``: a :class:`Path`)."""
    return parser.add_argument(
        "-o", "--output", type=Path, required=required, metavar=metavar, default=default, help=help
    )


def add_overwrite_option(parser: argparse.ArgumentParser, what: str = "FILE") -> None:
    """Add ``--overwrite`` (``overwrite``: replace ``what`` if it exists)."""
    parser.add_argument("--overwrite", action="store_true", help=f"replace {what} if it exists")


def refuse_existing(path: Path | None, overwrite: bool, option: str = "-o/--output") -> None:
    """Refuse to replace ``path`` unless ``--overwrite`` was given (checked before connecting, so
    a long session never ends in an error about its file).

    Raises:
        UsageError: ``path`` exists and ``overwrite`` is false.
    """
    if path is not None and not overwrite and path.exists():
        raise UsageError(
            f"{path} already exists",
            f"add --overwrite to replace it, or choose another {option} file",
        )


IDENTIFIER_HELP = (
    "session identifier (Jupyter: the terminal's name); optional where the endpoint serves one "
    "session or ignores it (ttyd, raw)"
)


def add_identifier_option(parser: argparse.ArgumentParser, help: str, **kwargs: Any) -> None:
    """Add ``-i/--identifier ID``."""
    parser.add_argument("-i", "--identifier", metavar="ID", help=help, **kwargs)


def add_size_option(parser: argparse.ArgumentParser, help: str, default: str | None = None) -> None:
    """Add ``--size COLSxROWS`` (a string: :func:`observer.terminal.size.parse_size` reads it)."""
    parser.add_argument("--size", default=default, metavar="COLSxROWS", help=help)


def say_deprecated(old: str, new: str) -> None:
    """The one line an old spelling prints on stderr when it is used."""
    advice = f"use {new} (the old spelling goes next release)"
    print(f"observer: {joined(f'{old} is deprecated', advice)}", file=sys.stderr)


class _OldSpelling(argparse.Action):
    """Stores like the option it was renamed to, and says once that it was renamed."""

    def __init__(self, option_strings: Sequence[str], dest: str, *, new: str, **kwargs: Any):
        self.new = new
        super().__init__(option_strings, dest, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        say_deprecated(option_string or self.option_strings[0], self.new)
        setattr(namespace, self.dest, values)


def add_old_spelling(parser: argparse.ArgumentParser, old: str, new: argparse.Action) -> None:
    """Accept ``old`` for one release as the option ``new`` (hidden from help; warns when used)."""
    spelled = "/".join(new.option_strings)
    if new.required and isinstance(parser, CommandLineParser):
        new.required = False
        parser.required_late = (*parser.required_late, new)
    parser.add_argument(
        old,
        dest=new.dest,
        type=new.type or str,
        metavar=new.metavar,
        action=_OldSpelling,
        new=spelled,
        default=argparse.SUPPRESS,
        help=argparse.SUPPRESS,
    )
