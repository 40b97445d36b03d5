"""Echo state: the server reads its PTY's termios and tells clients when input stops being shown.

Real programs on a real PTY: bash's ``read -s`` and Python's ``getpass`` (both turn ECHO off in
canonical mode), and an interactive bash (raw mode with its own line editing: input shown).
Clients ask for the frames with ``features=echo``; older clients get none.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

import pytest
from websockets.asyncio.client import connect

from observer.protocol.events import EchoChanged, OutputReceived, ProtocolViolation
from tests.integration.server_support import CONTROL_TOKEN, Observer, observe, running_server

pytestmark = pytest.mark.timeout(60)
SECRET = "hunter2-do-not-record"
# Each waits for a line first (echo on), so that the test sees the change happen.
BASH_READ = (
    "read -p 'Enter to go: ' go; read -s -p 'Password: ' pw; sleep 0.3; echo; "
    'echo "got ${#pw}"; sleep 30'
)
GETPASS = (
    "import getpass, time; input('Enter to go: '); "
    "pw = getpass.getpass('Password: '); time.sleep(0.3); print('got', len(pw), flush=True); "
    "time.sleep(30)"
)


def echoes(client: Observer) -> list[bool]:
    return [e.on for e in client.events if isinstance(e, EchoChanged)]


def output_after_last_echo(client: Observer) -> bytes:
    last = max(i for i, e in enumerate(client.events) if isinstance(e, EchoChanged))
    return b"".join(e.data for e in client.events[last:] if isinstance(e, OutputReceived))


@pytest.mark.parametrize(
    "command",
    [["bash", "--norc", "-c", BASH_READ], [sys.executable, "-c", GETPASS]],
    ids=["bash read -s", "python getpass"],
)
async def test_echo_goes_off_for_a_password_prompt_and_on_again_in_stream_order(
    command: list[str],
) -> None:
    async with running_server(command) as server, observe(server, control=True) as client:
        await client.until(lambda c: "Enter to go" in "".join(c.text()))
        await client.send(client.session.encode_input(b"\r"))
        await client.until(lambda c: echoes(c)[-1:] == [False])
        assert echoes(client) == [True, False]  # the state at joining, then the change
        assert server.sessions["default"].echo is False
        await client.send(client.session.encode_input(SECRET.encode() + b"\r"))
        await client.until(lambda c: echoes(c)[-1:] == [True])
        # The program's line may come in more than one read of the PTY: wait for all of it.
        await client.until(lambda c: b"got %d" % len(SECRET) in output_after_last_echo(c))
        assert echoes(client) == [True, False, True]
        # Nothing of what was typed came back while echo was off.
        assert SECRET.encode() not in bytes(client.stream)
        assert f"got {len(SECRET)}" in "\n".join(client.text())


async def test_a_client_joining_at_a_password_prompt_is_told_after_its_snapshot() -> None:
    command = ["bash", "--norc", "-c", BASH_READ]
    async with running_server(command) as server:
        async with observe(server, control=True) as first:
            await first.until(lambda c: "Enter to go" in "".join(c.text()))
            await first.send(first.session.encode_input(b"\r"))
            # bash turns echo off before it writes the prompt: wait for both, or the late
            # client may join between them (tests/hostile/test_hostile_echo_order.py).
            await first.until(
                lambda c: echoes(c)[-1:] == [False] and "Password:" in "".join(c.text())
            )
        async with observe(server) as late:
            await late.until(lambda c: bool(echoes(c)))
            kinds = [type(e).__name__ for e in late.events]
            assert kinds[:2] == ["SessionStarted", "SnapshotReceived"]
            assert kinds.index("EchoChanged") > 1
            assert echoes(late) == [False]
            assert "Password:" in "".join(late.text())


async def test_raw_mode_line_editing_counts_as_shown() -> None:
    """Interactive bash turns ECHO off for readline, and shows every key itself."""
    command = ["env", "PS1=prompt> ", "bash", "--norc", "-i"]
    async with running_server(command) as server, observe(server) as client:
        await client.until(lambda c: "prompt>" in "".join(c.text()))  # readline is on
        settled = time.monotonic() + 0.5
        await client.until(lambda c: time.monotonic() > settled)
        assert echoes(client) == [True]
        assert server.sessions["default"].echo is True


async def test_a_client_that_did_not_ask_gets_no_echo_frame() -> None:
    """Old clients take an unknown frame type for a malformed frame: they are sent none."""
    command = ["bash", "--norc", "-c", BASH_READ]
    async with running_server(command) as server:
        query = "/?identifier=default&api-version=2024-02-02-preview&mode=control"
        async with connect(
            f"ws://127.0.0.1:{server.port}{query}",
            subprotocols=["observer.v1"],
            additional_headers={"Authorization": f"Bearer {CONTROL_TOKEN}"},
        ) as ws:
            await ws.send(b"\r")  # past the first prompt, to the password
            types = []
            async with asyncio.timeout(10):
                while server.sessions["default"].echo:
                    try:  # the echo may go off after the last message: look again soon
                        message = await asyncio.wait_for(ws.recv(), 0.2)
                    except TimeoutError:
                        continue
                    if isinstance(message, str):
                        types.append(json.loads(message)["type"])
            await asyncio.sleep(0.3)  # time for an echo frame, which must not come
            while True:
                try:
                    message = await asyncio.wait_for(ws.recv(), 0.2)
                except TimeoutError:
                    break
                if isinstance(message, str):
                    types.append(json.loads(message)["type"])
        assert "echo" not in types and types[:2] == ["hello", "snapshot"]


async def test_the_native_session_decodes_echo_frames_without_a_violation() -> None:
    command = ["bash", "--norc", "-c", BASH_READ]
    async with running_server(command) as server, observe(server, control=True) as client:
        await client.send(client.session.encode_input(b"\r"))
        await client.until(lambda c: echoes(c)[-1:] == [False])
        assert not [e for e in client.events if isinstance(e, ProtocolViolation)]
