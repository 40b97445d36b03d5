"""``observer record``: record a remote terminal to an asciicast file, headless (no TUI)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from observer.recording import Recorder
    from observer.transport import ConnectionEvent

NAME = "record"
HELP = "record a remote terminal to an asciicast file without the TUI (watch only)"
DESCRIPTION = """\
Connect to an endpoint in watch mode and write everything it shows to an asciicast file (v3 by
default, v2 with --format v2), crash-safe: a killed recorder leaves a playable file. Reconnects
resume with since= where the protocol allows; a gap that could not be replayed is marked. Markers:
connect, reconnect, gap, "joined mid-stream" (raw, ttyd, Jupyter: no snapshot of the screen). The
token comes from the keyring (`observer auth login URL`) or OBSERVER_TOKEN, never the command line.
The recorder never sends input or resizes the remote terminal.
"""
EPILOG = """\
examples:
  observer record wss://sandbox.example --identifier agent-7 -o agent-7.cast --duration 600
  observer record http://127.0.0.1:8888 --protocol jupyter --identifier 1 -o term.cast
  observer record ws://127.0.0.1:7681/ws --protocol ttyd -o ttyd.cast --format v2
"""


def register(parser: argparse.ArgumentParser) -> None:
    """Add the ``record`` options."""
    parser.add_argument("url", metavar="URL", help="endpoint URL (ws, wss, http or https)")
    parser.add_argument(
        "--identifier", default="", help="session identifier (Jupyter: terminal name)"
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="FILE", help="asciicast file to create"
    )
    parser.add_argument("--duration", type=float, metavar="S", help="stop after S seconds")
    parser.add_argument(
        "--protocol",
        default="auto",
        help="observer, raw, ttyd, jupyter, or auto (from the negotiated subprotocol; default)",
    )
    parser.add_argument("--format", choices=("v3", "v2"), default="v3", help="asciicast version")
    parser.add_argument(
        "--size",
        default="80x24",
        metavar="COLSxROWS",
        help="size announced where the protocol asks (ttyd)",
    )
    parser.add_argument("--api-version", default=None, help="api-version query parameter")
    parser.add_argument(
        "--audience", default=None, help="expected JWT audience (refuse tokens for another)"
    )
    parser.add_argument(
        "--ping-interval",
        type=float,
        default=20.0,
        metavar="S",
        help="keepalive ping every S seconds (default 20)",
    )
    parser.add_argument(
        "--ping-timeout",
        type=float,
        default=20.0,
        metavar="S",
        help="declare the connection dead after S seconds without a pong, then reconnect (default 20)",
    )
    parser.add_argument("--overwrite", action="store_true", help="replace FILE if it exists")


def run(args: argparse.Namespace) -> int:
    """Record until the session ends, the duration passes or Ctrl-C."""
    import asyncio

    from observer.errors import UsageError

    for name in ("duration", "ping_interval", "ping_timeout"):
        value = getattr(args, name)
        if value is not None and value <= 0:
            raise UsageError(f"--{name.replace('_', '-')} must be a positive number of seconds")
    return asyncio.run(_record(args))


def _size(text: str) -> tuple[int, int]:
    from observer.errors import UsageError

    cols, _, rows = text.lower().partition("x")
    if not (cols.isdigit() and rows.isdigit()) or not (
        0 < int(cols) <= 1000 and 0 < int(rows) <= 1000
    ):
        raise UsageError(f"--size {text!r} is not COLSxROWS — write it like 120x40")
    return int(cols), int(rows)


async def _token(url: str) -> tuple[Any, Exception | None]:
    from observer.errors import TokenStoreError
    from observer.secrets import TokenStore

    try:
        return await TokenStore().get_async(url), None
    except TokenStoreError as error:  # maybe the endpoint needs no token; say why if it does
        return None, error


async def _record(args: argparse.Namespace) -> int:
    import asyncio
    import contextlib

    from observer.errors import ConnectionFailed
    from observer.protocol.adapters import parse_protocol
    from observer.transport import API_VERSION, Connection, ConnectionSettings

    cols, rows = _size(args.size)
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
    connection = Connection(settings, token)
    sink = RecordingSink(args, connection.endpoint.origin)
    try:
        async with asyncio.timeout(args.duration):
            async for event in connection.events():
                sink.handle(event)
                if sink.exited:
                    break  # the agent's program ended: the recording is complete
    except TimeoutError:
        pass  # --duration reached
    except ConnectionFailed as failure:
        if failure.status in (401, 403) and token is None and store_error is not None:
            raise store_error from None
        raise
    finally:
        with contextlib.suppress(Exception):
            await connection.close()
        sink.close()
    if sink.recorder is None:
        print(f"observer: nothing was recorded — {args.output} was not created", file=sys.stderr)
        return 1
    print(
        f"recorded {sink.recorder.events} events in {sink.elapsed:.1f} s to {args.output}",
        file=sys.stderr,
    )
    return 0


class RecordingSink:
    """Turn connection events into asciicast events, creating the file at the first screen."""

    def __init__(self, args: argparse.Namespace, origin: str) -> None:
        self.args = args
        self.origin = origin
        self.recorder: Recorder | None = None
        self.elapsed = 0.0
        self.size = (0, 0)
        self.exited = False
        self._connections = 0

    def _open(self, cols: int, rows: int, title: str) -> Recorder:
        from observer.recording import Recorder

        if self.recorder is None:
            self.recorder = Recorder(
                self.args.output,
                cols=cols,
                rows=rows,
                title=title or None,
                identifier=self.args.identifier or None,
                endpoint=self.origin,
                format=self.args.format,
                overwrite=self.args.overwrite,
            )
            self.recorder.marker("connect")
            self.size = (cols, rows)
        return self.recorder

    def _resize(self, recorder: Recorder, cols: int, rows: int) -> None:
        if (cols, rows) != self.size:
            recorder.resize(cols, rows)
            self.size = (cols, rows)

    def handle(self, event: ConnectionEvent) -> None:
        """Record one event (and report connection trouble on stderr)."""
        from observer.protocol import events as ev
        from observer.transport import Connected, Disconnected, GapDetected, Reconnecting

        recorder = self.recorder
        match event:
            case ev.SessionStarted(cols=cols, rows=rows, title=title, complete=complete):
                fresh = recorder is None
                recorder = self._open(cols, rows, title)
                self._resize(recorder, cols, rows)
                if not complete and fresh:
                    recorder.marker("joined mid-stream: the screen may be incomplete")
            case ev.OutputReceived(data=data) if recorder is not None:
                recorder.output(data)
            case ev.SnapshotReceived(data=data, cols=cols, rows=rows, gap=gap):
                recorder = self._open(cols, rows, "")
                if gap:
                    recorder.marker("gap")
                self._resize(recorder, cols, rows)
                # A snapshot repaints a fresh terminal: reset (RIS, ECMA-48 8.3.105) then repaint.
                recorder.output(b"\x1bc" + data)
            case ev.Resized(cols=cols, rows=rows) if recorder is not None:
                self._resize(recorder, cols, rows)
            case ev.Exited(status=status) if recorder is not None:
                self.exited = True
                if status is None:
                    recorder.marker("exit")
                else:
                    recorder.exit(status)
            case GapDetected() if recorder is not None:
                recorder.marker("gap")
            case Connected():
                self._connections += 1
                if self._connections > 1 and recorder is not None:
                    recorder.marker("reconnect")
            case Reconnecting(delay=delay, reason=reason):
                print(f"observer: {reason} — reconnecting in {delay:.1f} s", file=sys.stderr)
            case Disconnected(reason=reason):
                print(f"observer: disconnected: {reason}", file=sys.stderr)
            case ev.ProtocolViolation(reason=reason):
                print(f"observer: the endpoint sent something malformed: {reason}", file=sys.stderr)
            case _:
                pass
        if self.recorder is not None:
            self.elapsed = self.recorder.elapsed()

    def close(self) -> None:
        """Close the file (flush + fsync)."""
        if self.recorder is not None:
            self.recorder.close()
