"""Command-line entry point: ``observer <command> ...``.

Commands are discovered from :mod:`observer.commands`; each stays lazy about heavy imports. Every
:class:`~observer.errors.ObserverError` becomes one line on stderr, ``observer: <message>``, and a
non-zero exit status; no user-caused failure shows a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType

from observer import __version__, commands
from observer.commands._options import CommandLineParser
from observer.errors import ObserverError

EPILOG = """\
examples:
  observer demo                                 watch a scripted agent in a local sandbox
  observer render session.cast --at 12.5        print the screen 12.5 s into a recording
  observer config add build-agent wss://sandbox.example --identifier build-1
  observer watch build-agent                    watch the profile just added
  eval "$(observer completion bash)"            complete commands and options on TAB
  observer <command> --help                     help and an example for each command
"""


def _command_modules(only: str | None = None) -> list[ModuleType]:
    found = []
    for info in pkgutil.iter_modules(commands.__path__):
        if info.name.startswith("_") or only not in (None, info.name):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        if hasattr(module, "NAME") and hasattr(module, "run"):
            found.append(module)
    return sorted(found, key=lambda m: str(m.NAME))


def _command_names() -> set[str]:
    """The commands' names (a command's module is named after it), without importing them."""
    return {i.name for i in pkgutil.iter_modules(commands.__path__) if not i.name.startswith("_")}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """Return the parser with one sub-parser per command module (``only``: that command's
    alone, so running one command imports no other command's module)."""
    parser = CommandLineParser(
        prog="observer",
        description="Watch, take over, record and replay an AI coding agent's terminal.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"observer {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _command_modules(only):
        command = sub.add_parser(
            module.NAME,
            help=module.HELP,
            description=getattr(module, "DESCRIPTION", module.HELP),
            epilog=getattr(module, "EPILOG", None),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.register(command)
        command.set_defaults(_run=module.run)
    return parser


def _parser_of(parser: argparse.ArgumentParser, name: str | None) -> argparse.ArgumentParser:
    """The sub-parser of command ``name`` (the top parser when there is none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and name in action.choices:
            return action.choices[name]  # type: ignore[no-any-return]
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the process exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    named = words[0] if words and words[0] in _command_names() else None
    parser = build_parser(named)
    args, extra = parser.parse_known_args(words)
    if extra:  # said by the command's own parser, so the line names its --help
        _parser_of(parser, named).error(f"unrecognized arguments: {' '.join(extra)}")
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_help()
        return 2
    try:
        return int(run(args))
    except ObserverError as error:
        print(f"observer: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("observer: interrupted", file=sys.stderr)
        return 130
