"""Raw WebSocket attackers for the hostile tests: they write frames and never read.

A real client library reads what the server sends and answers its pings; these do not, which
is the attack. Each runs in a thread of its own with a blocking socket, so the server (sharing
the test's event loop) keeps running while the attacker's writes wait in the kernel.
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field

from observer.protocol.adapters.native import query


def masked(opcode: int, payload: bytes) -> bytes:
    """A client frame (RFC 6455 5.2: FIN set, masked with a zero key, payload under 126 bytes)."""
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + b"\0\0\0\0" + payload


PING = masked(0x9, b"p" * 125)
"""The largest ping a client may send (RFC 6455 5.5: control payloads are at most 125 bytes);
each asks the server for a pong as large."""


def upgrade(port: int, token: str, identifier: str = "default") -> socket.socket:
    """A connection after its ``101``, nothing of the first frame read."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(
        f"GET {query(identifier)} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        f"Sec-WebSocket-Protocol: observer.v1\r\nAuthorization: Bearer {token}\r\n\r\n".encode()
    )
    response = b""
    while b"\r\n\r\n" not in response:
        byte = sock.recv(1)
        if not byte:
            raise ConnectionError(f"closed during the upgrade: {response!r}")
        response += byte
    if b" 101 " not in response.split(b"\r\n", 1)[0]:
        raise ConnectionError(response.split(b"\r\n", 1)[0].decode())
    return sock


@dataclass
class Flooder:
    """Writes ``frame`` to ``sock`` as fast as it is taken, in a thread, until stopped or the
    server ends the connection; never reads."""

    sock: socket.socket
    frame: bytes = PING
    sent: int = 0
    ended: float | None = None
    """``time.monotonic()`` when the server ended the connection (a write failed)."""
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> Flooder:
        self.sock.settimeout(0.2)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        burst = self.frame * 512
        while not self._stop.is_set():
            try:
                self.sent += self.sock.send(burst) // len(self.frame)
            except TimeoutError:
                continue  # the server stopped reading: the kernel holds the rest
            except OSError:
                self.ended = time.monotonic()
                return

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.sock.close()
