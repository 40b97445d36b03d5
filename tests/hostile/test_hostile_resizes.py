"""10,000 resizes through the live path: the server, the PTY and every watcher stay consistent.

A holder over a real connection sends 10,000 ``resize`` frames (extreme and ordinary sizes, as a
runaway script or a hostile client would) while the program prints; a watcher stays connected.
The server keeps serving, the PTY and the server's model end at the last size (clamped), and the
watcher and a late joiner both see that size and the server's screen.
"""

from __future__ import annotations

import textwrap

from observer.protocol import frames
from observer.protocol.events import Resized, SnapshotReceived
from tests.integration.server_support import PY, model_text, observe, running_server, wait_for
from tests.integration.test_server_control import pty_size

RESIZES = 10_000
FINAL = (77, 19)

TICKER = textwrap.dedent(
    """
    import sys, time
    for i in range(10**9):
        sys.stdout.write(f"tick {i}\\n")
        sys.stdout.flush()
        time.sleep(0.002)
    """
)


def size(i: int) -> tuple[int, int]:
    """Ordinary sizes mixed with the extremes the protocol allows."""
    extremes = [(1, 1), (frames.MAX_DIMENSION, frames.MAX_DIMENSION), (1, frames.MAX_DIMENSION)]
    return extremes[i % 3] if i % 50 == 0 else (20 + i % 200, 5 + i % 60)


def last_size(events: list[object]) -> tuple[int, int] | None:
    for event in reversed(events):
        if isinstance(event, Resized | SnapshotReceived):
            return event.cols, event.rows
    return None


async def test_ten_thousand_resizes_leave_server_pty_and_watchers_consistent() -> None:
    async with (
        running_server([PY, "-c", TICKER], size=(80, 24)) as server,
        observe(server) as watcher,
        observe(server, control=True) as holder,
    ):
        session = server.sessions["default"]
        for i in range(RESIZES):
            await holder.send(holder.session.encode_resize(*size(i)))
        await holder.send(holder.session.encode_resize(*FINAL))
        await wait_for(lambda: pty_size(server) == FINAL, timeout=60)
        await watcher.until(lambda c: last_size(c.events) == FINAL, timeout=60)
        await holder.until(lambda c: last_size(c.events) == FINAL, timeout=60)
        assert (session.model.cols, session.model.rows) == FINAL
        assert not session.exited  # the program lived through every SIGWINCH
        ring_end = session.ring.end
        await wait_for(lambda: session.ring.end > ring_end + 100)  # and still prints
        async with observe(server) as late:
            await late.until(lambda c: any(isinstance(e, SnapshotReceived) for e in c.events))
            snapshot = next(e for e in late.events if isinstance(e, SnapshotReceived))
            assert (snapshot.cols, snapshot.rows) == FINAL
            assert (late.screen.cols, late.screen.rows) == FINAL
            assert len(late.text()) == len(model_text(server)) == FINAL[1]
