"""The server's snapshots carry its parser's unfinished input: a client that feeds the snapshot's
repaint and then the output after its offset shows what the server's model shows, wherever the
output was cut (the server side of ``TerminalModel.to_ansi(unfinished=True)``, read by the
client's own adapter)."""

from __future__ import annotations

import pytest

from observer.protocol import frames
from observer.protocol.adapters.native import NativeAdapter
from observer.protocol.events import SnapshotReceived
from observer.server.model_feed import ModelFeed
from observer.terminal import TerminalModel

STREAM = (
    "ls: \x1b[1;34mdir\x1b[0m \x1b]0;agent: \u4e2d\x07 done \U0001f680 \x1b[38;2;1;2;3mok".encode()
)


class Reader:
    """The PTY reader's pause/resume, which these tests never need."""

    def pause(self) -> None:
        pass

    def resume(self) -> None:
        pass


def _received_snapshot(message: str | bytes) -> SnapshotReceived:
    adapter = NativeAdapter()
    hello = frames.Hello("s", "watch", 30, 4, 0, None, 1, "")
    events = adapter.receive(frames.encode(hello)) + adapter.receive(message)
    (snapshot,) = [event for event in events if isinstance(event, SnapshotReceived)]
    return snapshot


@pytest.mark.parametrize("cut", range(len(STREAM) + 1))
def test_a_client_resumes_from_a_snapshot_taken_anywhere(cut: int) -> None:
    feed = ModelFeed(TerminalModel(30, 4), 1 << 20, Reader(), lambda _: None)
    feed.add(STREAM[:cut])
    feed.catch_up()
    snapshot = _received_snapshot(feed.snapshot_message())
    assert snapshot.offset == cut
    client = TerminalModel(snapshot.cols, snapshot.rows)
    client.feed(snapshot.data)
    client.feed(STREAM[snapshot.offset :])
    whole = TerminalModel(30, 4)
    whole.feed(STREAM)
    assert [list(client.line(y)) for y in range(4)] == [list(whole.line(y)) for y in range(4)]
    assert (client.title, client.cursor_x, client.cursor_y) == (whole.title, whole.cursor_x, 0)
