"""Input for the PTY, written without ever blocking the event loop.

What the PTY does not take at once waits (up to :data:`INPUT_LIMIT` bytes) until the PTY is
writable again; past that, input is refused, and the client is told (``input_full``).
"""

from __future__ import annotations

import asyncio

from observer.server.pty_process import PtyProcess

INPUT_LIMIT = 256 * 1024


class PtyInput:
    """The holder's keystrokes on their way to ``pty``."""

    def __init__(self, loop: asyncio.AbstractEventLoop, pty: PtyProcess) -> None:
        self._loop = loop
        self._pty = pty
        self._pending = bytearray()
        self._writing = False

    def write(self, data: bytes) -> bool:
        """Queue ``data``; False if the program has not read enough of the earlier input."""
        if len(self._pending) + len(data) > INPUT_LIMIT:
            return False
        self._pending += data
        self._flush()
        return True

    def stop(self) -> None:
        """Stop waiting for the PTY (it is being closed)."""
        if self._writing:
            self._writing = False
            self._loop.remove_writer(self._pty.fd)

    def _flush(self) -> None:
        if self._pending:
            taken = self._pty.write(self._pending)
            del self._pending[:taken]
        if self._pending and not self._writing:
            self._writing = True
            self._loop.add_writer(self._pty.fd, self._flush)
        elif not self._pending and self._writing:
            self.stop()
