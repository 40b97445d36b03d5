"""The client against a server that speaks ttyd 1.7's protocol over a real PTY.

No ttyd binary is available from the package registries here, so the peer is
``tests.integration.client_peers.pty_bridge(flavour="ttyd")``, written from ttyd's documented
protocol (init first, one-byte commands, resize honoured even when read-only).
"""

from __future__ import annotations

import sys

import pytest

from observer.credentials.store import Secret
from observer.errors import ConnectionFailed
from observer.protocol.events import OutputReceived, SessionStarted, TitleChanged
from observer.transport.settings import ConnectionSettings
from tests.client_support import Client, Connected
from tests.integration.client_peers import ECHO_SCRIPT, collect_until, pty_bridge

pytestmark = pytest.mark.timeout(60)

SIZE_SCRIPT = (
    "import os, sys, time\n"
    "print('size', os.get_terminal_size(0), flush=True)\n"
    "for line in sys.stdin: print('got', line.strip(), os.get_terminal_size(0), flush=True)"
)


async def test_a_ttyd_watcher_sends_only_the_init_never_input_or_resize() -> None:
    async with pty_bridge(
        [sys.executable, "-c", SIZE_SCRIPT], flavour="ttyd", writable=True
    ) as bridge:
        settings = ConnectionSettings(bridge.url + "/ws", protocol=None, cols=100, rows=30)
        connection = Client(settings)
        stream = connection.events()
        seen = await collect_until(stream, lambda s, out: b"size" in out)
        assert isinstance(seen[0], Connected) and seen[0].protocol == "ttyd"  # from the subprotocol
        assert TitleChanged("observer-test-title") in seen
        assert any(isinstance(e, SessionStarted) and not e.complete for e in seen)
        assert await connection.send_input(b"typed\r") is False
        assert await connection.resize(40, 10) is False
        await connection.close()
        await stream.aclose()
    assert bridge.inits == [{"AuthToken": "", "columns": 100, "rows": 30}]
    assert bridge.received == [], "a watching ttyd client sent a frame after the init"
    assert bridge.sizes == [(100, 30)]


async def test_a_ttyd_controller_types_and_resizes() -> None:
    async with pty_bridge([sys.executable, "-c", SIZE_SCRIPT], flavour="ttyd") as bridge:
        connection = Client(ConnectionSettings(bridge.url, protocol="ttyd"))
        stream = connection.events()
        await collect_until(stream, lambda s, out: b"size" in out)
        await connection.take()
        assert await connection.resize(90, 20) is True
        assert await connection.send_input(b"hi\r") is True
        seen = await collect_until(stream, lambda s, out: b"columns=90, lines=20" in out)
        output = b"".join(e.data for e in seen if isinstance(e, OutputReceived))
        assert b"got hi os.terminal_size(columns=90, lines=20)" in output
        await connection.close()
        await stream.aclose()
    assert bridge.received == [b'1{"columns":90,"rows":20}', b"0hi\r"]


async def test_ttyd_credentials_go_in_basic_auth_and_the_init() -> None:
    async with pty_bridge(
        [sys.executable, "-c", ECHO_SCRIPT], flavour="ttyd", credential="me:pw"
    ) as bridge:
        connection = Client(ConnectionSettings(bridge.url, protocol="ttyd"), Secret("me:pw"))
        stream = connection.events()
        await collect_until(stream, lambda s, out: b"ready" in out)
        await connection.close()
        await stream.aclose()
    assert bridge.inits[0]["AuthToken"] == "bWU6cHc="
    assert bridge.request_headers[0]["Authorization"] == "Basic bWU6cHc="


async def test_a_wrong_ttyd_credential_is_a_clear_failure() -> None:
    async with pty_bridge(
        [sys.executable, "-c", ECHO_SCRIPT], flavour="ttyd", credential="me:pw"
    ) as bridge:
        connection = Client(ConnectionSettings(bridge.url, protocol="ttyd"), Secret("me:wrong"))
        with pytest.raises(ConnectionFailed) as failure:
            async for _ in connection.events():
                pass
    assert "wrong" not in str(failure.value)
    assert "is the token right?" in str(failure.value)
    assert bridge.inits == [], "the init (with its AuthToken) must not follow a refused upgrade"
