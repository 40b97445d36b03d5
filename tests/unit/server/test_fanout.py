"""The fan-out's parts: the shared wire frame, the time budget, the batches sent to clients."""

from __future__ import annotations

import asyncio
from typing import cast

import pytest
from websockets.frames import BINARY as OP_BINARY
from websockets.frames import TEXT as OP_TEXT
from websockets.frames import Frame
from websockets.streams import StreamReader

from observer.protocol.arbiter import ServerConnection
from observer.server.clients import Client, FanoutBudget
from observer.server.fanout import Fanout
from observer.server.pty_reader import BATCH_INTERVAL, MAX_INTERVAL, batch_interval
from observer.server.websocket_adapter import FrameSocket, wire_frame
from tests.waiting import until


@pytest.mark.parametrize("length", [0, 1, 125, 126, 65535, 65536, 300_000])
def test_the_shared_frame_is_byte_for_byte_what_websockets_sends_for_binary_output(
    length: int,
) -> None:
    payload = bytes(range(256)) * (length // 256) + bytes(length % 256)
    expected = Frame(OP_BINARY, payload).serialize(mask=False)
    assert wire_frame(payload) == expected


def test_the_shared_frame_of_a_text_message_is_a_utf8_text_frame() -> None:
    message = '{"type":"resize","cols":100,"rows":30,"title":"é ✓"}'
    assert wire_frame(message) == Frame(OP_TEXT, message.encode()).serialize(mask=False)


def test_a_client_parser_reads_the_shared_frame_back() -> None:
    payload = b"\x1b[31mred\x1b[0m" * 10_000
    reader = StreamReader()
    reader.feed_data(wire_frame(payload))
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
    except StopIteration as done:
        frame = done.value
    else:  # pragma: no cover - the whole frame was fed
        raise AssertionError("the parser wanted more bytes")
    assert frame.opcode == OP_BINARY and frame.fin and frame.data == payload


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_fan_out_within_its_share_of_the_time_is_never_over_budget() -> None:
    clock = Clock()
    budget = FanoutBudget(share=0.25, window=0.1, clock=clock)
    for _ in range(1000):
        clock.now += 0.004
        assert not budget.spend(0.0009)  # 22 % of the time
    assert budget.exceeded == 0


def test_a_fan_out_taking_more_than_its_share_is_over_budget_once_per_window() -> None:
    clock = Clock()
    budget = FanoutBudget(share=0.25, window=0.1, clock=clock)
    answers = []
    for _ in range(100):
        clock.now += 0.004
        answers.append(budget.spend(0.002))  # 50 % of the time
    assert any(answers)
    # Each time the budget is exceeded a new window starts: not every batch is over budget.
    assert budget.exceeded == sum(answers) < len(answers)


def test_one_long_fan_out_exceeds_the_budget_at_once() -> None:
    clock = Clock()
    budget = FanoutBudget(share=0.25, window=0.1, clock=clock)
    clock.now += 0.001
    assert budget.spend(0.05)


def test_streaming_batches_grow_with_the_watchers_but_never_past_a_display_frame() -> None:
    assert batch_interval(0) == batch_interval(1) == BATCH_INTERVAL
    assert batch_interval(10) < batch_interval(100)
    assert batch_interval(10_000) == MAX_INTERVAL <= 1 / 60


class Recorder:
    """Stands in for a :class:`~observer.server.clients.Client`: records what it is given."""

    def __init__(self) -> None:
        self.messages: list[bytes] = []
        self.screen = None
        self.token = None

    def deliver(self, message: bytes, frame: bytes) -> None:
        assert frame == wire_frame(message)
        self.messages.append(message)

    def shed_backlog(self) -> None:  # pragma: no cover - the budget is not exceeded here
        raise AssertionError("shed")


async def test_small_output_such_as_an_echo_goes_to_the_clients_at_once() -> None:
    client = Recorder()
    fanout = Fanout(asyncio.get_running_loop(), [cast(Client, client)])
    fanout.add(b"a")
    fanout.add(b"b")
    assert client.messages == [b"a", b"b"]


async def test_streaming_output_is_collected_into_one_frame_per_batch_interval() -> None:
    clients = [Recorder() for _ in range(100)]
    fanout = Fanout(asyncio.get_running_loop(), [cast(Client, c) for c in clients])
    fanout.add(b"x" * 4096)  # the first batch goes at once
    for _ in range(10):
        fanout.add(b"y" * 4096)  # the next ones wait for the interval
    assert all(c.messages == [b"x" * 4096] for c in clients)
    expected = [b"x" * 4096, b"y" * 40960]
    await until(lambda: all(c.messages == expected for c in clients), "the second batch")


async def test_a_flush_sends_what_was_collected_before_anything_else_is_sent() -> None:
    clients = [Recorder() for _ in range(100)]
    fanout = Fanout(asyncio.get_running_loop(), [cast(Client, c) for c in clients])
    fanout.add(b"x" * 4096)
    fanout.add(b"y" * 10)
    assert clients[0].messages == [b"x" * 4096]
    fanout.flush()  # e.g. before a resize frame or a client's snapshot
    assert all(c.messages == [b"x" * 4096, b"y" * 10] for c in clients)
    await asyncio.sleep(batch_interval(100) * 3)  # time for a batch that must not come
    assert all(c.messages == [b"x" * 4096, b"y" * 10] for c in clients)


async def test_a_stream_goes_even_to_one_client_at_most_once_a_display_frame() -> None:
    client = Recorder()
    fanout = Fanout(asyncio.get_running_loop(), [cast(Client, client)])
    fanout.add(b"x" * 4096)  # the first batch after a quiet spell goes at once
    for _ in range(3):
        fanout.add(b"y" * 4096)  # a flood, read every 2 ms: collected
    assert client.messages == [b"x" * 4096]
    await until(lambda: len(client.messages) == 2, "the stream's next message")
    assert client.messages[1] == b"y" * 4096 * 3
    fanout.add(b"z")  # after the stream, an echo waits for the frame too, in stream order
    await until(lambda: len(client.messages) == 3, "the echo")


async def test_a_redrawing_ui_s_frames_go_at_once_when_a_display_frame_apart() -> None:
    client = Recorder()
    fanout = Fanout(asyncio.get_running_loop(), [cast(Client, client)])
    for n in range(3):
        fanout.add(b"%d" % n * 4096)  # an Ink-like frame ...
        assert len(client.messages) == n + 1  # ... goes at once
        await asyncio.sleep(MAX_INTERVAL * 1.5)  # the next one a display frame or more later


async def test_without_clients_no_output_is_kept_for_them() -> None:
    clients: list[Client] = []
    fanout = Fanout(asyncio.get_running_loop(), clients)
    fanout.add(b"x" * 4096)
    client = Recorder()
    clients.append(cast(Client, client))
    fanout.flush()
    assert client.messages == []


def test_the_clients_beyond_their_tokens_fair_share_are_shed_first() -> None:
    from types import SimpleNamespace

    from observer.server.clients import beyond_fair_share

    def client(token: str | None, screen: object = None) -> object:
        return SimpleNamespace(token=token, screen=screen)

    many = [client("hoarder") for _ in range(5)]
    honest = client("ops")
    tile = client("hoarder", screen=object())
    assert beyond_fair_share([*many, honest, tile]) == many[1:]  # type: ignore[list-item]
    assert beyond_fair_share([*many[:2], client("ops"), client("ops")]) == []  # type: ignore[list-item]
    assert beyond_fair_share(many) == []  # type: ignore[arg-type]


class RecordingSocket:
    """Stands in for :class:`~observer.server.websocket_adapter.FrameSocket`: an open socket that
    keeps, in order, every message sent and every frame written (``direct`` as websockets has
    it without compression)."""

    direct = True
    paused = False

    def __init__(self) -> None:
        self.sent: list[bytes | str] = []

    def limit_unsent(self) -> None:
        pass

    def takes_writes(self) -> bool:
        return True

    def open(self) -> bool:
        return True

    def unsent(self) -> int:
        return 0

    def write(self, frame: bytes) -> None:
        self.sent.append(frame)

    async def send(self, message: bytes | str) -> None:
        self.sent.append(message)

    async def drain(self) -> None:
        pass


async def test_hello_goes_first_even_when_the_backlog_behind_it_overflows_at_once() -> None:
    """A client joining during a flood can overflow before its writer runs: the backlog is
    dropped for a snapshot, but never its ``hello`` (without it, the stream cannot be read)."""
    socket = RecordingSocket()
    resyncs: list[Client] = []

    def resync(client: Client) -> float:
        resyncs.append(client)
        client.push_unbounded(b"SNAPSHOT", wire_frame(b"SNAPSHOT"))
        return 0.0

    client = Client(cast(FrameSocket, socket), cast(ServerConnection, None), 1000, resync)
    client.open_with('{"type":"hello"}')
    client.push_unbounded(b"snapshot shared with the joiner", None)
    for _ in range(10):
        client.push(b"x" * 500)  # the output after the shared snapshot: past the limit
    assert client.overflowed
    writer = asyncio.create_task(client.run_writer())
    try:
        await until(lambda: len(socket.sent) >= 2, "hello and the snapshot sent")
    finally:
        writer.cancel()
    assert socket.sent[0] == '{"type":"hello"}'
    assert socket.sent[1] == wire_frame(b"SNAPSHOT")
    assert resyncs == [client]
