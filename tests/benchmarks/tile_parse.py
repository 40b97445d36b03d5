"""What parsing a tile's screen frame into its model costs, alone and among 40 tiles.

A dashboard's tiles no longer parse their frames: they draw the rows they show from the frames'
text (``observer.app.widgets.strips.TextRows``), because of what this measures. It measures a
tile whose model is fed the rows it shows (``show_rows`` without ``drawn``), as the tiles were.

Run: ``python -m tests.benchmarks.tile_parse [--frames 300]``

Ink-like agents (the fleet benchmark's: a 29-line region from a pool of 500 truecolour lines, 3
lines changed a frame, a stamped status line; 120x40) drawn into the server's own models, their
screen frames made as ``observer serve`` makes a tile's (5 a second), and applied by tile sessions
that show the bottom six rows cut to 38 columns, as a 40-tile dashboard's tiles did. The bytes
each tile's model is fed are kept, then fed again to fresh models and timed (CPU time per feed,
best of 3):

- to 10 models in turn (each model's caches stay warm);
- to 40 models in turn (what a 40-agent dashboard did);
- to 40 models with about 8 MB of other memory read between two feeds (the rest of the
  dashboard's work between two frames of one tile: the other tiles, the grid, Textual).

The ratios say how much of a tile's parse in the dashboard is the processor's caches, not the
parser's work.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from observer.client.tile_view import TILE_FPS
from observer.client.watched import WatchedSession
from observer.server.notification_log import NotificationLog
from observer.server.screen_sync import RowVersions, ScreenFeed
from observer.terminal import TerminalModel
from tests.unit.client.drive import connect

COLS, ROWS = 120, 40
AGENTS = 10
WORDS = b"the quick agent read src/app.py ran pytest -q tests/unit and wrote a diff".split()


class Agent:
    """One Ink-like agent's screen on the server, and one tile's screen feed of it."""

    def __init__(self, rng: random.Random, pool: list[bytes]) -> None:
        self.rng, self.pool = rng, pool
        self.model = TerminalModel(COLS, ROWS, scrollback=0)
        self.rows, self.notices = RowVersions(ROWS), NotificationLog()
        self.now, self.offset, self.frames = 0.0, 0, 0
        self.feed = ScreenFeed(TILE_FPS, clock=lambda: self.now)
        self.lines = [rng.choice(pool) for _ in range(29)]

    def draws(self) -> None:
        """One frame of the agent: erase the region, draw it again with 3 lines changed."""
        for _ in range(3):
            self.lines[self.rng.randrange(29)] = self.rng.choice(self.pool)
        erase = b"\x1b[2K\x1b[1A" * 29 + b"\x1b[2K\x1b[G" if self.frames else b""
        self.frames += 1
        status = b"\r\n\x1b[48;2;40;40;60m@%08d \xe2\x80\xba \x1b[0m" % self.frames
        data = erase + b"\r\n".join(self.lines) + status
        self.rows.bump(self.model.feed(data))
        self.notices.add(self.model.take_notifications())
        self.offset += len(data)

    def frame(self, first: bool) -> str | None:
        """The tile's next screen frame (the server sends 5 a second; the agent draws 10)."""
        self.now += 1 / TILE_FPS
        return self.feed.frame(self.model, self.rows, self.offset, self.notices, force=first)


def tile() -> WatchedSession:
    """A tile's session in the screen view, showing the six rows above the cursor, 38 wide."""
    session = WatchedSession(scrollback=0)
    session.choose_view("screen")
    connect(session)
    session.show_rows(lambda cols, rows, x, y: range(max(0, y - 5), y + 1), 38)
    return session


def tile_feeds(frames: int) -> list[bytes]:
    """The bytes each frame's tile model is fed, in the order the frames come."""
    rng = random.Random(7)
    colours = [
        b"\x1b[38;2;%d;%d;%dm" % (r, g, b)
        for r in range(40, 256, 27)
        for g in range(60, 256, 49)
        for b in range(80, 256, 27)
    ]
    pool = [
        b" ".join(rng.choice(colours) + rng.choice(WORDS) for _ in range(6)) + b"\x1b[0m"
        for _ in range(500)
    ]
    agents = [Agent(rng, pool) for _ in range(AGENTS)]
    tiles = [tile() for _ in agents]
    fed: list[bytes] = []
    original = TerminalModel.feed

    def kept(model: TerminalModel, data: bytes) -> set[int]:
        fed.append(bytes(data))
        return original(model, data)

    for n in range(frames):
        for agent, session in zip(agents, tiles, strict=True):
            agent.draws()
            agent.draws()
            message = agent.frame(first=n == 0)
            if message is None:
                continue
            TerminalModel.feed = kept  # type: ignore[method-assign]
            try:
                session.received(message, 1.0)
                while session.pending:
                    session.feed(1 << 20, 1.0)
            finally:
                TerminalModel.feed = original  # type: ignore[method-assign]
    return [data for data in fed if data]


def per_feed(feeds: list[bytes], models: int, other: list[dict[int, str]]) -> float:
    """CPU seconds per feed, fed to ``models`` models in turn, reading ``other`` between."""
    tiles = [TerminalModel(COLS, ROWS, 0, 256) for _ in range(models)]
    warm = len(feeds) // 5
    for index, data in enumerate(feeds[:warm]):
        tiles[index % models].feed(data)
    spent = 0.0
    for index, data in enumerate(feeds[warm:], warm):
        for item in other:
            item.get(0)
        started = time.process_time()
        tiles[index % models].feed(data)
        spent += time.process_time() - started
    return spent / (len(feeds) - warm)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300, help="screen frames per agent")
    args = parser.parse_args()
    feeds = tile_feeds(args.frames)
    size = sum(map(len, feeds)) / len(feeds)
    other = [{i: str(i)} for i in range(0, 200_000, 7)]  # about 8 MB of dicts and strings
    print(f"{len(feeds)} tile feeds of {size:.0f} bytes on average (best of 3, CPU time)\n")
    print("| fed to | µs a feed | ratio |\n|---|---|---|")
    alone = 0.0
    for label, models, between in [
        ("10 models in turn", 10, []),
        ("40 models in turn", 40, []),
        ("40 models, other memory read between feeds", 40, other),
    ]:
        took = min(per_feed(feeds, models, between) for _ in range(3))
        alone = alone or took
        print(f"| {label} | {1e6 * took:.1f} | {took / alone:.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
