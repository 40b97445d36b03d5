"""The real ttyd 1.7.7, built from the source snapshot the project's peers folder ships.

``ttyd_binary()`` finds it: ``OBSERVER_TTYD`` (set by ``.ci/run``), else the build script's
default output, else it runs the build script (about 30 s with its Debian packages). Tests that
need it skip, saying why, where it cannot be had. ``running_ttyd`` starts it on a free loopback
port for one command and stops it afterwards.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from tests.waiting import accepting, until_blocking

ROOT = Path(__file__).resolve().parents[2]
BUILD_SCRIPT = ROOT.parent / "shared" / "peers" / "build-ttyd.sh"
DEFAULT_BINARY = Path(os.environ.get("TMPDIR", "/tmp")) / "observer-ttyd" / "build" / "ttyd"


@cache
def ttyd_binary() -> Path | None:
    """The ttyd binary, built if need be; None where it cannot be had."""
    given = os.environ.get("OBSERVER_TTYD")
    if given and Path(given).is_file():
        return Path(given)
    if DEFAULT_BINARY.is_file():
        return DEFAULT_BINARY
    if not BUILD_SCRIPT.is_file():
        return None
    try:
        built = subprocess.run(
            ["bash", str(BUILD_SCRIPT)], capture_output=True, text=True, timeout=300, check=True
        )
    except (OSError, subprocess.SubprocessError):
        return None
    path = Path(built.stdout.strip().splitlines()[-1]) if built.stdout.strip() else None
    return path if path is not None and path.is_file() else None


def needs_ttyd() -> Path:
    """The binary, or skip the test with the reason."""
    binary = ttyd_binary()
    if binary is None:
        pytest.skip(f"the real ttyd could not be built here ({BUILD_SCRIPT} failed or is absent)")
    return binary


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def running_ttyd(command: list[str], *options: str) -> Iterator[str]:
    """Run the real ttyd for ``command`` on loopback; yield its WebSocket URL."""
    binary = needs_ttyd()
    port = _free_port()
    process = subprocess.Popen(
        [str(binary), "-i", "lo", "-p", str(port), *options, *command],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:

        def up() -> bool:
            assert process.poll() is None, "ttyd exited before it listened"
            return accepting(port)

        until_blocking(up, "ttyd to listen", poll=0.05)
        yield f"ws://127.0.0.1:{port}/ws"
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
