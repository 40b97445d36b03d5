"""Garbage from one client gets exactly the answer the protocol promises, and disturbs nobody.

Each fuzzed input is made by a recipe that knows what docs/protocol.md promises
for it: an `error` frame with a given code, a close with a given code and reason (*Closing*), or
an HTTP refusal with a given status. A crash shows as anything else: a 1011 close, a 500, a
missing or different answer, or an error logged by the server.

The fuzzing is a seeded random loop with a bounded count rather than hypothesis: each example
needs a real server, a real PTY and real sockets, and the point is many frames on one connection.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from observer.protocol import frames
from observer.protocol.arbiter import MAX_VIOLATIONS
from observer.protocol.events import ErrorReported
from observer.server import Server
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
API = "api-version=2024-02-02-preview"
Q = f"/?identifier=default&{API}"
TOO_MANY_MALFORMED = (1008, "too many malformed frames")
FIELD_VALUES: list[object] = [0, -1, 2**70, 80, "80", None, [], {}, True, 1.5]


@pytest.fixture(autouse=True)
def no_server_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """A traceback in a connection handler is logged at ERROR by websockets: that is a crash."""
    yield
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, f"the server logged errors: {errors}"


def _valid_size(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 1000


def random_message(rng: random.Random) -> tuple[str | bytes, str]:
    """A message a watcher sends and the error code the protocol promises for it.

    ``resync`` is left out: it drops the replies still queued for the client (docs/protocol.md,
    *Client to server*), so the answers to what came before it could not be counted.
    """
    kind = rng.randrange(5)
    if kind == 0:  # input from a client that does not hold control
        return rng.randbytes(rng.randrange(1, 200)), frames.NOT_HOLDER
    if kind == 1:  # text that is not a JSON object
        text = "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(1, 50)))
        return "~" + text, frames.BAD_FRAME
    if kind == 2:  # an object of a known or unknown type, with fields of any type
        kind_name = rng.choice(["take", "release", "resize", "hello", "input", "", None, 7])
        obj: dict[str, object] = {"type": kind_name}
        for key in rng.sample(["cols", "rows", "data", "holder", "offset"], rng.randrange(3)):
            obj[key] = rng.choice(FIELD_VALUES)
        return json.dumps(obj), _promised_for(obj)
    if kind == 3:  # deep nesting, balanced or not
        return "[" * rng.randrange(1, 5000) + "]" * rng.randrange(0, 3), frames.BAD_FRAME
    return json.dumps(rng.choice([[], 1, "take", None, {"type": ["take"]}])), frames.BAD_FRAME


def _promised_for(obj: dict[str, object]) -> str:
    match obj["type"]:
        case "take":
            return frames.WATCH_ONLY
        case "release":
            return frames.NOT_HOLDER
        case "resize" if _valid_size(obj.get("cols")) and _valid_size(obj.get("rows")):
            return frames.NOT_HOLDER
    return frames.BAD_FRAME  # an unknown type, or a resize with a bad size


def promised(codes: list[str]) -> tuple[list[str], tuple[int, str] | None]:
    """The error codes the server sends for ``codes``, and the close that ends it, if any."""
    answered: list[str] = []
    for code in codes:
        if code == frames.BAD_FRAME and answered.count(frames.BAD_FRAME) == MAX_VIOLATIONS:
            return answered, TOO_MANY_MALFORMED
        answered.append(code)
    return answered, None


async def received_errors(ws: ClientConnection, count: int, timeout: float = 10.0) -> list[str]:
    """The codes of the error frames received until ``count`` came, or the connection closed."""
    codes: list[str] = []
    try:
        async with asyncio.timeout(timeout):
            while len(codes) < count:
                frame = frames.decode_server_frame(await ws.recv())
                if isinstance(frame, frames.Error):
                    codes.append(frame.code)
    except (ConnectionClosed, TimeoutError):
        pass
    return codes


async def test_fuzzed_frames_get_the_promised_errors_or_close_and_other_clients_go_on() -> None:
    rng = random.Random(20261130)
    closes = 0
    async with running_server(TICKER) as server, observe(server) as bystander:
        for connection in range(6):
            # Enough for the malformed ones to pass the limit, or not.
            sent = [random_message(rng) for _ in range(rng.randrange(40, 130))]
            answers, close = promised([code for _, code in sent])
            async with connect(
                url(server, Q), additional_headers=WATCHER, subprotocols=["observer.v1"]
            ) as ws:
                for message, _ in sent:
                    await ws.send(message)
                codes = await received_errors(ws, len(answers))
                if close is None:
                    assert codes == answers, f"connection {connection}"
                    assert ws.close_code is None
                else:  # what was queued when the server closed may be lost, but nothing else
                    closes += 1
                    assert codes == answers[: len(codes)], f"connection {connection}"
                    assert await closed_code(ws) == close[0]
                    assert ws.close_reason == close[1]
                await close_draining(ws)
            # Meanwhile the bystander keeps receiving output in order.
            seen = bytes(bystander.stream).count(b"tick")
            await bystander.until(lambda c, seen=seen: bytes(c.stream).count(b"tick") > seen + 2)
        assert 0 < closes < 6, "the seed should exercise both outcomes"
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
        assert await closed_code(ws) == TOO_MANY_MALFORMED[0]
        assert ws.close_reason == TOO_MANY_MALFORMED[1]


def _garbage(rng: random.Random) -> str:
    """Up to 40 characters of anything, percent-encoded (the request stays valid HTTP)."""
    text = "".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(rng.randrange(1, 40)))
    return quote(text, safe="")


def random_request(rng: random.Random) -> tuple[str, list[tuple[str, str]], int]:
    """An upgrade request with one defect: its target, headers and the promised HTTP status."""
    auth = [("Authorization", f"Bearer {CONTROL_TOKEN}")]
    garbage = _garbage(rng)
    # A character outside the identifier's alphabet makes a bad identifier whatever surrounds it.
    identifier = garbage + quote(rng.choice("/!@#$%^&*() +=~"), safe="")
    match rng.randrange(8):
        case (
            0
        ):  # no token, or not one the server knows (docs/protocol.md: 403 before anything else)
            headers = rng.choice([[], [("Authorization", f"Bearer {garbage}")]])
            return f"/{garbage}?{garbage}", headers, 403
        case 1:
            return Q, [*auth, ("Authorization", f"Bearer {WATCH_TOKEN}")], 400
        case 2:
            return f"/x{garbage}?{API}", auth, 404
        case 3:
            return f"/?identifier=default&api-version={garbage}", auth, 400
        case 4:
            return f"/?{API}&identifier={identifier}", auth, 400
        case 5:
            return f"{Q}&mode={garbage}x", auth, 400
        case 6:
            return f"{Q}&since={rng.choice(['-1', '1.5', '9' * 20, garbage + 'x'])}", auth, 400
    return f"{Q}&{API}", auth, 400  # a parameter given twice


async def http_status(server: Server, target: str, headers: list[tuple[str, str]]) -> int:
    """The status of the server's answer to one upgrade request, sent byte by byte as written."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    lines = [
        f"GET {target} HTTP/1.1",
        f"Host: 127.0.0.1:{server.port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
        "Sec-WebSocket-Protocol: observer.v1",
        *(f"{name}: {value}" for name, value in headers),
    ]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    try:
        status_line = await asyncio.wait_for(reader.readline(), 10)
    finally:
        writer.close()
    return int(status_line.split()[1])


async def test_fuzzed_upgrade_requests_get_the_promised_http_status() -> None:
    rng = random.Random(20261205)
    async with running_server(TICKER) as server, observe(server) as bystander:
        for _ in range(60):
            target, headers, status = random_request(rng)
            assert await http_status(server, target, headers) == status, (target, headers)
        assert set(server.sessions) == {"default"}
        seen = bytes(bystander.stream).count(b"tick")
        await bystander.until(lambda c: bytes(c.stream).count(b"tick") > seen + 2)
