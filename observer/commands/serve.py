"""``observer serve``: the sandbox endpoint, a PTY per identifier over ``observer.v1``."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from observer.commands._options import add_identifier_option, add_size_option

if TYPE_CHECKING:
    from observer.server import Server

NAME = "serve"
HELP = "run a command on a PTY and serve it to observers (the sandbox endpoint)"
DESCRIPTION = """\
Run COMMAND on a pseudo-terminal (one per identifier) and let observers watch it and, with a
control token, take over its keyboard, over one WebSocket per observer (protocol observer.v1).
The server keeps no secret: --tokens names a file of token digests (create entries with
`observer token issue`), --jwt-public-key a public key. Without either it refuses to start, unless
it listens on loopback and you pass --insecure-no-auth.

The program gets the server's environment without the variables observer reads secrets from
(OBSERVER_TOKEN, KEYRING_PROPERTY_*): name one with --pass-env to give it anyway, or set what the
program needs in the command itself (`-- env NAME=value my-agent`).
"""
EPILOG = """\
examples:
  observer token issue control --tokens tokens.txt      # prints the token once
  observer serve --tokens tokens.txt -- bash
  observer serve --listen 0.0.0.0:8765 --tokens tokens.txt --identifier agent-1 -- my-agent
  observer serve --insecure-no-auth -- python3 -m http.server   # loopback experiments only
  observer serve --tokens tokens.txt --exit-with-program -- make test   # CI: its exit status

Clients connect to ws://HOST:PORT/?identifier=default&api-version=2024-02-02-preview
with the header `Authorization: Bearer <token>`; behind a TLS proxy the URL is wss://.
"""

DEFAULT_LISTEN = "127.0.0.1:8765"


def register(parser: argparse.ArgumentParser) -> None:
    """Add the server's options and the command to run."""
    parser.add_argument(
        "--listen",
        default=DEFAULT_LISTEN,
        metavar="HOST:PORT",
        help=f"address to listen on (default {DEFAULT_LISTEN})",
    )
    parser.add_argument(
        "--tokens", type=Path, metavar="FILE", help="file of '<watch|control> sha256:<hex>' lines"
    )
    parser.add_argument(
        "--jwt-public-key",
        type=Path,
        metavar="PEM",
        help="accept JWTs signed by this public key (needs observer-tty[jwt])",
    )
    parser.add_argument("--jwt-audience", metavar="AUD", help="required JWT audience")
    parser.add_argument("--jwt-issuer", metavar="ISS", help="required JWT issuer")
    parser.add_argument(
        "--jwt-role-claim",
        default="role",
        metavar="CLAIM",
        help="claim whose value 'control' grants control (default: role)",
    )
    add_identifier_option(
        parser, "session to start now (repeatable; default: 'default')", action="append"
    )
    parser.add_argument(
        "--create-on-connect",
        action="store_true",
        help="start a session for an unknown identifier when a client asks for it",
    )
    add_size_option(parser, "PTY size (default 120x40)", default="120x40")
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="browser Origin allowed to connect (repeatable; default: none)",
    )
    parser.add_argument(
        "--max-connections",
        type=int,
        default=256,
        metavar="N",
        help="clients over all sessions (default 256; a sixteenth kept for control tokens)",
    )
    parser.add_argument(
        "--max-per-token",
        type=int,
        metavar="N",
        help="clients one token may hold (default: half of --max-connections)",
    )
    parser.add_argument(
        "--pass-env",
        action="append",
        default=[],
        metavar="NAME",
        help="give the program this variable even if observer reads a secret from it "
        "(OBSERVER_TOKEN, KEYRING_PROPERTY_*; they are removed otherwise; repeatable)",
    )
    parser.add_argument(
        "--insecure-no-auth",
        action="store_true",
        help="admit everybody with control; only with a loopback --listen",
    )
    parser.add_argument(
        "--exit-with-program",
        action="store_true",
        help="stop when the program exits (every session's, with several) and exit with its "
        "status (a signal N: 128+N); watchers get its last output and exit first",
    )
    parser.add_argument(
        "--compress",
        action="store_true",
        help="offer permessage-deflate (less bandwidth, more CPU per watcher)",
    )
    parser.add_argument(
        "--grant-after-idle",
        type=float,
        metavar="SECONDS",
        help="hand the keyboard to whoever asks once its holder has not typed for this long "
        "(default: only the holder's answer hands it over)",
    )
    parser.add_argument(
        "command",
        nargs=argparse.REMAINDER,
        metavar="-- COMMAND [ARGS...]",
        help="program to run on the PTY",
    )


def run(args: argparse.Namespace) -> int:
    """Serve until SIGTERM or SIGINT (or, with ``--exit-with-program``, the program's end);
    then close clients with 1001 and end the children."""
    import asyncio
    import logging

    from observer.errors import UsageError
    from observer.terminal.size import parse_size

    # The PTY reader thread must get the GIL back quickly: the PTY holds ~20 KiB, and the
    # default 5 ms switch interval would cap the agent's output at a few MB/s under load.
    sys.setswitchinterval(0.0005)

    command = list(args.command)
    if command[:1] == ["--"]:
        command = command[1:]
    if not command:
        raise UsageError(
            "no command to run", "put it after `--`, e.g. `observer serve ... -- bash`"
        )
    if args.max_connections < 1 or (args.max_per_token is not None and args.max_per_token < 1):
        raise UsageError("--max-connections and --max-per-token must be 1 or more")
    if args.grant_after_idle is not None and not 0 < args.grant_after_idle < 86400 * 365:
        raise UsageError("--grant-after-idle must be a number of seconds above 0")
    host, port = parse_listen(args.listen)
    cols, rows = parse_size(args.size, "--size")
    auth = _authenticator(args, host)
    logging.basicConfig(level=logging.INFO, format="observer serve: %(message)s", stream=sys.stderr)
    logging.getLogger("websockets").setLevel(logging.WARNING)
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "auth": auth,
        "insecure": auth is None,
        "identifiers": args.identifier or ["default"],
        "create_on_connect": args.create_on_connect,
        "size": (cols, rows),
        "allowed_origins": args.allow_origin,
        "pass_env": args.pass_env,
        "max_connections": args.max_connections,
        "max_per_token": args.max_per_token,
        "compression": args.compress,
        "grant_idle": args.grant_after_idle,
    }
    return asyncio.run(_serve(command, options, exit_with_program=args.exit_with_program))


async def _serve(command: list[str], options: dict[str, Any], *, exit_with_program: bool) -> int:
    import asyncio
    import os
    import signal

    from observer.errors import ObserverError, UsageError
    from observer.server import Server

    server = Server(command, **options)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if server.token_watch is not None:  # SIGHUP: reread the token file now
        loop.add_signal_handler(signal.SIGHUP, server.token_watch.check, True)
    try:
        await server.start()
    except BaseException as error:
        await server.stop()  # sessions started before the failure end with it
        if not isinstance(error, OSError) or isinstance(error, ObserverError):
            raise
        # asyncio words strerror as "error while attempting to bind on address ...": say the
        # system's own words for the errno instead.
        reason = os.strerror(error.errno) if error.errno else str(error)
        raise UsageError(
            f"cannot listen on {options['host']}:{options['port']}: {reason}",
            "pick another --listen address",
        ) from None
    ids = ", ".join(options["identifiers"])
    print(
        f"observer serve: {ids} on ws://{_url_host(options['host'])}:{server.port}/"
        " — stop with Ctrl-C",
        file=sys.stderr,
        flush=True,
    )
    pacing = asyncio.create_task(_pace_collector(server))
    stopped = asyncio.ensure_future(stop.wait())
    ended = asyncio.ensure_future(_programs_ended(server)) if exit_with_program else None
    await asyncio.wait([t for t in (stopped, ended) if t], return_when=asyncio.FIRST_COMPLETED)
    status = 0
    if ended is not None and ended.done():
        status = ended.result()
        await _flushed(server, FLUSH_GRACE)
    for task in (stopped, ended, pacing):
        if task is not None:
            task.cancel()
    await server.stop()
    return status


FLUSH_GRACE = 2.0
"""Seconds the server waits, after its program ended, for watchers to take the last frames."""


async def _programs_ended(server: Server) -> int:
    """Wait until every session's program has exited; the first non-zero status, as a shell
    reports it (else 0)."""
    from observer.server.pty_process import shell_status

    while True:
        sessions = list(server.sessions.values())
        for session in sessions:
            await session.ended.wait()
        if len(server.sessions) == len(sessions):  # none was opened meanwhile
            break
    statuses = [shell_status(s.exit_status or 0) for s in sessions]
    return next((status for status in statuses if status), 0)


async def _flushed(server: Server, grace: float) -> None:
    """Give each watcher up to ``grace`` seconds to take what is queued for it (the program's
    last output and ``exit``) before the connections close."""
    import asyncio
    import contextlib

    async def drained() -> None:
        while any(c.lag for s in server.sessions.values() for c in s.clients):
            await asyncio.sleep(0.02)

    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(drained(), grace)


async def _pace_collector(server: Server) -> None:
    """Keep full garbage collections out of busy stretches (:mod:`observer.runtime.collector`): with 40
    agents drawing, the server's own took up to 330 ms, a pause of every watcher's tiles."""
    import asyncio

    from observer.runtime.collector import QUIET_AFTER, TICK_EVERY, CollectorPacing

    collector = CollectorPacing()
    try:
        while True:
            await asyncio.sleep(TICK_EVERY)
            collector.tick(server.busy(QUIET_AFTER))
    finally:
        collector.stop()


def _authenticator(args: argparse.Namespace, host: str) -> Any:
    from observer.auth.tokens import Authenticator, JwtVerifier, TokenDigests
    from observer.errors import UsageError
    from observer.transport.safety import loopback_addresses

    store = TokenDigests.load(args.tokens) if args.tokens is not None else None
    verifier = None
    if args.jwt_public_key is not None:
        if not args.jwt_audience:
            raise UsageError(
                "--jwt-public-key needs --jwt-audience", "name the audience tokens carry"
            )
        try:
            pem = args.jwt_public_key.read_bytes()
        except OSError as error:
            raise UsageError(f"cannot read {args.jwt_public_key}: {error.strerror}") from None
        verifier = JwtVerifier(
            pem, args.jwt_audience, issuer=args.jwt_issuer, role_claim=args.jwt_role_claim
        )
    if store is not None and len(store) == 0 and verifier is None:
        raise UsageError(
            f"{args.tokens} holds no token digest",
            f"add one with `observer token issue control --tokens {args.tokens}`",
        )
    if store is None and verifier is None:
        if not args.insecure_no_auth:
            raise UsageError(
                "no way to authenticate observers",
                "pass --tokens FILE (create it with `observer token issue control --tokens FILE`) "
                "or --jwt-public-key",
            )
        if not loopback_addresses(host):
            raise UsageError(
                "--insecure-no-auth only works with a loopback --listen address",
                "use --tokens to listen on other interfaces",
            )
        print(
            "observer serve: WARNING: no authentication; anybody on this machine can type "
            "into the session",
            file=sys.stderr,
        )
        return None
    if args.insecure_no_auth:
        raise UsageError("--insecure-no-auth contradicts --tokens/--jwt-public-key", "drop one")
    return Authenticator(store, verifier)


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` or ``[V6]:PORT`` to a host and a port."""
    from observer.errors import UsageError

    match = re.fullmatch(r"\[([0-9A-Fa-f:.]+)\]:(\d{1,5})|([^:\[\]]+):(\d{1,5})", text)
    if match is None:
        raise UsageError(f"bad --listen {text!r}", "use HOST:PORT, e.g. 127.0.0.1:8765")
    host = match.group(1) or match.group(3)
    port = int(match.group(2) or match.group(4))
    if port > 65535:
        raise UsageError(f"bad --listen port {port}", "use 0 to 65535")
    return host, port


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
