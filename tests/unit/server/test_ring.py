"""The output ring keeps the newest bytes by offset and forgets the oldest."""

from __future__ import annotations

import tracemalloc

import pytest

from observer.server.ring import OutputRing


def test_bytes_since_an_offset_inside_the_ring_are_exact() -> None:
    ring = OutputRing(capacity=10)
    for chunk in (b"abc", b"defg", b"hij"):
        ring.append(chunk)
    assert ring.since(0) == b"abcdefghij"
    assert ring.since(5) == b"fghij"
    assert ring.since(10) == b""


def test_old_chunks_are_forgotten_beyond_the_capacity() -> None:
    ring = OutputRing(capacity=8)
    for chunk in (b"aaaa", b"bbbb", b"cccc"):
        ring.append(chunk)
    assert (ring.start, ring.end) == (4, 12)
    assert len(ring) == 8
    assert ring.since(6) == b"bbcccc"
    assert not ring.holds(3)
    with pytest.raises(ValueError, match="outside"):
        ring.since(3)


def test_offsets_past_the_end_are_not_held() -> None:
    ring = OutputRing(capacity=8)
    ring.append(b"abc")
    assert not ring.holds(4)


def test_the_ring_holds_exactly_its_capacity_across_the_wrap() -> None:
    ring = OutputRing(capacity=100)
    stream = b""
    for i in range(1000):
        chunk = bytes([i % 256]) * (i % 13)
        ring.append(chunk)
        stream += chunk
        assert len(ring) == min(ring.end, 100)
        assert ring.since(ring.start) == stream[ring.start :]


def test_a_write_larger_than_the_ring_keeps_its_tail() -> None:
    ring = OutputRing(capacity=8)
    ring.append(b"ab")
    ring.append(b"0123456789")
    assert (ring.start, ring.end) == (4, 12)
    assert ring.since(4) == b"23456789"


def test_the_ring_keeps_no_object_per_write() -> None:
    """A redrawing agent writes thousands of chunks a minute: kept as objects, they fragment C
    malloc's heap, which then grows for hours. The ring's memory is its map, allocated once."""
    ring = OutputRing(capacity=1 << 20)
    ring.append(b"x")
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(2000):
            ring.append(bytes([i % 251]) * (4000 + i % 900))  # ~8 MiB through a 1 MiB ring
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held < 64 * 1024
