"""A child process on a fresh PTY, in its own session and process group.

The child is a session leader with the PTY as its controlling terminal (``setsid`` +
``TIOCSCTTY``), so that resizing the PTY sends it SIGWINCH, and ending the process group ends
everything it started. The master side is non-blocking; the server reads it from the event loop.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Mapping, Sequence

from observer.errors import UsageError


def _make_controlling_terminal() -> None:  # pragma: no cover - runs in the child
    # Popen has already called setsid() (start_new_session) and put the PTY on fds 0-2.
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class PtyProcess:
    """``command`` running on a PTY of ``cols`` x ``rows`` with ``TERM=xterm-256color``."""

    def __init__(
        self,
        command: Sequence[str],
        cols: int,
        rows: int,
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
    ) -> None:
        master, slave = os.openpty()
        try:
            set_window_size(master, cols, rows)
            child_env = dict(os.environ if env is None else env)
            child_env["TERM"] = "xterm-256color"
            child_env.pop("COLUMNS", None)
            child_env.pop("LINES", None)
            self.process = subprocess.Popen(  # noqa: S603 - the operator's own command
                list(command),
                stdin=slave,
                stdout=slave,
                stderr=slave,
                cwd=cwd,
                env=child_env,
                start_new_session=True,
                preexec_fn=_make_controlling_terminal,  # noqa: PLW1509 - needed for TIOCSCTTY
                close_fds=True,
            )
        except OSError as error:
            os.close(master)
            raise UsageError(
                f"cannot start {command[0]!r}: {error.strerror}", "check the command"
            ) from None
        finally:
            os.close(slave)
        os.set_blocking(master, False)
        self.fd = master
        self.pid = self.process.pid

    def resize(self, cols: int, rows: int) -> None:
        """Set the PTY size; the kernel sends SIGWINCH to the foreground process group."""
        with contextlib.suppress(OSError):
            set_window_size(self.fd, cols, rows)

    def write(self, data: bytes | bytearray | memoryview) -> int:
        """Write what the PTY takes now without blocking; return how many bytes it took."""
        try:
            return os.write(self.fd, data)
        except BlockingIOError:
            return 0
        except OSError:  # the child side is gone: nobody will read it
            return len(data)

    def poll(self) -> int | None:
        """The exit status if the child has ended (negative: killed by that signal), else None."""
        return self.process.poll()

    def terminate(self, grace: float = 2.0) -> None:
        """End the child's whole process group: SIGHUP and SIGTERM, then SIGKILL after ``grace``."""
        for sig in (signal.SIGHUP, signal.SIGTERM):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, sig)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and self._group_alive():
            self.process.poll()
            time.sleep(0.01)
        if self._group_alive():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=grace)

    def close(self) -> None:
        """Close the master side (the child's session gets SIGHUP from the kernel)."""
        with contextlib.suppress(OSError):
            os.close(self.fd)

    def _group_alive(self) -> bool:
        self.process.poll()
        try:
            os.killpg(self.pid, 0)
        except (ProcessLookupError, PermissionError):
            return False
        # A zombie leader keeps the group "alive" to killpg(0) until it is reaped.
        return self.process.returncode is None or _group_has_live_members(self.pid)


def _group_has_live_members(pgid: int) -> bool:
    """Whether any non-zombie process is in process group ``pgid`` (Linux /proc)."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return False
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        # After the command name: state, ppid, pgrp (proc(5)).
        if int(fields[2]) == pgid and fields[0] != b"Z":
            return True
    return False


def set_window_size(fd: int, cols: int, rows: int) -> None:
    """TIOCSWINSZ: struct winsize is rows, cols, xpixel, ypixel (unsigned shorts)."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def shell_status(status: int) -> int:
    """A process's exit status as a shell reports it: a signal N is ``128 + N``."""
    return 128 - status if status < 0 else status


def describe_exit(status: int) -> str:
    """``exited with status 3`` or ``was killed by signal 15 (SIGTERM)`` (Popen's negative
    status is the signal's number)."""
    if status >= 0:
        return f"exited with status {status}"
    try:
        name = f" ({signal.Signals(-status).name})"
    except ValueError:
        name = ""
    return f"was killed by signal {-status}{name}"
