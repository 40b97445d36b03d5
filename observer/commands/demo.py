"""``observer demo``: a scripted coding agent in a local sandbox endpoint, watched in the app."""

from __future__ import annotations

import argparse

from observer.commands._recording_options import (
    add_format_option,
    add_record_options,
    add_redaction_option,
    record_format,
)

NAME = "demo"
HELP = "watch a scripted coding agent in a local sandbox endpoint (start here)"
DESCRIPTION = """\
Starts the sandbox endpoint in this process on a free loopback port, with a random token held only
in memory, runs a scripted coding agent in its PTY (it thinks, streams prose, edits a file, runs
tests, takes over the full screen, then asks a question and waits) and opens the app watching it.
You start in WATCH mode: press ctrl+t, then y, to take control and answer the agent's question; ctrl+]
hands the keyboard back; ctrl+q quits.
"""
EPILOG = """\
examples:
  observer demo
  observer demo --theme dracula --record demo.cast
"""


def register(parser: argparse.ArgumentParser) -> None:
    """Add the arguments."""
    parser.add_argument("--theme", metavar="NAME", help="colour theme")
    add_record_options(parser)
    add_format_option(parser)
    add_redaction_option(parser)
    parser.add_argument(
        "--speed",
        type=float,
        default=1.0,
        metavar="FACTOR",
        help="agent speed factor (default 1; 2 = twice as fast)",
    )


def pty_size() -> tuple[int, int]:
    """The agent's terminal size: the local window less the app's border and status bar."""
    import shutil

    cols, rows = shutil.get_terminal_size((100, 30))
    return max(40, cols - 2), max(10, rows - 3)


async def _run(args: argparse.Namespace) -> int:
    import os
    import secrets
    import sys

    from observer.app import textual_patches
    from observer.app.app import ObserverApp
    from observer.auth.tokens import Authenticator, TokenDigests
    from observer.commands.watch import build_link
    from observer.credentials.store import Secret
    from observer.demo import AGENT
    from observer.runtime.config import Profile, config_dir, load_config
    from observer.server import Server

    token = secrets.token_urlsafe(32)  # held only in this process's memory
    env = {**os.environ, "OBSERVER_DEMO_SPEED": str(args.speed), "TERM": "xterm-256color"}
    env.pop("OBSERVER_TOKEN", None)
    server = Server(
        [sys.executable, str(AGENT)],
        auth=Authenticator(TokenDigests.from_tokens([("control", token)])),
        identifiers=("demo",),
        size=pty_size(),
        env=env,
    )
    await server.start()
    try:
        url = f"ws://127.0.0.1:{server.port}/"
        config = load_config()
        profile = Profile(name="demo", url=url, identifier="demo", protocol="observer")
        link = build_link(
            profile,
            record=args.record,
            format=record_format(args, config),
            overwrite=args.overwrite,
            redact=args.redact,
            idle_release=config.idle_release,
            token=Secret(token),
        )
        app = ObserverApp([link], theme=args.theme or config.theme, config_dir=config_dir())
        textual_patches.install()
        await app.run_async()
        if app.fatal is not None:
            raise app.fatal
        return app.return_code or 0
    finally:
        await server.stop()


def run(args: argparse.Namespace) -> int:
    """Run the demo until the app quits."""
    import asyncio

    from observer.commands._options import refuse_existing

    refuse_existing(args.record, args.overwrite, "--record")
    return asyncio.run(_run(args))
