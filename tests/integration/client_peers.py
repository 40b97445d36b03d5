"""Real peers for the client tests: WebSocket servers on 127.0.0.1:0 bridging a real PTY.

``pty_bridge`` runs a command in a PTY and speaks either the raw protocol (binary frames both
ways) or ttyd's (``tty`` subprotocol, JSON init, one-byte commands), as ttyd 1.7's
``src/protocol.c`` does: the first client message must be the init with ``AuthToken``; ``0`` input
is dropped unless writable (``-W``); ``1`` resize is honoured even when read-only (as ttyd does,
which is why the client must never send it while watching). Everything the PTY wrote is kept in
``output`` so tests can compare what the client got with what the program wrote.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import fcntl
import json
import os
import pty
import struct
import subprocess
import termios
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from websockets.asyncio.server import ServerConnection, serve
from websockets.http11 import Request, Response

from observer.protocol.events import OutputReceived
from tests.client_support import Seen


@dataclass
class Bridge:
    port: int = 0
    output: bytearray = field(default_factory=bytearray)
    received: list[bytes | str] = field(default_factory=list)
    sizes: list[tuple[int, int]] = field(default_factory=list)
    inits: list[dict[str, object]] = field(default_factory=list)
    request_headers: list[dict[str, str]] = field(default_factory=list)
    process: subprocess.Popen[bytes] | None = None
    master: int = -1

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


def _basic(credential: str) -> str:
    return base64.b64encode(credential.encode()).decode()


def _set_size(fd: int, cols: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def _spawn(command: list[str], cols: int, rows: int) -> tuple[subprocess.Popen[bytes], int]:
    master, slave = pty.openpty()
    _set_size(slave, cols, rows)
    env = dict(os.environ, TERM="xterm-256color")
    process = subprocess.Popen(
        command,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        start_new_session=True,
        env=env,
        close_fds=True,
    )
    os.close(slave)
    os.set_blocking(master, False)
    return process, master


@contextlib.asynccontextmanager
async def pty_bridge(
    command: list[str],
    *,
    flavour: str = "raw",
    writable: bool = True,
    backlog: bool = True,
    credential: str | None = None,
    cols: int = 80,
    rows: int = 24,
) -> AsyncIterator[Bridge]:
    """Serve ``command``'s PTY to every client (broadcast), raw or ttyd-style.

    With ``backlog`` a new client first gets everything written so far (so a test never races the
    program's first line); without it, a client sees only what is written after it joined.
    """
    bridge = Bridge()
    clients: dict[ServerConnection, asyncio.Queue[bytes]] = {}
    loop = asyncio.get_running_loop()
    process, master = _spawn(command, cols, rows)
    bridge.process, bridge.master = process, master
    prefix = b"0" if flavour == "ttyd" else b""

    def readable() -> None:
        try:
            data = os.read(master, 65536)
        except OSError:
            data = b""
        if not data:
            loop.remove_reader(master)
            for client in list(clients):
                client.transport.abort()  # ttyd: the TCP connection just closes
            return
        bridge.output += data
        for queue in clients.values():
            queue.put_nowait(prefix + data)

    async def sender(client: ServerConnection, queue: asyncio.Queue[bytes]) -> None:
        # One writer per client keeps frames in PTY order.
        with contextlib.suppress(Exception):
            while True:
                await client.send(await queue.get())

    async def handler(connection: ServerConnection) -> None:
        bridge.request_headers.append(
            dict(connection.request.headers.raw_items()) if connection.request else {}
        )
        if flavour == "ttyd":
            first = await connection.recv()
            try:
                init = json.loads(first)
            except ValueError:
                return  # ttyd drops a connection whose first frame is not the init
            bridge.inits.append(init)
            if credential is not None and init.get("AuthToken") != _basic(credential):
                await connection.close(1008, "authentication failed")  # as ttyd does
                return
            _set_size(master, int(init["columns"]), int(init["rows"]))
            bridge.sizes.append((int(init["columns"]), int(init["rows"])))
            await connection.send(b"1observer-test-title")
            await connection.send(b'2{"fontSize":14}')
        queue: asyncio.Queue[bytes] = asyncio.Queue()
        if backlog and bridge.output:
            queue.put_nowait(prefix + bytes(bridge.output))
        clients[connection] = queue
        writer = asyncio.create_task(sender(connection, queue))
        try:
            async for message in connection:
                bridge.received.append(message)
                data = message.encode() if isinstance(message, str) else message
                if flavour == "ttyd":
                    command_byte, data = data[:1], data[1:]
                    if command_byte == b"1":
                        size = json.loads(data)
                        bridge.sizes.append((size["columns"], size["rows"]))
                        _set_size(master, size["columns"], size["rows"])
                        continue
                    if command_byte != b"0" or not writable:
                        continue
                os.write(master, data)
        finally:
            clients.pop(connection, None)
            writer.cancel()

    def check_basic(connection: ServerConnection, request: Request) -> Response | None:
        # ttyd -c: an upgrade without the right Basic header is closed with no HTTP response
        # (the response below is written to an aborted transport: nothing leaves).
        if credential is not None and request.headers.get("Authorization") != "Basic " + _basic(
            credential
        ):
            connection.transport.abort()
            return connection.respond(403, "")
        return None

    subprotocols = ["tty"] if flavour == "ttyd" else None
    loop.add_reader(master, readable)
    async with serve(
        handler,
        "127.0.0.1",
        0,
        subprotocols=subprotocols,
        compression=None,
        process_request=check_basic,
        open_timeout=2,
        close_timeout=1,
    ) as server:  # type: ignore[arg-type]
        bridge.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        try:
            yield bridge
        finally:
            loop.remove_reader(master)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, 9)
            process.wait(timeout=10)
            os.close(master)


ECHO_SCRIPT = "import sys\nprint('ready', flush=True)\nfor line in sys.stdin: print('got', line.strip(), flush=True)"


async def collect_until(events: object, predicate: object, timeout: float = 15.0) -> list[Seen]:
    seen: list[Seen] = []
    output = bytearray()

    async def run() -> None:
        async for event in events:  # type: ignore[attr-defined]
            seen.append(event)
            if isinstance(event, OutputReceived):
                output.extend(event.data)
            if predicate(seen, bytes(output)):  # type: ignore[operator]
                return

    await asyncio.wait_for(run(), timeout)
    return seen


def text_of(events: list[Seen]) -> bytes:
    return b"".join(e.data for e in events if isinstance(e, OutputReceived))
