"""Record the demo agent in a real PTY to an asciicast file (the bundled screenshot session).

``python -m observer.demo.recording FILE`` runs :mod:`observer.demo.agent` fast in a PTY, answers
its question with ``y``, and writes everything with markers at its landmarks (``full screen``,
``question``, ``answered``) through the project's crash-safe :class:`~observer.recording.recorder.Recorder`.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

from observer.demo import AGENT
from observer.recording.recorder import Recorder

COLS, ROWS = 100, 30
QUESTION = b"Should I commit these changes?"


def record_agent(path: Path, *, speed: float = 2.0, timeout: float = 120.0) -> None:
    """Run the agent in a PTY of ``COLS`` x ``ROWS`` and record it to ``path``."""
    import fcntl
    import struct
    import termios

    primary, secondary = os.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    env = {**os.environ, "OBSERVER_DEMO_SPEED": str(speed), "TERM": "xterm-256color"}
    child = subprocess.Popen(  # noqa: S603 - our own interpreter and script
        [sys.executable, str(AGENT)],
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        env=env,
        start_new_session=True,
    )
    os.close(secondary)
    seen = b""
    answered = False
    deadline = time.monotonic() + timeout
    with Recorder(path, cols=COLS, rows=ROWS, title="demo agent", overwrite=True) as recorder:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([primary], [], [], 0.1)
            if not ready:
                recorder.tick()  # text held back for redaction keeps its time
                if child.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(primary, 65536)
            except OSError:
                break
            if not chunk:
                break
            if b"\x1b[?1049h" in chunk:
                recorder.marker("full screen")
            recorder.output(chunk)
            seen = (seen + chunk)[-4096:]
            if not answered and QUESTION in seen and b"\x07" in seen:
                recorder.marker("question")
                time.sleep(0.3)
                recorder.input(b"y\r")
                os.write(primary, b"y\r")
                recorder.marker("answered")
                answered = True
        status = child.wait(timeout=5)
        recorder.exit(status)
    os.close(primary)


if __name__ == "__main__":
    record_agent(Path(sys.argv[1]))
