"""asciinema-player 3.18 in headless Chromium, for the interop tests: finding both, a page with
the player's bundle inlined, the page served from loopback (a real origin), and the browser
driven over the DevTools protocol (the DOM read, a screenshot taken and its pixels read).

Tests skip, saying why, where Chromium or the player's npm bundle (named by
``OBSERVER_ASCIINEMA_PLAYER``; ``.ci/run`` installs both where it can) is missing.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import urllib.request
import zlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

CHROMIUM_NAMES = ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome")
PLAYER_HINT = (
    "npm install asciinema-player@3.18 and set OBSERVER_ASCIINEMA_PLAYER to its dist/bundle folder"
)
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu")


def chromium_or_skip() -> str:
    """Headless Chromium's path, or skip the test saying how to install it."""
    found = next((path for name in CHROMIUM_NAMES if (path := shutil.which(name))), None)
    if found is None:
        pytest.skip("no headless Chromium here (apt-get install chromium-headless-shell)")
    return found


def player_bundle_or_skip() -> Path:
    """The folder of asciinema-player's npm bundle, or skip the test saying how to install it."""
    bundle = Path(os.environ.get("OBSERVER_ASCIINEMA_PLAYER", "/nonexistent"))
    if not (bundle / "asciinema-player.min.js").exists():
        pytest.skip(f"asciinema-player is not installed here ({PLAYER_HINT})")
    return bundle


def player_page(bundle: Path, source: Any, options: dict[str, Any]) -> str:
    """An HTML page that creates the player on ``source`` (a recording's ``{data}``, or a
    live ``{driver: "websocket", url}``) with ``options``; the bundle is inlined."""
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><style>"
        + (bundle / "asciinema-player.css").read_text()
        + "</style></head><body><div id='player'></div><script>"
        + (bundle / "asciinema-player.min.js").read_text()
        + "</script><script>AsciinemaPlayer.create("
        + json.dumps(source)
        + ", document.getElementById('player'), "
        + json.dumps(options)
        + ");</script></body></html>"
    )


def dump_dom(chromium: str, page: Path, budget_ms: int = 5000) -> str:
    """The DOM Chromium renders for ``page`` after ``budget_ms`` of virtual time."""
    budget = f"--virtual-time-budget={budget_ms}"
    dom = subprocess.run(
        [chromium, *CHROMIUM_FLAGS, budget, "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert dom.returncode == 0, dom.stderr
    return dom.stdout


@contextlib.asynccontextmanager
async def page_server(pages: dict[str, str]) -> AsyncIterator[str]:
    """Serve ``pages`` (path -> HTML, read when asked: fill it in after) on loopback over
    HTTP/1.0; yields the origin (``http://127.0.0.1:PORT``), which the browser sends."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request = await reader.readline()
        while (await reader.readline()).strip():
            pass  # the headers
        parts = request.decode(errors="replace").split()
        page = pages.get(parts[1]) if len(parts) > 1 else None
        body = (page or "not found").encode()
        status = "200 OK" if page is not None else "404 Not Found"
        writer.write(
            f"HTTP/1.0 {status}\r\nContent-Type: text/html; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    try:
        yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"
    finally:
        server.close()
        await server.wait_closed()


class DevTools:
    """One page of a headless Chromium, driven over the Chrome DevTools Protocol."""

    def __init__(self, socket: Any) -> None:
        self._socket = socket
        self._ids = 0

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one command; its result (events that come meanwhile are skipped)."""
        self._ids += 1
        await self._socket.send(json.dumps({"id": self._ids, "method": method, "params": params}))
        while True:
            reply = json.loads(await self._socket.recv())
            if reply.get("id") == self._ids:
                assert "error" not in reply, reply["error"]
                result: dict[str, Any] = reply["result"]
                return result

    async def evaluate(self, expression: str) -> Any:
        """The JSON value of ``expression`` in the page."""
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    async def screenshot(self) -> bytes:
        """The page as a PNG."""
        return base64.b64decode((await self.call("Page.captureScreenshot"))["data"])


@contextlib.asynccontextmanager
async def browser(chromium: str, url: str) -> AsyncIterator[DevTools]:
    """Headless Chromium showing ``url``; it and its helper processes are ended afterwards."""
    process = await asyncio.create_subprocess_exec(
        chromium, *CHROMIUM_FLAGS, "--remote-debugging-port=0", "--window-size=1000,700", url,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    assert process.stderr is not None
    draining: asyncio.Task[None] | None = None
    try:
        port = await _devtools_port(process.stderr)
        # Its log is read on: a full pipe would stop its processes, which then never end.
        draining = asyncio.create_task(_drain(process.stderr))
        targets = await asyncio.to_thread(_json, f"http://127.0.0.1:{port}/json/list")
        page = next(target for target in targets if target["type"] == "page")
        async with connect(page["webSocketDebuggerUrl"], max_size=None) as socket:
            yield DevTools(socket)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()
        if draining is not None:
            draining.cancel()


async def _devtools_port(stderr: asyncio.StreamReader) -> int:
    async with asyncio.timeout(30):
        while line := await stderr.readline():
            found = re.search(rb"DevTools listening on ws://[^:]+:(\d+)/", line)
            if found:
                return int(found[1])
    raise AssertionError("Chromium ended without opening its DevTools port")


async def _drain(stderr: asyncio.StreamReader) -> None:
    while await stderr.read(65536):
        pass


def _json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.loads(answer.read())


def png_pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and RGBA rows of an 8-bit RGB or RGBA PNG without interlacing (what
    Chromium's screenshots are), by the PNG spec's filters (RFC 2083 section 6)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, data, header = 8, b"", b""
    while at < len(png):
        (size,) = struct.unpack(">I", png[at : at + 4])
        kind, chunk = png[at + 4 : at + 8], png[at + 8 : at + 8 + size]
        at += 12 + size
        if kind == b"IHDR":
            header = chunk
        elif kind == b"IDAT":
            data += chunk
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, "an 8-bit RGB(A) PNG"
    channels = 4 if colour == 6 else 3
    raw, stride = zlib.decompress(data), width * channels
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        kind, line = (
            raw[y * (stride + 1)],
            bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]),
        )
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up, corner = previous[x], previous[x - channels] if x >= channels else 0
            line[x] = (line[x] + _predict(kind, left, up, corner)) & 0xFF
        previous = line
        rows.append(bytes(line) if channels == 4 else _with_alpha(bytes(line)))
    return width, height, rows


def _predict(kind: int, left: int, up: int, corner: int) -> int:
    if kind == 0:
        return 0
    if kind == 1:
        return left
    if kind == 2:
        return up
    if kind == 3:
        return (left + up) // 2
    estimate = left + up - corner  # Paeth
    near = min(
        (abs(estimate - left), 0, left),
        (abs(estimate - up), 1, up),
        (abs(estimate - corner), 2, corner),
    )
    return near[2]


def _with_alpha(rgb: bytes) -> bytes:
    return b"".join(rgb[i : i + 3] + b"\xff" for i in range(0, len(rgb), 3))
