"""Whether the PTY shows what is typed: the server's reading of its termios (ECHO, ICANON).

A program that asks for a secret (``getpass``, ``read -s``, sudo, ssh) turns the terminal's ECHO
off and keeps it in canonical (line) mode, so the kernel collects the line and shows nothing.
That is the state this reports as *not shown*. Programs in raw mode (shells with line editing,
full-screen programs) also turn ECHO off, but only because they draw what is typed themselves;
reporting them as hiding input would mark every keystroke in bash as a secret. On Linux the
master side of a PTY reports the terminal's (the slave's) settings.
"""

from __future__ import annotations

import termios


def input_shown(fd: int) -> bool | None:
    """False while the terminal on ``fd`` hides what is typed (canonical mode without ECHO);
    True otherwise; ``None`` when its settings cannot be read (the PTY is gone)."""
    try:
        lflag = termios.tcgetattr(fd)[3]
    except (termios.error, OSError):
        return None
    return bool(lflag & termios.ECHO) or not lflag & termios.ICANON
