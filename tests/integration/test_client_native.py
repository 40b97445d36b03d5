"""The client against the real ``observer.server.Server`` on 127.0.0.1:0, through the fault proxy.

Resume without loss: 100 cuts at random byte offsets (seeded), each followed by a reconnect with
``since=``; the bytes the client assembled must equal the PTY's (SHA-256), or a gap must have
been reported.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import random
import sys
from collections.abc import AsyncIterator

import pytest

from observer.credentials.store import Secret
from observer.protocol.events import (
    ControlChanged,
    OutputReceived,
    SessionStarted,
    SnapshotReceived,
)
from observer.transport.settings import ConnectionSettings
from tests.client_support import Client, Reconnecting, Seen
from tests.integration.client_peers import ECHO_SCRIPT, collect_until
from tests.integration.faultproxy import Fault, FaultProxy

pytestmark = pytest.mark.timeout(120)

TOKEN = "native-test-token-" + "7" * 20
CUTS = 100
TICKER = (
    "import sys, time\n"
    "for i in range(10**7):\n"
    "    sys.stdout.write(f'{i:08d} ' + 'abcdefghij' * 4 + '\\n'); sys.stdout.flush(); time.sleep(0.002)"
)


@contextlib.asynccontextmanager
async def native_server(command: list[str], **options: object) -> AsyncIterator[object]:
    from observer.auth.tokens import Authenticator, TokenDigests
    from observer.server import Server

    auth = Authenticator(TokenDigests.from_tokens([("control", TOKEN)]))
    server = Server(command, auth=auth, identifiers=["agent"], size=(80, 24), **options)  # type: ignore[arg-type]
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


class Assembler:
    """Rebuild the PTY stream from events; count gaps and any offset that does not line up."""

    def __init__(self) -> None:
        self.base: int | None = None
        self.stream = bytearray()
        self.gaps = 0
        self.misaligned = 0
        self.reconnects = 0

    def add(self, event: Seen) -> None:
        if isinstance(event, SnapshotReceived):
            if event.gap or self.base is None:
                self.gaps += event.gap
                self.base, self.stream = event.offset, bytearray()
            elif event.offset != self.base + len(self.stream):
                self.misaligned += 1
        elif isinstance(event, OutputReceived) and self.base is not None:
            if event.offset != self.base + len(self.stream):
                self.misaligned += 1
                return
            self.stream.extend(event.data)
        elif isinstance(event, Reconnecting):
            self.reconnects += 1


async def test_a_native_watcher_sees_the_screen_and_a_controller_types() -> None:
    async with native_server([sys.executable, "-c", ECHO_SCRIPT]) as server:
        url = f"ws://127.0.0.1:{server.port}"  # type: ignore[attr-defined]
        watcher = Client(ConnectionSettings(url, identifier="agent"), Secret(TOKEN))
        controller = Client(
            ConnectionSettings(url, identifier="agent", protocol="observer"), Secret(TOKEN)
        )
        watching, controlling = watcher.events(), controller.events()
        seen = await collect_until(
            watching, lambda s, out: any(isinstance(e, SnapshotReceived) for e in s)
        )
        started = next(e for e in seen if isinstance(e, SessionStarted))
        assert started.complete and (started.cols, started.rows) == (80, 24)
        assert await watcher.send_input(b"never\r") is False
        await collect_until(
            controlling, lambda s, out: any(isinstance(e, SnapshotReceived) for e in s)
        )
        await controller.take()
        await collect_until(controlling, lambda s, out: ControlChanged("you") in s)
        assert await controller.send_input(b"typed\r") is True
        await collect_until(watching, lambda s, out: b"got typed" in out)
        for connection, stream in ((watcher, watching), (controller, controlling)):
            await connection.close()
            await stream.aclose()


async def test_cuts_at_random_offsets_lose_no_byte() -> None:
    rng = random.Random(20261130)
    async with native_server([sys.executable, "-c", TICKER]) as server:
        session = server.sessions["agent"]  # type: ignore[attr-defined]
        async with FaultProxy("127.0.0.1", server.port) as proxy:  # type: ignore[attr-defined]
            proxy.plan(*(Fault(cut_after=rng.randint(150, 4000)) for _ in range(CUTS)))
            settings = ConnectionSettings(
                f"ws://127.0.0.1:{proxy.port}",
                identifier="agent",
                protocol="observer",
                retry_first=True,
                initial_delay=0.01,
                max_delay=0.05,
                stable_after=60,
            )
            connection = Client(settings, Secret(TOKEN))
            assembler = Assembler()

            async def run() -> None:
                after_cuts: int | None = None
                async for event in connection.events():
                    assembler.add(event)
                    if after_cuts is None and proxy.cuts >= CUTS:
                        after_cuts = len(assembler.stream)
                    if after_cuts is not None and len(assembler.stream) > after_cuts + 4096:
                        return  # the clean connection after the last cut carried bytes too

            await asyncio.wait_for(run(), 100)
            await connection.close()
    assert assembler.base is not None and proxy.cuts == CUTS
    truth = session.ring.since(assembler.base)[: len(assembler.stream)]
    print(
        f"\ncuts={proxy.cuts} reconnects={assembler.reconnects} gaps={assembler.gaps} bytes={len(assembler.stream)}"
    )
    assert assembler.misaligned == 0
    assert (
        assembler.gaps > 0
        or hashlib.sha256(assembler.stream).digest() == hashlib.sha256(truth).digest()
    )
    assert assembler.gaps == 0, "the 8 MiB ring held every offset: no cut should have cost a gap"


async def test_a_gap_the_ring_cannot_fill_is_reported() -> None:
    async with (
        native_server([sys.executable, "-c", TICKER], ring_size=4096) as server,
        FaultProxy("127.0.0.1", server.port) as proxy,  # type: ignore[attr-defined]
    ):
        # The first connection is cut; the second crawls (0.5 s per chunk) while the ticker
        # writes far more than the 4 KiB ring: the resume must come back as a gap snapshot.
        proxy.plan(Fault(cut_after=3000), Fault(delay=0.5))
        settings = ConnectionSettings(
            f"ws://127.0.0.1:{proxy.port}",
            identifier="agent",
            protocol="observer",
            initial_delay=0.01,
        )
        connection = Client(settings, Secret(TOKEN))
        stream = connection.events()
        seen = await collect_until(
            stream,
            lambda s, out: any(isinstance(e, SnapshotReceived) and e.gap for e in s),
            timeout=30,
        )
        await connection.close()
        await stream.aclose()
    assert any(isinstance(e, Reconnecting) for e in seen)


async def test_record_writes_the_snapshot_output_and_exit_status_then_stops(
    tmp_path: object,
) -> None:
    import json
    import os
    from pathlib import Path

    from tests.integration.test_client_record import observer

    program = "import time\nprint('\\x1b[32mstarted\\x1b[0m', flush=True)\ntime.sleep(1.5)\nprint('done', flush=True)\nraise SystemExit(3)"
    cast = Path(str(tmp_path)) / "native.cast"
    env = dict(os.environ, OBSERVER_TOKEN=TOKEN)
    async with native_server([sys.executable, "-c", program]) as server:
        url = f"ws://127.0.0.1:{server.port}"  # type: ignore[attr-defined]
        code, _, err = await observer(
            "record", url, "--identifier", "agent", "-o", str(cast), "--duration", "30", env=env
        )
    assert code == 0, err
    lines = cast.read_text().splitlines()
    header, events = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    assert (header["version"], header["width"], header["height"]) == (2, 80, 24)
    assert events[0][1] == "o" and events[1][1:] == ["m", "connect"]  # after the first screen
    output = "".join(e[2] for e in events if e[1] == "o")
    assert output.startswith("\x1bc") and "started" in output and "done" in output
    assert events[-2][1:] == ["x", "3"] and events[-1][1:] == ["o", ""]
