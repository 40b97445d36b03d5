"""A token's many connections to one session cost the fan-out what a few do.

Before, every connection of a watch token got every byte of output: fifty of them, reading (or
sending ``release`` at their message limit as well), cost the server fifty copies of the agent's
output and slowed the agent to 0.65x of its unwatched rate. Now a token's streaming connections
beyond its first few get the screen by snapshot, at most one a second each, while another
token's watcher keeps its stream. Real server, real PTY, real clients on loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest

from observer.protocol.events import OutputReceived, SnapshotReceived
from tests.integration.server_support import Observer, crowd, running_server

pytestmark = pytest.mark.timeout(60)
AGENT = ["sh", "-c", "i=0; while true; do i=$((i+1)); echo line $i; sleep 0.005; done"]
READERS = 12
SECONDS = 2.5
STREAMS_PER_TOKEN = 4
"""A token's connections that keep the byte stream (``observer.server.clients``)."""


def snapshots(client: Observer) -> int:
    return sum(isinstance(e, SnapshotReceived) for e in client.events)


def output_since(client: Observer, mark: int) -> int:
    """Bytes of output the client was sent as bytes after its ``mark``-th event."""
    return sum(len(e.data) for e in client.events[mark:] if isinstance(e, OutputReceived))


async def read_for(client: Observer, seconds: float) -> None:
    end = time.monotonic() + seconds
    await client.until(lambda _: time.monotonic() >= end, timeout=seconds + 10)


async def test_a_tokens_connections_beyond_its_first_few_get_snapshots_not_every_byte() -> None:
    async with running_server(AGENT) as server, contextlib.AsyncExitStack() as stack:
        everyone = await crowd(stack, server, READERS)  # each with its joining snapshot
        marks = [len(c.events) for c in everyone]
        joined = [snapshots(c) for c in everyone]
        await asyncio.gather(*(read_for(c, SECONDS) for c in everyone))
        sent = [output_since(c, mark) for c, mark in zip(everyone, marks, strict=True)]
        shed = [snapshots(c) > n for c, n in zip(everyone, joined, strict=True)]
        for client in everyone:  # no closing handshakes behind unread output
            client.ws.transport.abort()

    assert not shed[0], "another token's watcher lost its stream"
    assert sent[0] > 0
    streaming = [n for n, was_shed in zip(sent[1:], shed[1:], strict=True) if not was_shed]
    assert len(streaming) == STREAMS_PER_TOKEN, shed
    # Every reader beyond the first few lives on snapshots: next to nothing of the stream.
    assert sum(shed[1:]) == READERS - STREAMS_PER_TOKEN
    assert max(n for n, was_shed in zip(sent[1:], shed[1:], strict=True) if was_shed) < sent[0] / 4
