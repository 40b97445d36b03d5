"""``observer sessions URL``: the sessions an ``observer serve`` endpoint holds, as a table."""

from __future__ import annotations

import argparse

from observer.protocol.adapters import PROTOCOL_CHOICES

NAME = "sessions"
HELP = "list the sessions an endpoint serves (identifier, size, title, watchers, holder, exit)"
DESCRIPTION = """\
Ask an `observer serve` endpoint which sessions it holds (GET /sessions, no WebSocket) and print
them: identifier, size, title, how many watch and who (their tokens' labels), who holds control,
whether the program exited. Any valid token may ask, a watch token too; a token scoped to some
sessions lists only those. The token comes from the OS keyring
(`observer auth login URL`) or OBSERVER_TOKEN, never from the command line, and goes only over
https/wss with verified TLS or to a loopback address.
"""
EPILOG = """\
examples:
  observer sessions wss://sandbox.example.com
  observer sessions ws://127.0.0.1:8765 --json
  observer sessions http://127.0.0.1:8888 --protocol jupyter     a Jupyter Server's terminals
"""


def register(parser: argparse.ArgumentParser) -> None:
    """Add the URL and the output options."""
    parser.add_argument("url", metavar="URL", help="endpoint URL (ws, wss, http or https)")
    parser.add_argument(
        "--protocol",
        choices=PROTOCOL_CHOICES,
        default="auto",
        help="peer protocol (default auto: asked as `observer serve` is; a Jupyter Server's "
        "terminals with jupyter)",
    )
    parser.add_argument("--api-version", default=None, help="endpoint API version")
    parser.add_argument("--json", action="store_true", help="print the endpoint's JSON as it is")


def run(args: argparse.Namespace) -> int:
    """Fetch the list and print it (:mod:`observer.commands._which_session` says how)."""
    from observer.commands._which_session import show_served
    from observer.protocol.adapters import parse_protocol

    protocol = parse_protocol(args.protocol)
    return show_served(args.url, protocol, args.api_version, as_json=args.json)
