"""``observer serve --exit-with-program``: the server ends with its program, with its status.

CI jobs and containers run ``observer serve -- CMD`` and want CMD's exit status back. A watcher
connected when the program ends still gets its last output and the ``exit`` frame. Without the
option the server stays up after its program (the sessions are kept for late watchers).
"""

from __future__ import annotations

import asyncio
import json
import urllib.request

import pytest

from observer.protocol.events import Exited, OutputReceived
from observer.transport.settings import API_VERSION, ConnectionSettings
from tests.client_support import Client
from tests.hostile.serve_process import serve_process
from tests.integration.client_peers import collect_until

pytestmark = pytest.mark.timeout(60)

OPTIONS = ["--insecure-no-auth", "--exit-with-program"]


async def test_the_server_exits_with_its_programs_status_after_telling_its_watcher() -> None:
    program = "read line; echo bye-$((40+2)); exit 3"
    async with serve_process(OPTIONS, program) as running:
        client = Client(ConnectionSettings(f"ws://127.0.0.1:{running.port}/", identifier="default",
                                           mode="control"))  # fmt: skip
        stream = client.events()
        await collect_until(stream, lambda s, out: client.session.in_control)
        await client.send_input(b"go\r")
        seen = await collect_until(stream, lambda s, out: any(isinstance(e, Exited) for e in s))
        async with asyncio.timeout(15):
            status = await running.process.wait()
        await stream.aclose()
    assert status == 3
    assert b"bye-42" in b"".join(e.data for e in seen if isinstance(e, OutputReceived))
    assert Exited(3) in seen


async def test_a_program_killed_by_a_signal_exits_the_server_with_128_plus_the_signal() -> None:
    async with serve_process(OPTIONS, "kill -TERM $$") as running:
        async with asyncio.timeout(15):
            status = await running.process.wait()
    assert status == 128 + 15


async def test_without_the_option_the_server_stays_up_after_its_program() -> None:
    async with serve_process(["--insecure-no-auth"], "exit 3") as running:
        await running.read_log_until("the program exited with status 3")
        url = f"http://127.0.0.1:{running.port}/sessions?api-version={API_VERSION}"
        body = await asyncio.to_thread(lambda: urllib.request.urlopen(url, timeout=10).read())
        assert running.process.returncode is None
    (session,) = json.loads(body)["sessions"]
    assert session["exited"] is True and session["status"] == 3
