"""The app under a flood: key latency, frames per second, and the final screen.

Run: ``python -m tests.benchmarks.app_flood [--mb 50] [--keys 40]``

A real server runs a program in a raw PTY that writes ``--mb`` megabytes of coloured log lines
(deterministic, seeded) while echoing every key it reads as its window title. The app watches it
headless in control mode and presses keys one after another; a key's latency is the time from the
press to its echo (the title) being in the app's terminal model. The same measurement with no flood
is the baseline, taken in the same run. Then it checks that the view ends on the same screen as the
terminal model fed the same bytes in one go (what ``observer render`` prints).
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import time
from dataclasses import dataclass
from typing import Any

from textual import events
from websockets.asyncio.client import ClientConnection

from observer.app import textual_patches
from observer.app.app import ObserverApp
from observer.app.widgets.terminal_view import TerminalView
from observer.credentials.store import Secret
from observer.terminal import TerminalModel
from observer.transport.settings import ConnectionSettings
from tests.client_support import live_link

COLS, ROWS = 120, 36
LOST_AFTER = 2.0

GENERATOR = r'''
import random

def flood(total):
    """Deterministic coloured log lines, ``total`` bytes in 16 KiB chunks."""
    rnd = random.Random(2026)
    words = ["request", "worker", "cache", "build", "test", "parse", "render", "commit"]
    sent, chunk = 0, []
    size = 0
    n = 0
    while sent + size < total:
        n += 1
        colour = 31 + n % 7
        line = "\x1b[2m%08d\x1b[0m \x1b[%dm%-7s\x1b[0m %s\r\n" % (
            n, colour, rnd.choice(words), " ".join(rnd.choice(words) for _ in range(8)))
        data = line.encode()
        chunk.append(data)
        size += len(data)
        if size >= 16384:
            yield b"".join(chunk)
            sent += size
            chunk, size = [], 0
    if chunk:
        yield b"".join(chunk)
    yield b"\x1b[1;32mflood finished\x1b[0m\r\n"
'''

PROGRAM = (
    GENERATOR
    + r"""
import os, queue, sys, threading, time, tty
tty.setraw(0)
echoes = queue.Queue()
flooding = threading.Event()
done = threading.Event()
started = threading.Event()

def echo():
    # While flooding, echoes are queued and written between chunks (a lock would starve them).
    while True:
        data = os.read(0, 64)
        if not data:
            return
        title = b"\x1b]0;key:" + data.hex().encode() + b"\x07"
        if flooding.is_set() and not done.is_set():
            echoes.put(title)
        else:
            os.write(1, title)
        if data == b"!":
            flooding.set()
            started.set()

def drain():
    while not echoes.empty():
        os.write(1, echoes.get_nowait())

threading.Thread(target=echo, daemon=True).start()
started.wait()
for chunk in flood(int(sys.argv[1])):
    drain()
    os.write(1, chunk)
done.set()
drain()
time.sleep(3600)
"""
)


@dataclass
class Run:
    handled: list[float]
    """Key press to its bytes handed to the WebSocket (the app's own key handling)."""
    echoed: list[float]
    """Key press to its echo in the app's model (through the server and the PTY)."""
    lost: int
    frames: int
    seconds: float
    screen_matches: bool | None
    resyncs: int = 0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class FrameSpy:
    """Times every binary (input) frame the client writes to its WebSocket."""

    def __init__(self) -> None:
        self.sent: list[float] = []
        self._original = ClientConnection.send

    def install(self) -> None:
        spy, original = self, self._original

        async def send(connection: ClientConnection, message: Any, *args: Any) -> None:
            if isinstance(message, bytes | bytearray):
                spy.sent.append(time.perf_counter())
            await original(connection, message, *args)

        ClientConnection.send = send  # type: ignore[method-assign]

    def remove(self) -> None:
        ClientConnection.send = self._original  # type: ignore[method-assign]


async def press_and_time(app: ObserverApp, spy: FrameSpy, key: str) -> tuple[float, float | None]:
    """Post a key as the terminal driver would; time its frame and its echo."""
    session = app.links[0].session
    want = "key:" + key.encode().hex()
    frames_before = len(spy.sent)
    started = time.perf_counter()
    app.post_message(events.Key(key, key))
    while len(spy.sent) == frames_before:
        await asyncio.sleep(0.0005)
    handled = spy.sent[frames_before] - started
    while session.model.title != want:
        if time.perf_counter() - started > LOST_AFTER:
            return handled, None
        await asyncio.sleep(0.001)
    return handled, time.perf_counter() - started


def finished(app: ObserverApp) -> bool:
    return any("flood finished" in line for line in app.links[0].session.model.text())


SERVER = r"""
import asyncio, signal, sys
from observer.server import Server
from observer.auth.tokens import Authenticator, TokenDigests

async def main():
    token = sys.stdin.readline().strip()
    program, total, cols, rows = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    server = Server(
        [sys.executable, "-c", program, total],
        auth=Authenticator(TokenDigests.from_tokens([("control", token)])),
        identifiers=("flood",),
        size=(cols, rows),
    )
    await server.start()
    print(server.port, flush=True)
    stop = asyncio.Event()  # SIGTERM ends the agent too (its process group), then the server
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    await server.stop()

asyncio.run(main())
"""


async def start_server(total: int, token: str) -> tuple[asyncio.subprocess.Process, int]:
    """The endpoint in its own process, as a remote sandbox would be (token on stdin)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        SERVER,
        PROGRAM,
        str(total),
        str(COLS),
        str(ROWS),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(token.encode() + b"\n")
    await process.stdin.drain()
    port = int(await asyncio.wait_for(process.stdout.readline(), 30))
    return process, port


async def measure(megabytes: float, keys: int) -> Run:
    token = secrets.token_urlsafe(16)
    total = int(megabytes * 1_000_000)
    process, port = await start_server(total, token)
    spy = FrameSpy()
    spy.install()
    try:
        url = f"ws://127.0.0.1:{port}/"
        settings = ConnectionSettings(url=url, identifier="flood", protocol="observer")
        source = live_link(settings, Secret(token), label=url)
        textual_patches.install()  # as `observer watch` runs the app
        app = ObserverApp([source])
        # In control the view is the whole window less the status line: the PTY keeps the size
        # the expected screen is computed for (it follows the controller's view).
        async with app.run_test(size=(COLS, ROWS + 1)) as pilot:
            await pilot.press("ctrl+t", "y")
            while not app.links[0].session.in_control:
                await asyncio.sleep(0.01)
            view = app.screen.query_one(TerminalView)
            await pilot.press("!" if total else "?")
            frames_before, started = view.frames, time.perf_counter()
            handled, echoed, lost, n = [], [], 0, 0
            while n < keys or (total and not finished(app)):
                took, echo = await press_and_time(app, spy, "abcdefghij"[n % 10])
                handled.append(took)
                if echo is None:
                    lost += 1
                else:
                    echoed.append(echo)
                await asyncio.sleep(0.02)
                n += 1
            seconds = time.perf_counter() - started
            frames = view.frames - frames_before
            matches = None
            if total:
                await pilot.pause(0.3)
                matches = app.links[0].session.model.text() == expected_screen(total)
            return Run(
                handled, echoed, lost, frames, seconds, matches, app.links[0].session.resyncs
            )
    finally:
        spy.remove()
        process.terminate()
        await process.wait()


def expected_screen(total: int) -> list[str]:
    namespace: dict[str, object] = {}
    exec(GENERATOR, namespace)
    model = TerminalModel(COLS, ROWS, scrollback=0)
    for chunk in namespace["flood"](total):  # type: ignore[operator]
        model.feed(chunk)
    return model.text()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=float, default=50.0, help="megabytes to flood")
    parser.add_argument("--keys", type=int, default=40, help="keys to press")
    args = parser.parse_args()
    idle = asyncio.run(measure(0, args.keys))
    flood = asyncio.run(measure(args.mb, args.keys))
    rows = [
        ("key handled p50 (ms)", idle.handled, flood.handled, 0.5),
        ("key handled p99 (ms)", idle.handled, flood.handled, 0.99),
        ("key echoed p50 (ms)", idle.echoed, flood.echoed, 0.5),
        ("key echoed p99 (ms)", idle.echoed, flood.echoed, 0.99),
    ]
    print(f"{'':24}{'idle':>12}{f'{args.mb:g} MB flood':>16}{'ratio':>10}")
    for name, base_values, loaded_values, q in rows:
        base, loaded = percentile(base_values, q) * 1000, percentile(loaded_values, q) * 1000
        print(f"{name:24}{base:12.1f}{loaded:16.1f}{loaded / base:10.2f}")
    fps_idle, fps_flood = idle.frames / idle.seconds, flood.frames / flood.seconds
    print(f"{'frames per second':24}{fps_idle:12.1f}{fps_flood:16.1f}{fps_flood / fps_idle:10.2f}")
    print(
        f"flood: {flood.seconds:.1f} s, {len(flood.handled)} keys, {flood.lost} echoes not seen "
        f"within {LOST_AFTER:g} s, {flood.resyncs} resyncs"
    )
    p99 = percentile(flood.handled, 0.99)
    print(f"goal: key handling p99 < 100 ms under flood: {'met' if p99 < 0.1 else 'NOT met'}")
    print(
        f"final screen equals the model fed the same bytes: {'yes' if flood.screen_matches else 'NO'}"
    )


if __name__ == "__main__":
    main()
