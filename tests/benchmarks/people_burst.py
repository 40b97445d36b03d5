"""What a burst of joins costs in ``people`` frames: coalesced, against every change sent at once.

N clients that asked for ``features=people`` join one session of a real server at once. Sent at
once, every join would send a list to everybody already there (N·(N+1)/2 frames, each up to N
entries); the server waits :data:`observer.server.people.PEOPLE_DELAY` and sends one list for
all the changes meanwhile. Both runs are in the same process, one after the other; the figures
are the frames and bytes the clients received, and their ratio.

    python -m tests.benchmarks.people_burst [--clients 100]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib

from websockets.asyncio.client import ClientConnection, connect

from observer.protocol.adapters.native import query
from observer.protocol.arbiter import ControlMoved, PeopleChanged, Tell
from observer.server import people
from observer.server.terminal_session import TerminalSession
from tests.integration.server_support import CONTROL_TOKEN, running_server, url

SETTLE = 1.0
"""Seconds after the last join during which the clients keep reading (the lists still due)."""


async def burst(clients: int, *, coalesce: bool) -> tuple[int, int]:
    """Frames and bytes of ``people`` the clients received after ``clients`` joined at once."""
    original = people.carry_out

    def at_once(session: TerminalSession, decision: ControlMoved | PeopleChanged | Tell) -> None:
        if isinstance(decision, PeopleChanged):
            people.send_people(session)
        else:
            original(session, decision)

    if not coalesce:
        people.carry_out = at_once
    received = [0, 0]
    counting = True
    try:
        async with running_server(["cat"], max_per_token=clients + 1) as server:
            server.arrivals.burst = server.arrivals.rate = 10 * clients  # not the limiter's test

            async def read(ws: ClientConnection) -> None:
                with contextlib.suppress(Exception):
                    async for message in ws:
                        if counting and str(message).startswith('{"type":"people"'):
                            received[0] += 1
                            received[1] += len(message)

            async def join() -> ClientConnection:
                return await connect(
                    url(server, query("default")),
                    additional_headers={"Authorization": f"Bearer {CONTROL_TOKEN}"},
                    subprotocols=["observer.v1"],
                    max_size=None,
                )

            sockets = await asyncio.gather(*(join() for _ in range(clients)))
            readers = [asyncio.create_task(read(ws)) for ws in sockets]
            await asyncio.sleep(SETTLE)  # a measurement window, not a wait for a condition
            counting = False  # the leaves that follow are not the burst measured
            for ws in sockets:
                await ws.close()
            await asyncio.gather(*readers)
    finally:
        people.carry_out = original
    return received[0], received[1]


def main() -> None:
    """Run both and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=100)
    clients = parser.parse_args().clients
    at_once = asyncio.run(burst(clients, coalesce=False))
    coalesced = asyncio.run(burst(clients, coalesce=True))
    print(f"{clients} clients joining at once: people frames received, and their bytes")
    print(f"  every change at once (anchor): {at_once[0]:>6} frames {at_once[1]:>10} bytes")
    print(f"  coalesced:                     {coalesced[0]:>6} frames {coalesced[1]:>10} bytes")
    ratio = coalesced[1] / at_once[1] if at_once[1] else float("nan")
    print(f"  bytes ratio coalesced / at once: {ratio:.3f}")


if __name__ == "__main__":
    main()
