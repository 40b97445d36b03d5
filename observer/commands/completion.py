"""``observer completion``: a shell completion script generated from the argument parser.

`shtab <https://github.com/iterative/shtab>`_ writes the script from the same parser that
``observer`` runs, so every command, action, option and choice completes as it is defined and no
script is kept by hand. Arguments that name files complete as paths.
"""

from __future__ import annotations

import argparse
from pathlib import Path

NAME = "completion"
HELP = "print a completion script for bash, zsh or fish"
SHELLS = ("bash", "zsh", "fish")
DESCRIPTION = """\
Print a script that makes the shell complete observer's commands, actions, options and their
choices (file arguments complete as paths). Load it in the shell's start-up file, or write it
where the shell looks for completions.
"""
EPILOG = """\
examples:
  observer completion bash > ~/.local/share/bash-completion/completions/observer
  echo 'eval "$(observer completion bash)"' >> ~/.bashrc
  observer completion zsh > ~/.zfunc/_observer      with fpath+=~/.zfunc before compinit
  observer completion fish > ~/.config/fish/completions/observer.fish
"""
#: Metavars of arguments that name a file, whatever module defines them.
_FILE_METAVARS = {"FILE", "OUT", "PEM", "PATH", "DIR"}


def register(parser: argparse.ArgumentParser) -> None:
    """Add the shell argument."""
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete in")


def run(args: argparse.Namespace) -> int:
    """Print the script for ``args.shell``."""
    import shtab

    from observer.cli import build_parser

    parser = build_parser()
    _prepare(parser, shtab.FILE)
    print(shtab.complete(parser, shell=args.shell), end="")
    return 0


def _prepare(parser: argparse.ArgumentParser, files: object) -> None:
    """Tell shtab which arguments are paths (``type=Path``, or a file-like metavar: the shell
    then completes file and folder names there), and describe each command by its one-line help
    (shtab shows a command's description, whose first line is cut mid-sentence)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for name, command in action.choices.items():
                command.description = helps.get(name) or command.description
                _prepare(command, files)
        elif action.type is Path or action.metavar in _FILE_METAVARS:
            action.complete = files  # type: ignore[attr-defined]
