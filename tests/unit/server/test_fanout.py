"""The fan-out's pure parts: the shared wire frame, the time budget, the batch interval."""

from __future__ import annotations

import pytest
from websockets.frames import BINARY as OP_BINARY
from websockets.frames import TEXT as OP_TEXT
from websockets.frames import Frame
from websockets.streams import StreamReader

from observer.server.clients import FanoutBudget, wire_frame
from observer.server.pty_reader import BATCH_INTERVAL, MAX_INTERVAL, batch_interval


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
