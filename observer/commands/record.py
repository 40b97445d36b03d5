"""``observer record``: record a remote terminal to an asciicast file, headless (no TUI)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from observer.commands._options import (
    IDENTIFIER_HELP,
    add_identifier_option,
    add_output_option,
    add_overwrite_option,
    add_size_option,
    refuse_existing,
)
from observer.commands._recording_options import (
    add_format_option,
    add_redaction_option,
    own_secrets,
    record_format,
)
from observer.protocol.adapters import PROTOCOL_CHOICES

if TYPE_CHECKING:
    from collections.abc import Coroutine

    from observer.client.events import SessionEvent
    from observer.client.watched import WatchedSession
    from observer.transport.connection import Connection

PIECE = 64 * 1024
"""Bytes of output parsed at a time."""

NAME = "record"
HELP = "record a remote terminal to an asciicast file without the TUI (watch only)"
DESCRIPTION = """\
Connect to an endpoint in watch mode (its only session without --identifier, as watch does) and write everything it shows to an asciicast file (v2 by
default, which every player reads; v3 with --format v3), crash-safe: a killed recorder leaves a playable file. Reconnects
resume with since= where the protocol allows; a gap that could not be replayed is marked. Markers,
as watch --record writes them: connect, disconnect/reconnect (one pair per outage), gap, "joined
mid-stream" (raw, ttyd, Jupyter: no snapshot of the screen), takeover start/end (another client's),
the agent's notifications, exit. A peer whose program ends with the connection (ttyd, raw) is not
reconnected: for ttyd that would start a new program. The
token comes from the keyring (`observer auth login URL`) or OBSERVER_TOKEN, never the command line.
The recorder never sends input or resizes the remote terminal.
"""
EPILOG = """\
examples:
  observer record wss://sandbox.example --identifier agent-7 -o agent-7.cast --duration 600
  observer record http://127.0.0.1:8888 --protocol jupyter --identifier 1 -o term.cast
  observer record ws://127.0.0.1:7681/ws --protocol ttyd -o ttyd.cast --format v3
"""


def register(parser: argparse.ArgumentParser) -> None:
    """Add the ``record`` options."""
    parser.add_argument("url", metavar="URL", help="endpoint URL (ws, wss, http or https)")
    add_identifier_option(parser, IDENTIFIER_HELP, default="")
    add_output_option(parser, "asciicast file to create", required=True)
    add_overwrite_option(parser)
    parser.add_argument(
        "--duration", type=float, metavar="SECONDS", help="stop after SECONDS seconds"
    )
    parser.add_argument(
        "--protocol",
        default="auto",
        choices=PROTOCOL_CHOICES,
        help="peer protocol (default auto: detected from the negotiated subprotocol)",
    )
    add_format_option(parser)
    add_size_option(parser, "size announced where the protocol asks (ttyd)", default="80x24")
    parser.add_argument("--api-version", default=None, help="endpoint API version")
    parser.add_argument(
        "--audience", default=None, help="expected JWT audience (refuse tokens for another)"
    )
    parser.add_argument(
        "--ping-interval",
        type=float,
        default=20.0,
        metavar="SECONDS",
        help="keepalive ping every SECONDS seconds (default 20)",
    )
    parser.add_argument(
        "--ping-timeout",
        type=float,
        default=20.0,
        metavar="SECONDS",
        help="declare the connection dead after SECONDS without a pong, then reconnect "
        "(default 20)",
    )
    add_redaction_option(parser)


def run(args: argparse.Namespace) -> int:
    """Record until the session ends, the duration passes or Ctrl-C."""
    import asyncio

    from observer.commands._which_session import identifier_for
    from observer.errors import UsageError
    from observer.protocol.adapters import parse_protocol

    for name in ("duration", "ping_interval", "ping_timeout"):
        value = getattr(args, name)
        if value is not None and value <= 0:
            raise UsageError(f"--{name.replace('_', '-')} must be a positive number of seconds")
    refuse_existing(args.output, args.overwrite)
    protocol = parse_protocol(args.protocol)
    args.identifier = identifier_for(args.url, args.identifier, protocol, args.api_version)
    return asyncio.run(_record(args))


async def _token(url: str) -> tuple[Any, Exception | None]:
    from observer.credentials.store import TokenStore
    from observer.errors import TokenStoreError

    try:
        return await TokenStore().get_async(url), None
    except TokenStoreError as error:  # maybe the endpoint needs no token; say why if it does
        return None, error


async def _record(args: argparse.Namespace) -> int:
    import asyncio
    import contextlib
    import time

    from observer.client.watched import WatchedSession
    from observer.errors import ConnectionFailed
    from observer.protocol.adapters import parse_protocol
    from observer.recording.file_policy import recording_policy
    from observer.terminal.size import parse_size
    from observer.transport.connection import Connection
    from observer.transport.settings import API_VERSION, ConnectionSettings

    cols, rows = parse_size(args.size, "--size")
    settings = ConnectionSettings(
        args.url,
        identifier=args.identifier,
        protocol=parse_protocol(args.protocol),
        mode="watch",
        api_version=args.api_version or API_VERSION,
        audience=args.audience,
        cols=cols,
        rows=rows,
        ping_interval=args.ping_interval,
        ping_timeout=args.ping_timeout,
    )
    token, store_error = await _token(args.url)
    policy = recording_policy(
        args.output,
        identifier=args.identifier or None,
        endpoint=args.url,
        format=record_format(args),
        overwrite=args.overwrite,
        redact=args.redact,
        secrets=own_secrets(token),
    )
    session = WatchedSession(
        identifier=args.identifier,
        size=(cols, rows),
        recording=policy,
        reconnect=settings.reconnect_policy(),
        scrollback=0,  # its model finds the agent's notifications; nobody scrolls it
        stop_at_exit=True,
    )
    connection = Connection(settings, session, token)
    started = time.monotonic()
    reporter = asyncio.ensure_future(_report(connection))
    try:
        await _until_stopped(connection.run(), args.duration)
    except ConnectionFailed as failure:
        if failure.status in (401, 403) and token is None and store_error is not None:
            raise store_error from None
        raise
    finally:
        with contextlib.suppress(Exception):
            await connection.close()
        reporter.cancel()
        parse_all(session)
        session.end_recording()
        _tell(session.take_events())
    if policy.sink is None:
        print(f"observer: nothing was recorded — {args.output} was not created", file=sys.stderr)
        return 1
    events = getattr(policy.sink, "events", 0)
    elapsed = time.monotonic() - started
    print(f"recorded {events} events in {elapsed:.1f} s to {args.output}", file=sys.stderr)
    return 0


async def _until_stopped(recording: Coroutine[Any, Any, object], duration: float | None) -> None:
    """Run ``recording`` until it ends, ``duration`` seconds pass, or Ctrl-C / SIGTERM: each
    ends the recording the same way, with its file closed and its summary printed."""
    import asyncio
    import contextlib
    import signal

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    signals = (signal.SIGINT, signal.SIGTERM)
    for number in signals:
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on Windows
            loop.add_signal_handler(number, stop.set)
    task = asyncio.ensure_future(recording)
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait((task, stopped), timeout=duration, return_when="FIRST_COMPLETED")
    finally:
        for number in signals:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(number)
        stopped.cancel()
        if not task.done():
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task  # raises what ended the recording (a refusal, say)


async def _report(connection: Connection) -> None:
    """Parse what arrived and tell what the session queued as it happens (a headless recorder
    has nobody else to tell)."""
    while True:
        await connection.received.wait()
        connection.received.clear()
        parse_all(connection.session)
        _tell(connection.session.take_events())


def parse_all(session: WatchedSession) -> None:
    """Feed ``session``'s model everything waiting, at once (no view to give way to): the model finds the
    agent's notifications, which the recording policy marks as it does for ``watch --record``."""
    import time

    while session.pending:
        session.feed(PIECE, time.monotonic())


def _tell(events: list[SessionEvent]) -> None:
    """Connection trouble and refusals on stderr."""
    from observer.client.events import NoticePosted

    for event in events:
        if isinstance(event, NoticePosted) and event.severity != "information":
            print(f"observer: {event.text}", file=sys.stderr)
