"""The client against a real Jupyter Server's terminals (jupyter-server + terminado).

The server runs in a subprocess on 127.0.0.1 with a token given through ``JUPYTER_TOKEN`` (never
on its command line), isolated config/data/runtime directories, and is stopped after the module.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import pytest

from observer.credentials.store import Secret
from observer.errors import ConnectionFailed
from observer.protocol.events import SessionStarted
from observer.transport.settings import ConnectionSettings
from tests.client_support import Client, Connected
from tests.integration.client_peers import collect_until
from tests.integration.peer_screen import check_takeover_resize_and_hand_back

pytestmark = pytest.mark.timeout(120)

TOKEN = "jupyter-test-token-41b2"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def jupyter(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = tmp_path_factory.mktemp("jupyter")
    port = free_port()
    # The shell starts a moment late, as on a loaded machine: keys typed at once are echoed
    # before its prompt, and every check must hold all the same.
    shell = home / "late-shell"
    shell.write_text('#!/bin/sh\nsleep 0.5\nexec /bin/sh "$@"\n')
    shell.chmod(0o755)
    env = dict(
        os.environ,
        JUPYTER_TOKEN=TOKEN,
        HOME=str(home),
        SHELL=str(shell),
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_DATA_DIR=str(home / "data"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
    )
    command = [
        sys.executable,
        "-m",
        "jupyter_server",
        "--no-browser",
        *(["--allow-root"] if os.geteuid() == 0 else []),
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.root_dir={home}",
    ]
    log = (home / "server.log").open("wb")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                request = urllib.request.Request(
                    base + "/api/status", headers={"Authorization": f"token {TOKEN}"}
                )
                urllib.request.urlopen(request, timeout=2).read()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        "jupyter-server did not start:\n" + (home / "server.log").read_text()
                    ) from None
                time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
        log.close()


def create_terminal(base: str) -> str:
    request = urllib.request.Request(
        base + "/api/terminals",
        method="POST",
        data=b"",
        headers={"Authorization": f"token {TOKEN}"},
    )
    return str(json.loads(urllib.request.urlopen(request, timeout=10).read())["name"])


async def test_watch_a_jupyter_terminal_then_take_control_and_type(jupyter: str) -> None:
    name = await asyncio.to_thread(create_terminal, jupyter)
    url = f"{jupyter}/terminals/websocket/{name}"
    watcher = Client(ConnectionSettings(url, protocol=None), Secret(TOKEN))
    controller = Client(
        ConnectionSettings(jupyter, identifier=name, protocol="jupyter"), Secret(TOKEN)
    )
    watching, controlling = watcher.events(), controller.events()
    seen = await collect_until(
        watching, lambda s, out: any(isinstance(e, SessionStarted) for e in s)
    )
    assert isinstance(seen[0], Connected) and seen[0].protocol == "jupyter"  # guessed from the URL
    await collect_until(controlling, lambda s, out: any(isinstance(e, SessionStarted) for e in s))
    assert await watcher.send_input(b"echo never\r") is False
    await controller.take()
    assert await controller.send_input(b"echo observed-$((6*7))\r") is True
    await collect_until(watching, lambda s, out: b"observed-42" in out)
    for connection, stream in ((watcher, watching), (controller, controlling)):
        await connection.close()
        await stream.aclose()


async def test_a_wrong_jupyter_token_is_refused_clearly(jupyter: str) -> None:
    connection = Client(
        ConnectionSettings(jupyter, identifier="1", protocol="jupyter"), Secret("wrong-token")
    )
    with pytest.raises(ConnectionFailed) as failure:
        async for _ in connection.events():
            pass
    assert failure.value.status == 403 and failure.value.retryable is False
    origin = jupyter.replace("http", "ws")
    assert f"the endpoint rejected the token for {origin}" in str(failure.value)
    assert "wrong-token" not in str(failure.value)


async def test_an_unknown_jupyter_terminal_is_a_404(jupyter: str) -> None:
    connection = Client(
        ConnectionSettings(jupyter, identifier="no-such", protocol="jupyter"), Secret(TOKEN)
    )
    with pytest.raises(ConnectionFailed, match="has no session 'no-such'"):
        async for _ in connection.events():
            pass


async def test_a_jupyter_terminal_takes_the_controllers_size_and_never_a_watchers(
    jupyter: str,
) -> None:
    name = await asyncio.to_thread(create_terminal, jupyter)
    watcher = Client(
        ConnectionSettings(jupyter, identifier=name, protocol="jupyter"), Secret(TOKEN)
    )
    controller = Client(
        ConnectionSettings(jupyter, identifier=name, protocol="jupyter"), Secret(TOKEN)
    )
    watching, controlling = watcher.events(), controller.events()
    for stream in (watching, controlling):
        await collect_until(stream, lambda s, out: any(isinstance(e, SessionStarted) for e in s))
    assert await watcher.resize(50, 10) is False  # a watcher's window resizes nothing
    await controller.take()
    await controller.resize(97, 31)  # in control the PTY follows the view: set_size
    assert await controller.send_input(b"stty size\r") is True
    await collect_until(controlling, lambda s, out: b"31 97" in out)
    for connection, stream in ((watcher, watching), (controller, controlling)):
        await connection.close()
        await stream.aclose()


async def test_a_jupyter_screen_takes_the_size_sent_in_control_and_keeps_it_after_hand_back(
    jupyter: str,
) -> None:
    name = await asyncio.to_thread(create_terminal, jupyter)
    client = Client(ConnectionSettings(jupyter, identifier=name, protocol="jupyter"), Secret(TOKEN))
    stream = client.events()
    await collect_until(stream, lambda s, out: any(isinstance(e, SessionStarted) for e in s))
    await check_takeover_resize_and_hand_back(client, stream)
    await client.close()
    await stream.aclose()
