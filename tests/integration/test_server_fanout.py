"""Many watchers: every frame is built once and written straight to each client that keeps up,
yet each client's stream is exact and control frames keep their place in it; clients the
server cannot afford to feed byte for byte are dropped to snapshots, never to a wrong screen."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import AsyncIterator
from pathlib import Path

from observer.protocol.events import Event, Exited, Resized, SnapshotReceived
from observer.server import Server
from observer.server.clients import FanoutBudget
from tests.integration.server_support import (
    PY,
    Observer,
    close_draining,
    model_text,
    observe,
    running_server,
    wait_for,
)

# Two parts of deterministic, varied output (colours, line ends, multi-byte characters); the
# program waits for a file between them, then exits with status 3.
PROGRAM = """
import os, sys, time
def part(n, tag):
    for i in range(n):
        sys.stdout.write(f"\\x1b[3{i % 8}m{tag} line {i:05d} é✓ " + "x" * (i % 70) + "\\x1b[0m\\r\\n")
        if i % 200 == 0:
            sys.stdout.flush(); time.sleep(0.002)
    sys.stdout.flush()
part(3000, "one")
while not os.path.exists(sys.argv[1]):
    time.sleep(0.01)
part(3000, "two")
sys.exit(3)
"""


def expected_stream() -> bytes:
    out = []
    for tag in ("one", "two"):
        for i in range(3000):
            line = f"\x1b[3{i % 8}m{tag} line {i:05d} é✓ " + "x" * (i % 70) + "\x1b[0m\r\n"
            out.append(line)
    # The PTY's output processing (termios OPOST/ONLCR) turns each "\n" into "\r\n".
    return "".join(out).encode().replace(b"\n", b"\r\n")


async def follow(client: Observer, timeout: float = 30) -> list[tuple[Event, int]]:
    """Receive until the program exited; every event with the client's stream offset after it."""
    seen: list[tuple[Event, int]] = []
    async with asyncio.timeout(timeout):
        while not any(isinstance(event, Exited) for event, _ in seen):
            for event in client.session.receive(await client.ws.recv()):
                client._take(event)
                offset = client.session.offset
                assert offset is not None
                seen.append((event, offset))
    return seen


@contextlib.asynccontextmanager
async def watchers(server: Server, count: int) -> AsyncIterator[list[Observer]]:
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(observe(server)) for _ in range(count)]
        yield clients
        # Each leaving client makes the server tell the others: read while closing.
        await asyncio.gather(*(close_draining(client.ws) for client in clients))


async def test_twenty_watchers_get_the_exact_stream_with_resize_and_exit_in_their_place(
    tmp_path: Path,
) -> None:
    go = tmp_path / "go"
    expected = expected_stream()
    half = len(expected) // 2
    async with running_server([PY, "-c", PROGRAM, str(go)], size=(100, 30)) as server:
        session = server.sessions["default"]
        async with watchers(server, 20) as clients, observe(server, control=True) as holder:
            await wait_for(lambda: session.ring.end == half)
            await holder.send(['{"type":"resize","cols":90,"rows":25}'])
            await wait_for(lambda: session.model.cols == 90)
            go.touch()
            results = await asyncio.gather(*(follow(client) for client in clients))
            for client, seen in zip(clients, results, strict=True):
                assert client.stream_start is not None
                whole = expected[: client.stream_start] + bytes(client.stream)
                assert hashlib.sha256(whole).digest() == hashlib.sha256(expected).digest()
                assert [offset for event, offset in seen if isinstance(event, Resized)] == [half]
                [(exit_event, exit_offset)] = [(e, o) for e, o in seen if isinstance(e, Exited)]
                assert exit_event == Exited(3) and exit_offset == len(expected)
            # Nobody fell behind or was shed (no snapshot but the one at joining), and the output
            # went straight to the sockets, not through the clients' queues.
            assert all(client.overflows == 0 for client in session.clients)
            assert sum(client.direct_writes for client in session.clients) > len(clients)
            await close_draining(holder.ws)


async def test_with_compression_each_client_still_gets_the_exact_stream_through_its_queue(
    tmp_path: Path,
) -> None:
    go = tmp_path / "go"
    go.touch()
    expected = expected_stream()
    command = [PY, "-c", PROGRAM, str(go)]
    async with running_server(command, compression=True) as server:
        session = server.sessions["default"]
        async with watchers(server, 3) as clients:
            await asyncio.gather(*(follow(client) for client in clients))
            for client in clients:
                assert client.stream_start is not None
                assert expected[: client.stream_start] + bytes(client.stream) == expected
            # permessage-deflate compresses per connection: no shared frame for them.
            assert all(client.direct_writes == 0 for client in session.clients)


async def test_watchers_shed_by_the_fan_out_budget_get_snapshots_and_the_right_screen(
    tmp_path: Path,
) -> None:
    """The budget is set to zero so that every fan-out exceeds it (on a fast machine the real
    budget is only exceeded under floods with many watchers)."""
    go = tmp_path / "go"
    async with running_server([PY, "-c", PROGRAM, str(go)], size=(100, 30)) as server:
        session = server.sessions["default"]
        session.fanout.budget = FanoutBudget(share=0.0)
        async with watchers(server, 5) as clients:
            go.touch()
            await wait_for(lambda: session.exited, timeout=30)
            await wait_for(lambda: all(c.overflows >= 1 for c in session.clients))
            for client in clients:
                await client.until(
                    lambda c: c.exited() and c.session.offset == session.ring.end, timeout=30
                )
                assert any(isinstance(e, SnapshotReceived) for e in client.events)
                assert client.text() == model_text(server)
            assert session.ring.end == len(expected_stream())
