"""The server's use of websockets internals, checked against the installed websockets.

Everything :mod:`observer.server.websocket_adapter` relies on beyond websockets' documented API
(its protocol's state and extensions, ``paused`` and ``drain()``, the transport under a
connection, the handshake's ``handshake_exc``) is exercised here on a real loopback connection.
``python -m tests.unit.server.websockets_versions`` runs this file under every supported minor
version of websockets (pyproject: ``>=15,<18``), each in a virtual environment of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
import tomllib
from collections.abc import AsyncIterator
from http import HTTPStatus
from pathlib import Path

import pytest
import websockets
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from observer.server.websocket_adapter import (
    UNSENT_LIMIT,
    FrameSocket,
    guarded_connection,
    plain_response,
    set_budget,
    wire_frame,
)
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.timeout(30)


def test_the_installed_websockets_is_a_supported_version() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    [pin] = [d for d in pyproject["project"]["dependencies"] if d.startswith("websockets")]
    low, high = (int(n) for n in re.findall(r"[<>]=?(\d+)", pin))
    major = int(websockets.__version__.split(".")[0])
    assert low <= major < high, (websockets.__version__, pin)


@contextlib.asynccontextmanager
async def pair(
    compression: str | None = None,
) -> AsyncIterator[tuple[FrameSocket, ClientConnection]]:
    """A real server connection wrapped in a :class:`FrameSocket`, and its client."""
    accepted: asyncio.Queue[ServerConnection] = asyncio.Queue()
    done = asyncio.Event()

    async def handler(connection: ServerConnection) -> None:
        await accepted.put(connection)
        await done.wait()

    async with serve(handler, "127.0.0.1", 0, compression=compression) as server:
        port = server.sockets[0].getsockname()[1]
        async with connect(
            f"ws://127.0.0.1:{port}", compression=compression, max_size=None
        ) as client:
            yield FrameSocket(await accepted.get()), client
            done.set()


@pytest.mark.parametrize("length", [0, 125, 126, 65535, 65536, 300_000])
async def test_frames_written_directly_arrive_as_the_messages_they_were_built_from(
    length: int,
) -> None:
    async with pair() as (server, client):
        assert server.direct and server.takes_writes() and server.open()
        payload = bytes(range(256)) * (length // 256) + bytes(length % 256)
        server.write(wire_frame(payload))
        server.write(wire_frame("é ✓ text"))
        assert await client.recv() == payload
        assert await client.recv() == "é ✓ text"


async def test_a_compressed_connection_is_not_written_directly() -> None:
    async with pair(compression="deflate") as (server, client):
        assert not server.direct
        await server.send("through send()")
        assert await client.recv() == "through send()"


async def test_a_client_that_stops_reading_pauses_writes_until_it_drains() -> None:
    async with pair() as (server, client):
        chunk = wire_frame(b"x" * 65536)
        for _ in range(2000):  # up to 128 MB: far past every buffer on the way
            if server.paused:
                break
            server.write(chunk)
            await asyncio.sleep(0)  # one turn of the loop: the transport writes what it can
        assert server.paused and not server.takes_writes() and server.open()
        assert server.unsent() > 0
        draining = asyncio.create_task(server.drain())
        await asyncio.sleep(0.05)  # what is tested is that nothing happens meanwhile
        assert not draining.done()
        while not draining.done():
            await client.recv()
        assert not server.paused and server.takes_writes()
        client.transport.abort()  # megabytes are still queued: no closing handshake


async def test_a_closed_connection_takes_no_writes_and_send_raises() -> None:
    async with pair() as (server, client):
        await client.close()
        await server.connection.wait_closed()
        assert not server.open() and not server.takes_writes()
        with pytest.raises(ConnectionClosed):
            await server.send("late")


async def test_the_kernel_is_told_to_keep_little_unsent() -> None:
    async with pair() as (server, _):
        server.limit_unsent()
        sock = server.connection.transport.get_extra_info("socket")
        option = getattr(socket, "TCP_NOTSENT_LOWAT", None)
        if option is None:  # pragma: no cover - not Linux
            pytest.skip("TCP_NOTSENT_LOWAT is Linux's")
        assert sock.getsockopt(socket.IPPROTO_TCP, option) == UNSENT_LIMIT


async def test_requests_websockets_refuses_before_any_hook_are_reported() -> None:
    refused: list[tuple[HTTPStatus, str]] = []

    async def never(connection: ServerConnection) -> None:  # pragma: no cover - no upgrade
        raise AssertionError("a refused request reached the handler")

    connection_class = guarded_connection(
        lambda c, status, reason: refused.append((status, reason))
    )
    async with serve(never, "127.0.0.1", 0, create_connection=connection_class) as server:
        port = server.sockets[0].getsockname()[1]
        for request, status in (
            (f"GET /?{'a' * 20000} HTTP/1.1\r\n\r\n", 414),
            (f"GET / HTTP/1.1\r\nX-Pad: {'a' * 20000}\r\n\r\n", 431),
        ):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(request.encode())
            answer = await reader.read()
            writer.close()
            if answer:  # websockets >= 17 answers; the refusal is reported with its status
                assert answer.startswith(f"HTTP/1.1 {status} ".encode())
                await until(lambda: refused, "the refusal to be reported")
                assert [seen for seen, _ in refused] == [status]
                refused.clear()
            else:  # websockets 15 and 16 close without an answer: nothing was refused
                await asyncio.sleep(0.05)  # time for a report that must not come
                assert refused == []


async def test_a_plain_response_carries_its_content_type_and_is_not_cached() -> None:
    async def handler(connection: ServerConnection) -> None:  # pragma: no cover - no upgrade
        raise AssertionError("upgraded")

    def answer(connection: ServerConnection, request: object) -> object:
        return plain_response(connection, HTTPStatus.OK, '{"ok":true}', "application/json")

    async with serve(handler, "127.0.0.1", 0, process_request=answer) as server:  # type: ignore[arg-type]
        port = server.sockets[0].getsockname()[1]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /x HTTP/1.1\r\nHost: h\r\n\r\n")
        head, _, body = (await reader.read()).partition(b"\r\n\r\n")
        writer.close()
    lines = head.decode().split("\r\n")
    assert lines[0] == "HTTP/1.1 200 OK" and body == b'{"ok":true}'
    assert "Content-Type: application/json" in lines and "Cache-Control: no-store" in lines
    assert not any(line.lower().startswith("content-type: text/plain") for line in lines)


class Spent:
    """A budget that is always spent: every frame asks for a pause."""

    def __init__(self) -> None:
        self.frames = 0

    def spend(self) -> float:
        self.frames += 1
        return 0.2


async def test_control_frames_spend_the_budget_and_pause_reading_without_undoing_the_queue() -> (
    None
):
    """Pings reach the budget (websockets answers them below any handler), a spent budget stops
    reading for its pause, and websockets' own queue flow control still works through the gate."""
    accepted: asyncio.Queue[ServerConnection] = asyncio.Queue()

    async def handler(connection: ServerConnection) -> None:
        await accepted.put(connection)
        await connection.wait_closed()

    budget = Spent()
    connection_class = guarded_connection(lambda c, status, reason: None)
    async with (
        serve(handler, "127.0.0.1", 0, create_connection=connection_class, max_queue=4) as server,
        connect(f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}") as client,
    ):
        connection = await accepted.get()
        set_budget(connection, budget)
        await client.ping()
        await until(lambda: budget.frames, "the ping counted")
        assert budget.frames == 1
        assert not connection.transport.is_reading()  # paused for the budget's 0.2 s
        await until(connection.transport.is_reading, "reading again after the pause")
        for n in range(12):  # the queue (4) fills: websockets pauses reading, through the gate
            await client.send(f"m{n}")
        await until(lambda: not connection.transport.is_reading(), "reading paused by the queue")
        assert [await connection.recv() for _ in range(12)][-1] == "m11"
        assert connection.transport.is_reading()
