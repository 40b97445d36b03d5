"""ALiS v1 frames byte for byte as asciinema 3 writes them, and the raw stream's size prefix.

The expected bytes are those of asciinema's own serializer tests (``src/alis.rs``,
``src/leb128.rs``); asciinema-player reads them (``tests/stream_readers.py`` follows its parser).
"""

from __future__ import annotations

from observer.server.stream_formats import AlisSink, RawSink, leb128, resize_sequence


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_leb128_is_asciinemas() -> None:
    expected = {
        0: [0x00],
        1: [0x01],
        127: [0x7F],
        128: [0x80, 0x01],
        255: [0xFF, 0x01],
        256: [0x80, 0x02],
        16383: [0xFF, 0x7F],
        16384: [0x80, 0x80, 0x01],
        1000000: [0xC0, 0x84, 0x3D],
    }
    for value, encoded in expected.items():
        assert leb128(value) == bytes(encoded), value


def test_alis_frames_are_asciinemas_byte_for_byte() -> None:
    clock = Clock()
    clock.now = 0.0005
    sink = AlisSink(clock, 120, 130)
    sink.output(b"")
    # Init: id 1, 500 us, 120 x 130, no theme, no init text.
    assert sink.out == [b"ALiS\x01", bytes([0x01, 0x01, 0xF4, 0x03, 0x78, 0x82, 0x01, 0x00, 0x00])]
    clock.now = 0.0007
    sink.output("Hello 世界 🌍".encode())
    clock.now = 0.0008
    sink.resize(180, 50)
    sink.marker("checkpoint")
    clock.now = 0.0010
    sink.exit(-1)  # a signal's negative status is written as 0, as asciinema does
    sink.close()
    text = "Hello 世界 🌍".encode()
    assert sink.out[2:] == [
        bytes([ord("o"), 0x02, 0xC8, 0x01, 0x11]) + text,
        bytes([ord("r"), 0x03, 0x64, 0xB4, 0x01, 0x32]),
        bytes([ord("m"), 0x04, 0x00, 0x0A]) + b"checkpoint",
        bytes([ord("x"), 0x05, 0xC8, 0x01, 0x00]),
        b"\x04",
    ]


def test_alis_sends_whole_characters_and_never_goes_back_in_time() -> None:
    clock = Clock()
    sink = AlisSink(clock, 80, 24)
    sink.output(b"\x1bc")
    clock.now = 1.0
    sink.output("é世".encode()[:3])  # é and the first byte of 世
    clock.now = 0.5  # a clock that stepped back: the event keeps the previous time
    sink.output("世".encode()[1:])
    assert sink.out[2] == b"o\x02" + leb128(1_000_000) + b"\x02" + "é".encode()
    assert sink.out[3] == b"o\x03\x00\x03" + "世".encode()


def test_the_raw_stream_starts_with_its_size_and_passes_output_as_it_is() -> None:
    sink = RawSink(Clock(), 100, 30)
    chunk = b"\x1b[31mred"
    sink.output(chunk)
    sink.resize(120, 40)
    sink.marker("takeover start")
    sink.exit(0)
    assert sink.out == [b"\x1b[8;30;100t", chunk, resize_sequence(120, 40)]
    assert sink.out[1] is chunk  # the fan-out's bytes, not a copy per client
