"""A client that stops reading never holds the PTY back, its queue stays bounded, and it
gets a fresh snapshot when it reads again. (Throughput ratios are measured by
``python -m tests.benchmarks.server``, not asserted here.)"""

from __future__ import annotations

import asyncio
from pathlib import Path

from observer.protocol.events import SnapshotReceived
from tests.integration.server_support import model_text, observe, running_server, wait_for

LIMIT = 256 * 1024
FLOOD = (
    "while [ ! -e {go} ]; do sleep 0.01; done; "
    "head -c 60000000 /dev/zero | tr '\\0' y; printf '\\033[2J\\033[HDONE'; sleep 60"
)


async def test_a_stalled_client_is_bounded_and_gets_a_snapshot_when_it_resumes(
    tmp_path: Path,
) -> None:
    go = tmp_path / "go"
    command = ["sh", "-c", FLOOD.format(go=go)]
    async with running_server(command, client_queue=LIMIT, size=(80, 24)) as server:
        session = server.sessions["default"]
        # max_queue=1: the client library stops reading the socket after one message.
        async with observe(server, max_queue=1, close_timeout=0.5) as stalled:
            [client] = session.clients
            go.touch()  # the flood starts once the client is in
            worst = 0
            while not any("DONE" in line for line in model_text(server)):
                worst = max(worst, client.queued)
                await asyncio.sleep(0.005)  # sampling the queue while the flood lasts
            # The PTY was drained although the client read nothing for the whole flood.
            assert session.ring.end >= 60_000_000
            assert client.overflows >= 1
            assert worst <= LIMIT + 256 * 1024  # the limit plus at most one read burst
            await stalled.until(
                lambda c: any(isinstance(e, SnapshotReceived) and e.gap for e in c.events),
                timeout=30,
            )
            await stalled.until(lambda c: c.session.offset == session.ring.end, timeout=30)
            assert stalled.text() == model_text(server)


SLOW_LINK = (
    "while [ ! -e {go} ]; do sleep 0.01; done; "
    "head -c 3000000 /dev/zero | tr '\\0' z; printf '\\033[2J\\033[HDONE'; sleep 60"
)


async def test_a_client_that_reads_nothing_is_lagging_at_its_bound_not_when_kernel_buffers_fill(
    tmp_path: Path,
) -> None:
    """The bound (1 MiB by default) counts all the server holds for a client: its queue, the
    transport's buffer and what the kernel has not sent. With only the queue counted, 3 MB sat
    in socket buffers unnoticed, and the client would have read 3 MB of stale output instead of
    the current screen."""
    go = tmp_path / "go"
    command = ["sh", "-c", SLOW_LINK.format(go=go)]
    async with running_server(command, size=(80, 24)) as server:
        session = server.sessions["default"]
        async with observe(server, max_queue=1, close_timeout=0.5) as stalled:
            [client] = session.clients
            go.touch()
            await wait_for(lambda: any("DONE" in line for line in model_text(server)), 60)
            assert client.overflows >= 1
            # Reading again, it gets the screen as it is now, not the backlog.
            await stalled.until(lambda c: c.session.offset == session.ring.end, timeout=30)
            assert any(isinstance(e, SnapshotReceived) and e.gap for e in stalled.events)
            assert stalled.text() == model_text(server)


async def test_a_resync_while_the_model_lags_further_than_the_ring_holds_still_gets_the_screen(
    tmp_path: Path,
) -> None:
    """During a flood the model may lag the PTY by more than a small ring still holds; a
    snapshot then cannot be followed by the ring's bytes after it. The server lets the model
    catch up first instead of failing the connection (it used to raise and drop the client)."""
    go = tmp_path / "go"
    command = ["sh", "-c", FLOOD.format(go=go)]
    async with running_server(command, ring_size=8 * 1024, size=(80, 24)) as server:
        session = server.sessions["default"]
        async with observe(server) as client:
            go.touch()
            snapshots = 0
            while not any("DONE" in line for line in model_text(server)):
                await client.send(client.session.encode_resync())
                wanted = sum(isinstance(e, SnapshotReceived) for e in client.events) + 1
                await client.until(
                    lambda c, n=wanted: sum(isinstance(e, SnapshotReceived) for e in c.events) >= n,
                    timeout=30,
                )
                snapshots += 1
            assert snapshots >= 2
            await client.until(lambda c: c.session.offset == session.ring.end, timeout=30)
            assert client.text() == model_text(server)
