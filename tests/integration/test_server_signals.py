"""`observer serve` as a real process: SIGTERM closes clients with 1001 and leaves nothing running."""

from __future__ import annotations

import asyncio
import re
import signal
import socket
import sys
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from observer.protocol.adapters.native import query
from tests.integration.server_support import closed_code

ROOT = Path(__file__).resolve().parents[2]
# The agent starts a background job, so the session has a process group worth ending.
AGENT = "sleep 300 & echo pids $$ $! end; wait"


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state != b"Z"


async def start_serve() -> tuple[asyncio.subprocess.Process, int]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "observer", "serve", "--insecure-no-auth",
        "--listen", "127.0.0.1:0", "--", "sh", "-c", AGENT,
        cwd=ROOT, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stderr is not None
    async with asyncio.timeout(15):
        while True:
            line = (await process.stderr.readline()).decode()
            assert line, "observer serve ended before listening"
            found = re.search(r"ws://127\.0\.0\.1:(\d+)/", line)
            if found:
                return process, int(found.group(1))


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_a_signal_closes_clients_with_1001_and_ends_the_agents_process_group(
    sig: signal.Signals,
) -> None:
    process, port = await start_serve()
    try:
        async with connect(
            f"ws://127.0.0.1:{port}{query('default')}", subprotocols=["observer.v1"]
        ) as ws:
            stream = b""
            async with asyncio.timeout(10):
                while (found := re.search(rb"pids (\d+) (\d+) end", stream)) is None:
                    message = await ws.recv()
                    stream += message if isinstance(message, bytes) else message.encode()
            pids = [int(found.group(1)), int(found.group(2))]
            assert all(alive(pid) for pid in pids)
            process.send_signal(sig)
            assert await closed_code(ws, timeout=10) == 1001
        async with asyncio.timeout(10):
            assert await process.wait() == 0
        assert not any(alive(pid) for pid in pids), "the agent's processes outlived the server"
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_stopping_a_server_with_many_sessions_ends_every_process() -> None:
    """More sessions than asyncio's default thread pool has workers: stop must not wait on it."""
    from tests.integration.server_support import observe, running_server, wait_for

    async with running_server(["sh", "-c", AGENT], create_on_connect=True) as server:
        for index in range(12):
            async with observe(server, identifier=f"agent-{index}"):
                pass
        sessions = list(server.sessions.values())
        pids = []
        for session in sessions:
            await wait_for(lambda session=session: b" end" in session.ring.since(0))
            found = re.search(rb"pids (\d+) (\d+) end", session.ring.since(0))
            assert found is not None
            pids += [int(found.group(1)), int(found.group(2))]
        assert all(alive(pid) for pid in pids)
    assert not any(alive(pid) for pid in pids)


async def test_a_port_already_taken_is_found_before_the_agent_starts(tmp_path: Path) -> None:
    marker = tmp_path / "agent-started"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "observer", "serve", "--insecure-no-auth",
            "--listen", f"127.0.0.1:{port}", "--", "sh", "-c", f"touch {marker}; sleep 30",
            cwd=ROOT, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        async with asyncio.timeout(15):
            _, err = await process.communicate()
    assert process.returncode == 1
    lines = [line for line in err.decode().splitlines() if line.startswith("observer: ")]
    assert lines == [
        f"observer: cannot listen on 127.0.0.1:{port}: Address already in use"
        " — pick another --listen address"
    ]
    await asyncio.sleep(0.3)  # time for an agent that must not start
    assert not marker.exists(), "the agent was started although the port was taken"


@pytest.mark.parametrize(
    ("agent", "logged"),
    [
        ("sleep 0.2; exit 3", "the program exited with status 3"),
        ("sleep 0.2; kill -TERM $$", "the program was killed by signal 15 (SIGTERM)"),
    ],
)
async def test_the_program_ending_is_logged_in_one_line(agent: str, logged: str) -> None:
    from tests.hostile.serve_process import serve_process

    async with serve_process(["--insecure-no-auth"], agent) as running:
        line = await running.read_log_until(r"the program ")
        assert line == f"observer serve: session 'default': {logged}"
