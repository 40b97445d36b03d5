"""What every command's actions share: a sub-parser whose help ends with examples."""

from __future__ import annotations

import argparse
from typing import Any

#: How every command describes an endpoint URL argument.
URL_HELP = "endpoint URL (ws, wss, http or https)"


def add_action(actions: Any, name: str, summary: str, *examples: str) -> argparse.ArgumentParser:
    """Add the action ``name`` to ``actions`` (what ``add_subparsers`` returned).

    Args:
        actions: the sub-parsers object of a command.
        name: the action's name.
        summary: one line for the command's help and the action's own.
        examples: command lines shown under ``example:`` in the action's ``--help``.
    """
    parser: argparse.ArgumentParser = actions.add_parser(
        name,
        help=summary,
        description=summary,
        epilog="example:\n" + "".join(f"  {line}\n" for line in examples),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser
