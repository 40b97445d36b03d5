"""The client against a real raw PTY bridge on 127.0.0.1: watch, take over, type, reconnect."""

from __future__ import annotations

import asyncio
import sys

import pytest

from observer.credentials.store import Secret
from observer.protocol.events import SessionStarted
from observer.transport.settings import ConnectionSettings
from tests.client_support import Client, Connected, Disconnected, Reconnecting
from tests.integration.client_peers import ECHO_SCRIPT, collect_until, pty_bridge
from tests.integration.faultproxy import FaultProxy

pytestmark = pytest.mark.timeout(60)


async def test_a_watcher_sees_output_and_sends_nothing() -> None:
    async with pty_bridge([sys.executable, "-c", ECHO_SCRIPT]) as bridge:
        connection = Client(
            ConnectionSettings(bridge.url, identifier="agent", protocol="raw"), Secret("t0k")
        )
        stream = connection.events()
        seen = await collect_until(stream, lambda s, out: b"ready" in out)
        assert isinstance(seen[0], Connected) and seen[0].protocol == "raw"
        started = [e for e in seen if isinstance(e, SessionStarted)]
        assert started and started[0].complete is False
        assert await connection.send_input(b"hello\r") is False
        await connection.close()
        await stream.aclose()
        assert bridge.received == []
        assert bridge.request_headers[0]["Authorization"] == "Bearer t0k"


async def test_taking_control_sends_keystrokes_and_releasing_stops_them() -> None:
    async with pty_bridge([sys.executable, "-c", ECHO_SCRIPT]) as bridge:
        connection = Client(ConnectionSettings(bridge.url, protocol="raw"))
        stream = connection.events()
        await collect_until(stream, lambda s, out: b"ready" in out)
        await connection.take()
        assert await connection.send_input(b"hello\r") is True
        assert connection.session.in_control  # nobody arbitrates: taken on our side at once
        await collect_until(stream, lambda s, out: b"got hello" in out)
        await connection.release()
        assert await connection.send_input(b"again\r") is False
        await connection.close()
        await stream.aclose()
        assert bridge.received == [b"hello\r"]


async def test_a_raw_stream_whose_socket_closes_has_ended_and_is_not_reconnected() -> None:
    """A raw bridge closes its socket when its program ends (a bridge that spawns a program per
    connection would start another one): the session has exited, and nothing reconnects."""
    script = "import time\nfor i in range(10**6): print('tick', i, flush=True); time.sleep(0.05)"
    async with (
        pty_bridge([sys.executable, "-c", script]) as bridge,
        FaultProxy("127.0.0.1", bridge.port) as proxy,
    ):
        settings = ConnectionSettings(
            f"ws://127.0.0.1:{proxy.port}", protocol="raw", initial_delay=0.05
        )
        connection = Client(settings)
        stream = connection.events()
        await collect_until(stream, lambda s, out: b"tick" in out)
        proxy.cut_all()
        seen = await collect_until(
            stream, lambda s, out: any(isinstance(e, Disconnected) for e in s)
        )
        assert not any(isinstance(e, Reconnecting) for e in seen)
        assert connection.session.status(0).exited
        await stream.aclose()
    assert proxy.accepted == 1


async def test_a_blackholed_connection_is_detected_by_keepalive_and_reconnected() -> None:
    """The proxy drops every byte and closes nothing (an expired NAT entry): only pings can tell."""
    script = "import time\nfor i in range(10**6): print('tick', i, flush=True); time.sleep(0.2)"
    interval, timeout = 0.5, 0.5
    async with (
        pty_bridge([sys.executable, "-c", script]) as bridge,
        FaultProxy("127.0.0.1", bridge.port) as proxy,
    ):
        settings = ConnectionSettings(
            f"ws://127.0.0.1:{proxy.port}",
            protocol="raw",
            ping_interval=interval,
            ping_timeout=timeout,
            close_timeout=0.2,
            initial_delay=0.05,
        )
        connection = Client(settings)
        stream = connection.events()
        await collect_until(stream, lambda s, out: b"tick" in out)
        loop = asyncio.get_running_loop()
        proxy.blackhole()
        started = loop.time()
        # Generous margin over interval + timeout for a loaded 2-core machine; the measured figure
        # is printed by `python -m tests.benchmarks.client_faults`.
        seen = await collect_until(
            stream,
            lambda s, out: any(isinstance(e, Reconnecting) for e in s),
            timeout=interval + timeout + 5,
        )
        detected = loop.time() - started
        reconnecting = next(e for e in seen if isinstance(e, Reconnecting))
        assert reconnecting.reason == "no answer to keepalive pings", reconnecting
        assert detected > 0
        await connection.close()
        await stream.aclose()


async def test_a_slow_or_distant_link_is_not_mistaken_for_a_dead_one() -> None:
    """Throttled to 4 kB/s with 150 ms added per chunk: pings still get their pongs, so no
    reconnect happens, the output keeps flowing, and the measured latency shows the delay."""
    from tests.integration.faultproxy import Fault

    script = "import time\nfor i in range(10**6): print('tick', i, flush=True); time.sleep(0.05)"
    async with (
        pty_bridge([sys.executable, "-c", script], backlog=False) as bridge,
        FaultProxy("127.0.0.1", bridge.port) as proxy,
    ):
        proxy.plan(Fault(delay=0.15, rate=4000))
        settings = ConnectionSettings(
            f"ws://127.0.0.1:{proxy.port}", protocol="raw", ping_interval=0.3, ping_timeout=1.5
        )
        connection = Client(settings)
        stream = connection.events()
        seen = await collect_until(stream, lambda s, out: out.count(b"tick") >= 30)
        assert not any(isinstance(e, Reconnecting) for e in seen)
        latency = connection.latency
        await connection.close()
        await stream.aclose()
    assert latency is not None and latency >= 0.3  # 150 ms each way, at least
    assert proxy.accepted == 1
