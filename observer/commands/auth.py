"""``observer auth``: store, remove and inspect endpoint tokens in the OS keyring."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from typing import TYPE_CHECKING

from observer.commands._help import URL_HELP, add_action

if TYPE_CHECKING:
    from observer.credentials.store import TokenStore

NAME = "auth"
HELP = "store, remove and inspect endpoint tokens (kept in the OS keyring)"
DESCRIPTION = """\
Tokens are kept in the OS keyring (service "observer", one entry per endpoint origin such as
wss://sandbox.example:443), never in files, arguments or the sandbox. OBSERVER_TOKEN in the
environment overrides the keyring for every endpoint (for CI). A token is never printed: `status`
shows whether one is stored and, for a JWT, its audience and expiry.
"""
EPILOG = """\
examples:
  observer auth login wss://sandbox.example          prompt for the token (no echo)
  vault read -field=token kv/agent | observer auth login https://sandbox.example --token-stdin
  observer auth status                               every endpoint with a token
  observer auth logout wss://sandbox.example
"""


def register(parser: argparse.ArgumentParser) -> None:
    """Add the ``login``/``logout``/``status``/``list`` sub-commands."""
    sub = parser.add_subparsers(dest="auth_action", metavar="ACTION", required=True)
    login = add_action(
        sub,
        "login",
        "store a token for an endpoint",
        "observer auth login wss://sandbox.example",
        "observer auth login https://sandbox.example --token-stdin < token.txt",
    )
    login.add_argument("url", metavar="URL", help=URL_HELP)
    login.add_argument(
        "--token-stdin",
        action="store_true",
        help="read the token from the first line of standard input instead of prompting",
    )
    logout = add_action(
        sub,
        "logout",
        "delete the stored token of an endpoint",
        "observer auth logout wss://sandbox.example",
    )
    logout.add_argument("url", metavar="URL", help=URL_HELP)
    status = add_action(
        sub,
        "status",
        "which endpoints have a token; JWT audience and expiry",
        "observer auth status",
        "observer auth status wss://sandbox.example",
    )
    status.add_argument(
        "url", metavar="URL", nargs="?", help=f"{URL_HELP}; without it, every one with a token"
    )
    add_action(
        sub,
        "list",
        "list the endpoints that have a stored token, one per line",
        "observer auth list",
    )


def run(args: argparse.Namespace) -> int:
    """Run one ``auth`` action; errors are raised as :class:`~observer.errors.ObserverError`."""
    from observer.credentials.store import TokenStore

    store = TokenStore()
    action = args.auth_action
    if action == "login":
        return _login(store, args.url, from_stdin=args.token_stdin)
    if action == "logout":
        return _logout(store, args.url)
    if action == "status":
        return _status(store, args.url)
    for origin in store.origins():
        print(origin)
    return 0


def _login(store: TokenStore, url: str, *, from_stdin: bool) -> int:
    import getpass
    import warnings

    from observer.credentials.store import Secret, inspect_token
    from observer.errors import UsageError
    from observer.protocol.endpoints import normalize_origin

    origin = normalize_origin(url)
    store.backend()  # a keyring that cannot store says so before the user pastes the token
    if from_stdin:
        token = sys.stdin.readline().strip()
    else:
        try:
            with warnings.catch_warnings():  # without a terminal getpass says so in words too
                warnings.simplefilter("ignore", getpass.GetPassWarning)
                token = getpass.getpass(f"Token for {origin} (input hidden): ").strip()
        except EOFError:  # Ctrl-D, or no terminal and nothing on stdin
            print(file=sys.stderr)
            raise UsageError(
                "no token was given (the input ended)",
                "paste the token at the prompt, or pipe it with --token-stdin",
            ) from None
    if not token:
        raise UsageError("no token was given", "paste the token, or pipe it with --token-stdin")
    store.set(origin, token)
    info = inspect_token(Secret(token), origin, "keyring")
    print(f"stored a token for {origin} in the keyring ({info.describe(_now())})")
    if info.expired(_now()):
        print(
            f"observer: warning: this token has expired — get a fresh one for {origin}",
            file=sys.stderr,
        )
    if store.environment_token() is not None:
        print("observer: note: OBSERVER_TOKEN is set and overrides the keyring", file=sys.stderr)
    return 0


def _logout(store: TokenStore, url: str) -> int:
    from observer.protocol.endpoints import normalize_origin

    origin = normalize_origin(url)
    if store.delete(origin):
        print(f"deleted the token for {origin}")
    else:
        print(f"no token was stored for {origin}")
    return 0


def _status(store: TokenStore, url: str | None) -> int:
    from observer.credentials.store import ENV_VAR
    from observer.protocol.endpoints import normalize_origin

    if store.environment_token() is not None:
        print(f"{ENV_VAR} is set: it is used for every endpoint instead of the keyring")
    origins = [normalize_origin(url)] if url else store.origins()
    if not origins:
        print("no endpoint has a stored token — store one with `observer auth login URL`")
        return 0
    missing = 0
    for origin in origins:
        info = store.info(origin)
        if info is None:
            missing += 1
            print(f"{origin}  no token — run `observer auth login {origin}`")
        else:
            print(f"{origin}  {info.source}: {info.describe(_now())}")
    return 1 if url and missing else 0


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)
