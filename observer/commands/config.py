"""``observer config``: where the config file is, what it holds, and adding a profile to it."""

from __future__ import annotations

import argparse
import sys

from observer.commands._help import URL_HELP, add_action
from observer.commands._options import IDENTIFIER_HELP, add_identifier_option
from observer.protocol.adapters import PROTOCOL_CHOICES

NAME = "config"
HELP = "show the config file (profiles, groups, settings) and add profiles to it"
DESCRIPTION = """\
The config file holds connection profiles, profile groups and app settings; never tokens (those
are in the OS keyring: `observer auth login URL`). It lives in the platform's user config directory,
or in $OBSERVER_CONFIG_DIR when that is set. Without an action, the file's path and contents are
shown. `add` appends a profile and keeps everything else in the file as it is.
"""
EPILOG = """\
examples:
  observer config                                         the file's path and contents
  observer config add build-agent wss://sandbox.example --identifier build-1
  observer watch build-agent                              then watch it by name
  observer config themes                                  the colour themes there are
"""
#: ``auto`` leaves the protocol out of the profile: it is detected when connecting.


def register(parser: argparse.ArgumentParser) -> None:
    """Add the ``show``/``add``/``themes`` sub-commands (``show`` when none is given)."""
    sub = parser.add_subparsers(dest="config_action", metavar="ACTION")
    add_action(
        sub, "show", "the config file's path and contents (the default)", "observer config show"
    )
    add = add_action(
        sub,
        "add",
        "add a connection profile",
        "observer config add build-agent wss://sandbox.example --identifier build-1",
        "observer config add lab http://127.0.0.1:8888 --identifier 1 --protocol jupyter",
        "observer config add shell ws://127.0.0.1:7681/ws --protocol ttyd",
    )
    add.add_argument("name", metavar="NAME", help="the profile's name: letters, digits, - and _")
    add.add_argument("url", metavar="URL", help=URL_HELP)
    # The same options, spelled as `observer watch` spells them: a profile holds what watch takes.
    add_identifier_option(add, IDENTIFIER_HELP, default="")
    add.add_argument(
        "--protocol",
        choices=PROTOCOL_CHOICES,
        default="auto",
        help="the peer's protocol (default: auto, detected when connecting)",
    )
    add.add_argument("--api-version", help="endpoint API version")
    add_action(
        sub,
        "themes",
        "list the colour themes: built in and in the config directory",
        "observer config themes",
    )


def run(args: argparse.Namespace) -> int:
    """Run one ``config`` action; errors are raised as :class:`~observer.errors.ObserverError`."""
    action = args.config_action or "show"
    if action == "add":
        return _add(args)
    if action == "themes":
        return _themes()
    return _show()


def _show() -> int:
    from observer.runtime.config import config_path, load_config

    path = config_path()
    load_config(path)  # a broken file, or one with a token in it, is reported and not printed
    print(f"# {path}")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        print(
            "# (no config file yet) — add a profile with "
            "`observer config add NAME URL --identifier ID`"
        )
        return 0
    # Valid TOML has no raw control characters (TOML 1.0: none but tab and newlines, even in
    # comments), so a file that parsed cannot drive the terminal.
    sys.stdout.write(text if text.endswith("\n") or not text else text + "\n")
    return 0


def _add(args: argparse.Namespace) -> int:
    from observer.commands._which_session import identifier_for
    from observer.protocol.adapters import parse_protocol
    from observer.protocol.endpoints import parse_endpoint
    from observer.runtime.config import DEFAULT_API_VERSION, Profile, add_profile

    parse_endpoint(args.url)  # a URL that cannot work is refused before it is written
    protocol = parse_protocol(args.protocol)
    profile = Profile(
        name=args.name,
        url=args.url,
        identifier=identifier_for(args.url, args.identifier, protocol, args.api_version),
        protocol=protocol,
        api_version=args.api_version or DEFAULT_API_VERSION,
    )
    path = add_profile(profile)
    print(f"added profile {profile.name!r} to {path} — watch it with `observer watch {args.name}`")
    return 0


def _themes() -> int:
    from observer.runtime.config import config_dir
    from observer.themes import load_themes, user_theme_dir

    directory = config_dir()
    themes, problems = load_themes(directory)
    for name in sorted(themes):
        theme = themes[name]
        print(f"{name}  {'dark' if theme.dark else 'light'}  {theme.source}")
    for problem in problems:
        print(f"observer: warning: {problem}", file=sys.stderr)
    print(f"# add your own as {user_theme_dir(directory)}/NAME.toml")
    return 0
