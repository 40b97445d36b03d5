"""Hostile HTTP requests before the upgrade: a clear 4xx, one log line each, never a traceback.

A duplicate ``Authorization`` or ``Origin`` header used to crash ``process_request`` (websockets'
``MultipleValuesError``): HTTP 500 and a 12-line traceback in the server's log, before the
token was checked, so anyone could fill the log. Requests are written byte by byte on a raw
socket to a real server; the log is what ``observer serve`` would print (every logger).
"""

from __future__ import annotations

import asyncio
import logging

import pytest
import websockets

from tests.integration.server_support import CONTROL_TOKEN, WATCH_TOKEN, running_server
from tests.waiting import until

TARGET = "/?identifier=default&api-version=2024-02-02-preview"
UPGRADE = (
    "Host: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    "Sec-WebSocket-Protocol: observer.v1\r\n"
)
GOOD = f"Authorization: Bearer {CONTROL_TOKEN}\r\n"

REQUESTS = {
    "duplicate Authorization": (f"GET {TARGET} HTTP/1.1\r\n{UPGRADE}{GOOD}{GOOD}", 400),
    "Authorization twice, a good and a watch token": (
        f"GET {TARGET} HTTP/1.1\r\n{UPGRADE}{GOOD}Authorization: Bearer {WATCH_TOKEN}\r\n",
        400,
    ),
    "duplicate Origin": (
        f"GET {TARGET} HTTP/1.1\r\n{UPGRADE}{GOOD}Origin: https://a.example\r\n"
        "Origin: https://b.example\r\n",
        400,
    ),
    "duplicate Authorization without a token": (
        f"GET {TARGET} HTTP/1.1\r\n{UPGRADE}Authorization: x\r\nAuthorization: y\r\n",
        400,
    ),
    "duplicate Sec-WebSocket-Key": (
        f"GET {TARGET} HTTP/1.1\r\n{UPGRADE}{GOOD}Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
        400,
    ),
    "no token": (f"GET {TARGET} HTTP/1.1\r\n{UPGRADE}", 403),
    "no Upgrade": (
        f"GET {TARGET} HTTP/1.1\r\n{UPGRADE.replace('Upgrade: websocket', 'X-No: upgrade')}{GOOD}",
        426,
    ),
    "POST": (f"POST {TARGET} HTTP/1.1\r\n{UPGRADE}{GOOD}", 405),
    "a header line of 20 KB": (f"GET {TARGET} HTTP/1.1\r\n{UPGRADE}X-Pad: {'a' * 20000}\r\n", 431),
    "a request line of 20 KB": (f"GET /?{'a' * 20000} HTTP/1.1\r\n{UPGRADE}", 414),
    "controls and escapes in the path": (f"GET /\x1b[2J\x07?x=\x7f HTTP/1.1\r\n{UPGRADE}", 403),
    "a bad Authorization scheme": (f"GET {TARGET} HTTP/1.1\r\n{UPGRADE}Authorization: x\r\n", 403),
}


async def exchange(port: int, request: bytes, *, eof: bool = False) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        if eof:  # nothing more comes: an incomplete request is not waited for
            writer.write_eof()
        await writer.drain()
        async with asyncio.timeout(5):
            return await reader.read()  # the server answers, then closes
    finally:
        writer.close()


TOO_LARGE = ("a header line of 20 KB", "a request line of 20 KB")
"""websockets 17 answers these (414, 431); 15 and 16 close without an answer, and then there is
no refusal to log (``tests/unit/server/test_websocket_adapter.py`` checks both)."""


@pytest.mark.parametrize("name", sorted(REQUESTS))
async def test_a_bad_request_gets_its_4xx_and_one_log_line(
    name: str, caplog: pytest.LogCaptureFixture
) -> None:
    text, status = REQUESTS[name]
    async with running_server(["sleep", "30"]) as server:
        caplog.clear()
        caplog.set_level(logging.DEBUG, logger="observer")
        caplog.set_level(logging.INFO, logger="websockets")
        answer = await exchange(server.port, (text + "\r\n").encode("latin-1"))
        if answer:  # the handshake task logs after it answered
            await until(lambda: any(r.name.startswith("observer") for r in caplog.records), "a log")
        records = list(caplog.records)
    if name in TOO_LARGE and not answer and int(websockets.__version__.split(".")[0]) < 17:
        assert [r for r in records if r.name.startswith("observer")] == []
        return
    assert answer.split(b"\r\n", 1)[0].split(b" ")[1] == str(status).encode()
    assert all(r.exc_info is None and r.levelno < logging.WARNING for r in records), [
        r.getMessage() for r in records
    ]
    ours = [r.getMessage() for r in records if r.name.startswith("observer")]
    assert len(ours) == 1, ours
    assert ours[0].startswith(f"refused {status} ")
    assert "\n" not in ours[0] and "\x1b" not in ours[0] and "\x07" not in ours[0]
    assert CONTROL_TOKEN not in ours[0] and WATCH_TOKEN not in ours[0]


async def test_bytes_that_are_not_http_are_dropped_without_a_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A TLS hello, blank lines, a header with an escape sequence in it: websockets closes the
    connection without an answer (there is no HTTP request to answer), and nothing is logged
    above debug level."""
    junk = (
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
        b"\r\n\r\n",
        b"GET\r\n\r\n",
        f"GET {TARGET} HTTP/1.1\r\n{UPGRADE}Authorization: Bearer \x1b]0;pwned\x07\r\n\r\n".encode(),
    )
    async with running_server(["sleep", "30"]) as server:
        caplog.set_level(logging.INFO)
        for request in junk:
            assert await exchange(server.port, request, eof=True) == b""
    assert [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING] == []
