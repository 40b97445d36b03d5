"""Garbage from one client never crashes the server or disturbs the others.

The fuzzing is a seeded random loop with a bounded count rather than hypothesis: each example
needs a real server, a real PTY and real sockets, and the point is many frames on one connection.
"""

from __future__ import annotations

import json
import random

from websockets.asyncio.client import connect

from observer.protocol import frames
from observer.protocol.events import ErrorReported
from tests.integration.server_support import (
    CONTROL_TOKEN,
    WATCH_TOKEN,
    close_draining,
    closed_code,
    observe,
    running_server,
    url,
)

TICKER = ["sh", "-c", "i=0; while true; do i=$((i+1)); echo tick $i; sleep 0.05; done"]
HEADERS = {"Authorization": f"Bearer {CONTROL_TOKEN}"}
# A watcher fuzzes: a holder's random bytes would legitimately reach the PTY (and a random ^C
# would end the ticker), which is not what this test is about.
WATCHER = {"Authorization": f"Bearer {WATCH_TOKEN}"}
Q = "/?identifier=default&api-version=2024-02-02-preview"


def random_message(rng: random.Random) -> str | bytes:
    kind = rng.randrange(5)
    if kind == 0:
        return rng.randbytes(rng.randrange(1, 200))
    if kind == 1:
        return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(1, 50)))
    if kind == 2:
        types = ["take", "release", "resize", "resync", "hello", "input", "", None, 7]
        obj: dict[str, object] = {"type": rng.choice(types)}
        for key in rng.sample(["cols", "rows", "data", "holder", "offset"], rng.randrange(3)):
            obj[key] = rng.choice([0, -1, 2**70, 80, "80", None, [], {}, True, 1.5])
        return json.dumps(obj)
    if kind == 3:
        return "[" * rng.randrange(1, 5000) + "]" * rng.randrange(0, 3)
    return json.dumps(rng.choice([[], 1, "take", None, {"type": ["take"]}]))


async def test_fuzzed_frames_get_errors_or_a_proper_close_and_other_clients_go_on() -> None:
    rng = random.Random(20261130)
    async with running_server(TICKER) as server, observe(server) as bystander:
        for connection in range(3):
            async with connect(
                url(server, Q), additional_headers=WATCHER, subprotocols=["observer.v1"]
            ) as ws:
                for _ in range(100):
                    await ws.send(random_message(rng))
                await ws.send(frames.encode(frames.Resync()))
                # The connection is either still usable (it answers) or closed with 1008.
                code = None
                snapshots = 0
                try:
                    while snapshots < 2:  # the one after hello, then the answer to resync
                        message = await ws.recv()
                        if isinstance(message, str) and '"type":"snapshot"' in message:
                            snapshots += 1
                except Exception:
                    code = ws.close_code
                assert code in (None, 1008), f"connection {connection} closed with {code}"
                await close_draining(ws)
            # Meanwhile the bystander keeps receiving output in order.
            seen = bytes(bystander.stream).count(b"tick")
            await bystander.until(lambda c, seen=seen: bytes(c.stream).count(b"tick") > seen + 2)
        assert not any(isinstance(e, ErrorReported) for e in bystander.events)
        ring = server.sessions["default"].ring
        assert set(ring.since(ring.start).replace(b"tick", b"")) <= set(b"0123456789 \r\n")


async def test_an_oversized_message_closes_with_1009_and_invalid_utf8_with_1007() -> None:
    async with running_server(TICKER) as server, observe(server) as bystander:
        async with connect(
            url(server, Q), additional_headers=HEADERS, subprotocols=["observer.v1"]
        ) as ws:
            await ws.send(b"x" * (1024 * 1024))
            assert await closed_code(ws) == 1009
        async with connect(
            url(server, Q), additional_headers=HEADERS, subprotocols=["observer.v1"]
        ) as ws:
            await ws.send(b"\xff\xfe{", text=True)
            assert await closed_code(ws) == 1007
        seen = bytes(bystander.stream).count(b"tick")
        await bystander.until(lambda c: bytes(c.stream).count(b"tick") > seen + 2)
        async with observe(server) as newcomer:
            assert newcomer.session.offset is not None


async def test_a_flood_of_malformed_frames_is_closed_with_1008() -> None:
    async with (
        running_server(TICKER) as server,
        connect(url(server, Q), additional_headers=HEADERS, subprotocols=["observer.v1"]) as ws,
    ):
        for _ in range(200):
            await ws.send("not json")
        assert await closed_code(ws) == 1008
