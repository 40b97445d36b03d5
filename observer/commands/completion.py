"""``observer completion``: a shell completion script generated from the argument parser.

`shtab <https://github.com/iterative/shtab>`_ writes the script from the same parser that
``observer`` runs, so every command, action, option and choice completes as it is defined and no
script is kept by hand. Arguments that name files complete as paths; profiles, themes and
identifiers complete with the user's own (the script runs ``observer completion --names KIND``:
:mod:`observer.commands._completion_names`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from observer.commands._completion_names import KINDS

NAME = "completion"
HELP = "print a completion script for bash, zsh or fish"
SHELLS = ("bash", "zsh", "fish")
DESCRIPTION = """\
Print a script that makes the shell complete observer's commands, actions, options and their
choices (file arguments complete as paths; profiles and groups, themes and session identifiers
complete with the config's own: identifiers as the profiles' endpoints list them, cached for a
minute). Load it in the shell's start-up file, or write it
where the shell looks for completions.
"""
EPILOG = """\
examples:
  observer completion bash > ~/.local/share/bash-completion/completions/observer
  echo 'eval "$(observer completion bash)"' >> ~/.bashrc
  observer completion zsh > ~/.zfunc/_observer      with fpath+=~/.zfunc before compinit
  observer completion fish > ~/.config/fish/completions/observer.fish
"""
#: What the scripts run to list names (quiet: an error must not land in the command line).
_NAMES = "observer completion --names {} 2>/dev/null"
#: Arguments (by destination) that name the user's things, and which kind.
_NAMED = {"targets": "profiles", "theme": "themes", "identifier": "identifiers"}
#: Metavars of arguments that name a file, whatever module defines them.
_FILE_METAVARS = {"FILE", "OUT", "PEM", "PATH", "DIR"}


def register(parser: argparse.ArgumentParser) -> None:
    """Add the shell argument."""
    parser.add_argument("shell", nargs="?", choices=SHELLS, help="the shell to complete in")
    # What the scripts run on TAB; not for people.
    parser.add_argument("--names", choices=KINDS, help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    """Print the script for ``args.shell`` (or, for the scripts, the names of ``args.names``)."""
    if args.names is not None:  # on every TAB: import nothing more than the names need
        from observer.commands._completion_names import names

        print("\n".join(names(args.names)))
        return 0
    import shtab

    from observer.cli import build_parser
    from observer.errors import UsageError

    if args.shell is None:
        raise UsageError("which shell?", f"give one of {', '.join(SHELLS)}")
    parser = build_parser()
    _prepare(parser, shtab.FILE)
    _complete_names(parser, {kind: shtab.cmd(_NAMES.format(kind)) for kind in KINDS})
    print(shtab.complete(parser, shell=args.shell), end="")
    return 0


def _complete_names(parser: argparse.ArgumentParser, commands: dict[str, object]) -> None:
    """Complete the arguments that name the user's things with their names (``commands``: the
    shell commands printing each kind)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                _complete_names(command, commands)
        elif action.dest in _NAMED:
            action.complete = commands[_NAMED[action.dest]]  # type: ignore[attr-defined]


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
