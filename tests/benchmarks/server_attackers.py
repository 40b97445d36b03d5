"""The hostile watch token's attacks, run in a process of their own beside an honest watcher.

``python -m tests.benchmarks.server_attackers PORT HOSTILE HONEST ATTACK`` (started by
:mod:`tests.benchmarks.server_attacks`): connects an honest watcher (its own token) and the
attack, prints ``ready``, reads the stream offset to reach from stdin, goes on until the honest
watcher's stream is there (or 20 s pass), then prints one JSON line: the honest watcher's
offset, binary bytes and snapshots, and what the attack did. Raw sockets and selectors, as in
the benchmark's watchers' process (:func:`tests.benchmarks.server.watchers_process`), so the
attackers cost this process, not the server's.

Attacks (each of one watch token): ``none``; ``ping-flood`` (one connection writes pings as
fast as its socket takes them and never reads); ``message-limit`` (50 connections each send
``release`` at the per-connection limit, 500 a second, and read what comes); ``churn`` (4
threads connect, read the hello and the snapshot, and reset, in a loop); ``readers`` (50
connections read everything).
"""

from __future__ import annotations

import contextlib
import json
import selectors
import socket
import struct
import sys
import threading
import time

from observer.protocol.adapters.native import query
from tests.benchmarks.server import StreamFollower, read_into

PING = bytes([0x89, 0x80 | 125]) + b"\0\0\0\0" + b"p" * 125
RELEASE = b'{"type":"release"}'
RELEASE_FRAME = bytes([0x81, 0x80 | len(RELEASE)]) + b"\0\0\0\0" + RELEASE
CONNECTIONS = 50
RATE = 500
"""Messages a second each connection of ``message-limit`` sends (the per-connection limit)."""


def upgrade(port: int, token: str) -> socket.socket:
    """A WebSocket connection with ``token`` after its ``101`` (or ``ConnectionError``)."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(
        f"GET {query('default')} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: observer.v1\r\n"
        f"Authorization: Bearer {token}\r\n\r\n".encode()
    )
    response = b""
    while b"\r\n\r\n" not in response:
        byte = sock.recv(1)  # byte by byte: nothing of the first frame is read here
        if not byte:
            sock.close()
            raise ConnectionError("closed during the upgrade")
        response += byte
    if b" 101 " not in response.split(b"\r\n", 1)[0]:
        sock.close()
        raise ConnectionError(response.split(b"\r\n", 1)[0].decode())
    return sock


def reset(sock: socket.socket) -> None:
    """Close with a TCP reset (``SO_LINGER`` 0), as a client that just goes away."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


class PingFlood:
    """A thread writing pings to one connection as fast as its socket takes them (blocking
    writes: it waits only when the server stops reading); it never reads."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.sent = 0
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        burst = PING * 512
        self.sock.setblocking(True)
        with contextlib.suppress(OSError):  # the server closed it
            while True:
                self.sent += self.sock.send(burst) // len(PING)


class Churn:
    """Threads that connect, read the hello and the snapshot, and reset, until stopped."""

    def __init__(self, port: int, token: str, threads: int = 4) -> None:
        self.port, self.token = port, token
        self.opened = self.refused = 0
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._run, daemon=True) for _ in range(threads)]
        for thread in self._threads:
            thread.start()

    def _run(self) -> None:
        buffer = bytearray(1 << 16)
        while not self._stop.is_set():
            try:
                sock = upgrade(self.port, self.token)
            except (ConnectionError, OSError):
                self.refused += 1
                continue
            self.opened += 1
            follower = StreamFollower()
            sock.settimeout(5)
            try:
                while not follower.snapshots:
                    received = sock.recv_into(buffer)
                    if not received:
                        break
                    follower.feed(memoryview(buffer)[:received])
            except OSError:
                pass
            reset(sock)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=6)


def run(port: int, hostile: str, honest: str, attack: str) -> None:
    """Connect, attack, follow the honest watcher; see the module's docstring."""
    selector = selectors.DefaultSelector()
    followers: dict[socket.socket, StreamFollower] = {}
    honest_sock = upgrade(port, honest)
    honest_sock.setblocking(False)
    followers[honest_sock] = StreamFollower()
    selector.register(honest_sock, selectors.EVENT_READ)
    senders: list[socket.socket] = []
    flood: PingFlood | None = None
    churn: Churn | None = None
    if attack in ("message-limit", "readers"):
        for _ in range(CONNECTIONS):
            sock = upgrade(port, hostile)
            sock.setblocking(False)
            followers[sock] = StreamFollower()
            selector.register(sock, selectors.EVENT_READ)
            if attack == "message-limit":
                senders.append(sock)
    elif attack == "ping-flood":
        flood = PingFlood(upgrade(port, hostile))
    selector.register(sys.stdin, selectors.EVENT_READ)
    print("ready", flush=True)
    if attack == "churn":
        churn = Churn(port, hostile)
    buffer = bytearray(1 << 20)
    view = memoryview(buffer)
    target, deadline, sent, next_send = None, 0.0, 0, time.monotonic()
    while True:
        now = time.monotonic()
        if senders and now >= next_send:
            # 5 messages per 10 ms from each: the per-connection limit of 500 a second.
            for sock in senders:
                with contextlib.suppress(BlockingIOError, OSError):
                    sent += sock.send(RELEASE_FRAME * (RATE // 100)) // len(RELEASE_FRAME)
            next_send = now + 0.01
        for key, _ in selector.select(0.002 if senders else 0.05):
            sock = key.fileobj
            if sock is sys.stdin:
                target, deadline = int(sys.stdin.readline()), time.monotonic() + 20
                selector.unregister(sys.stdin)
                continue
            assert isinstance(sock, socket.socket)
            for pong in read_into(selector, sock, followers[sock], buffer, view):
                with contextlib.suppress(OSError):
                    sock.send(pong)
        if target is not None and (
            followers[honest_sock].offset >= target or time.monotonic() > deadline
        ):
            break
    if churn is not None:
        churn.stop()
    own = followers[honest_sock]
    done = {"sent": flood.sent if flood is not None else sent}
    if churn is not None:
        done = {"opened": churn.opened, "refused": churn.refused}
    print(json.dumps({"honest": [own.offset, own.binary, own.snapshots], **done}), flush=True)
    for sock in followers:
        sock.close()


if __name__ == "__main__":
    run(int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4])
