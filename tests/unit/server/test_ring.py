"""The output ring keeps the newest bytes by offset and forgets the oldest."""

from __future__ import annotations

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


def test_the_ring_holds_at_least_its_capacity() -> None:
    ring = OutputRing(capacity=100)
    for i in range(1000):
        ring.append(bytes([i % 256]) * 7)
        assert len(ring) >= min(ring.end, 100)
        assert len(ring) < 100 + 7
