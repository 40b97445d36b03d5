"""``observer serve`` as a real process for attack tests: started, its port read, its log kept."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sys
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect

from observer.protocol.adapters.native import query as native_query

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Serve:
    """A running ``observer serve``: its process, port, and the log lines read so far."""

    process: asyncio.subprocess.Process
    port: int
    log: list[str] = field(default_factory=list)

    async def read_log_until(self, pattern: str, timeout: float = 10.0) -> str:
        """Read log lines until one matches ``pattern``; return it."""
        assert self.process.stderr is not None
        for line in self.log:
            if re.search(pattern, line):
                return line
        async with asyncio.timeout(timeout):
            while True:
                raw = await self.process.stderr.readline()
                assert raw, f"observer serve ended before logging {pattern!r}: {self.log}"
                line = raw.decode(errors="replace").rstrip("\n")
                self.log.append(line)
                if re.search(pattern, line):
                    return line


@contextlib.asynccontextmanager
async def serve_process(
    options: Sequence[str],
    command: str,
    env: Mapping[str, str] | None = None,
    open_files: int | None = None,
) -> AsyncIterator[Serve]:
    """Start ``observer serve OPTIONS --listen 127.0.0.1:0 -- sh -c COMMAND``; end it after.
    ``open_files`` limits its file descriptors (``ulimit -n``)."""

    def limit() -> None:
        if open_files is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "observer", "serve", *options, "--listen", "127.0.0.1:0",
        "--", "sh", "-c", command,
        cwd=ROOT, env={**os.environ, **(env or {})},
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        preexec_fn=limit if open_files is not None else None,
    )  # fmt: skip
    running = Serve(process, 0)
    try:
        line = await running.read_log_until(r"ws://127\.0\.0\.1:\d+/", timeout=15)
        found = re.search(r"ws://127\.0\.0\.1:(\d+)/", line)
        assert found is not None
        running.port = int(found.group(1))
        yield running
    finally:
        if process.returncode is None:
            process.terminate()
            async with asyncio.timeout(10):
                await process.wait()


async def read_stream_until(
    port: int, needle: bytes, token: str | None = None, timeout: float = 10.0
) -> bytes:
    """Connect as a watcher, replaying the whole output (``since=0``), until ``needle`` shows."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    ws: ClientConnection
    async with connect(
        f"ws://127.0.0.1:{port}{native_query('default', since=0)}",
        subprotocols=["observer.v1"],
        additional_headers=headers,
        max_size=None,
    ) as ws:
        seen = b""
        async with asyncio.timeout(timeout):
            while needle not in seen:
                message = await ws.recv()
                seen += message if isinstance(message, bytes) else message.encode()
        return seen
