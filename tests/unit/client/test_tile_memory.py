"""A tile's model costs what a tile shows: its parser caches stay small.

A tile parses the rows its agent changes, a few a second, each drawn in colours met once or
twice: with a watched session's 4,096 entries per cache, 40 tiles' models held ~200 MiB after a
while of Ink-like agents, for the same speed (a row parsed in 21 µs rather than 17 µs).
"""

from __future__ import annotations

import random
import tracemalloc

from observer.client.watched import WatchedSession


def truecolour_rows(count: int) -> list[bytes]:
    """Rows as a tile gets them: each word in a colour of its own, at a random row."""
    rng = random.Random(3)
    words = b"the quick agent read src/app.py ran pytest -q tests/unit and wrote a diff".split()
    rows = []
    for _ in range(count):
        coloured = (
            b"\x1b[0;38;2;%d;%d;%dm%s" % (rng.randrange(256), rng.randrange(256), 90, w)
            for w in rng.sample(words, 6)
        )
        rows.append(b"\x1b[%d;1H\x1b[0m\x1b[2K" % rng.randrange(1, 30) + b" ".join(coloured))
    return rows


def grown(session: WatchedSession, rows: list[bytes]) -> int:
    """Bytes the session's model holds more after parsing ``rows`` (its screen stays 120x40)."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for row in rows:
            session.model.feed(row)
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def test_a_tiles_model_stays_small_where_a_watched_sessions_caches_what_it_parses() -> None:
    rows = truecolour_rows(3_000)
    tile = grown(WatchedSession(size=(120, 40), scrollback=0), rows)
    watched = grown(WatchedSession(size=(120, 40), scrollback=1), rows)
    assert tile < 2**19  # the screen's cells and a few hundred cached sequences
    assert watched > 3 * tile  # the same rows, cached for a session watched full size
