"""Out of file descriptors, ``observer serve`` logs one line per refusal and keeps serving.

Before, with its descriptors taken by idle sockets, asyncio's accept loop reported each
``EMFILE`` through the loop's exception handler: a multi-line traceback every second. A real
``observer serve`` with ``ulimit -n 64``, and 120 idle sockets on loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket

import pytest

from observer.auth.tokens import new_token
from tests.hostile.serve_process import serve_process

pytestmark = pytest.mark.timeout(60)


async def test_running_out_of_descriptors_is_one_line_and_the_server_recovers(
    tmp_path: object,
) -> None:
    token = new_token()
    async with serve_process(
        ["--insecure-no-auth"], "sleep 60", env={"OBSERVER_TOKEN": token}, open_files=64
    ) as running:
        with contextlib.ExitStack() as stack:
            for _ in range(120):
                sock = stack.enter_context(socket.socket())
                sock.setblocking(False)
                with contextlib.suppress(BlockingIOError):
                    sock.connect(("127.0.0.1", running.port))
            line = await running.read_log_until(r"accept", timeout=15)
            assert "Too many open files" in line
            await asyncio.sleep(2.5)  # asyncio retries accepting every second
        # The idle sockets are gone: the server serves again.
        reader, writer = await asyncio.open_connection("127.0.0.1", running.port)
        writer.write(b"GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = await asyncio.wait_for(reader.read(12), 10)
        writer.close()
        assert answer.startswith(b"HTTP/1.1 ")
        await asyncio.sleep(0.2)
        running.process.terminate()
        assert running.process.stderr is not None
        rest = (await running.process.stderr.read()).decode(errors="replace")
    log = "\n".join(running.log) + "\n" + rest
    assert "Traceback" not in log, log[-2000:]
    accept_lines = [line for line in log.splitlines() if "accept" in line]
    assert 1 <= len(accept_lines) <= 6, accept_lines
