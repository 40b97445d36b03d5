"""A loopback TCP proxy that injects faults between a client and a server, for tests.

Faults are planned per connection (the Nth accepted connection gets the Nth plan, later ones pass
through): cut both directions after a number of server→client bytes (the upgrade response counts),
delay each chunk, throttle to a byte rate. ``blackhole()`` silences every open connection: bytes
are read and dropped in both directions and nothing is closed, like a NAT entry that expired.
``stall()`` holds every byte (nothing is dropped, nothing closed) until ``unstall()``, like a
link that stops for a while and comes back.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Fault:
    """What to do to one proxied connection."""

    cut_after: int | None = None
    """Abort both sides once this many server→client bytes have been forwarded."""
    delay: float = 0.0
    """Seconds to wait before forwarding each chunk (both directions)."""
    rate: float | None = None
    """Server→client bytes per second."""


class FaultProxy:
    """Listen on 127.0.0.1:0 and forward to ``target_host:target_port``."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.plans: list[Fault] = []
        self.accepted = 0
        self.cuts = 0
        self._blackholed = False
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    async def __aenter__(self) -> FaultProxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for writer in list(self._writers):
            writer.transport.abort()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._server.wait_closed()

    def plan(self, *faults: Fault) -> None:
        """Apply ``faults`` to the next connections, in order."""
        self.plans.extend(faults)

    def blackhole(self) -> None:
        """From now on, drop every byte on every connection and close nothing."""
        self._blackholed = True

    def stall(self) -> None:
        """Hold every byte in both directions, on every connection, until :meth:`unstall`."""
        self._flowing.clear()

    def unstall(self) -> None:
        """Forward what was held, and everything after it."""
        self._flowing.set()

    def cut_all(self) -> None:
        """Abort every open connection now (like a proxy restart)."""
        for writer in list(self._writers):
            writer.transport.abort()

    async def _accept(
        self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter
    ) -> None:
        self.accepted += 1
        fault = self.plans.pop(0) if self.plans else Fault()
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.target)
        except OSError:
            client_writer.transport.abort()
            return
        self._writers |= {client_writer, server_writer}
        state = {"down": 0}

        def cut() -> None:
            self.cuts += 1
            client_writer.transport.abort()
            server_writer.transport.abort()

        async def pump(
            reader: asyncio.StreamReader, writer: asyncio.StreamWriter, downstream: bool
        ) -> None:
            with contextlib.suppress(OSError, asyncio.CancelledError):
                while chunk := await reader.read(65536):
                    await self._flowing.wait()
                    if self._blackholed:
                        continue
                    if fault.delay:
                        await asyncio.sleep(fault.delay)
                    if downstream and fault.cut_after is not None:
                        room = fault.cut_after - state["down"]
                        if room <= len(chunk):
                            writer.write(chunk[:room])
                            with contextlib.suppress(Exception):
                                await writer.drain()
                            cut()
                            return
                    if downstream:
                        state["down"] += len(chunk)
                        if fault.rate:
                            await asyncio.sleep(len(chunk) / fault.rate)
                    writer.write(chunk)
                    await writer.drain()
            if not self._blackholed:
                writer.close()  # the peer ended its side: pass the end on

        tasks = [
            asyncio.ensure_future(pump(client_reader, server_writer, False)),
            asyncio.ensure_future(pump(server_reader, client_writer, True)),
        ]
        self._tasks.update(tasks)
        try:
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            self._tasks.difference_update(tasks)
            self._writers -= {client_writer, server_writer}
            client_writer.transport.abort()
            server_writer.transport.abort()
