"""Desktop notifications on the laptop: the host terminal's own sequence, else the desktop's.

Only when the user opts in (``[app] desktop_notifications = true``, or ``watch
--desktop-notifications``). observer sends its own notification with its own words (the
session's name and what the agent needs); the agent's text in it went through the one sanitizer
(:mod:`observer.terminal.sanitize`), and the separators of the sequence chosen are taken out of
it, so no byte the agent sent reaches the host terminal, or the desktop, as a control.

Where it goes, from the host terminal's environment:

| host | notification |
|---|---|
| kitty (``TERM=xterm-kitty``, ``KITTY_WINDOW_ID``) | OSC 99, title and body base64 (``e=1``) |
| iTerm2 (``TERM_PROGRAM=iTerm.app``) | OSC 9 |
| Ghostty, WezTerm, foot, VTE terminals (GNOME Terminal, Tilix...) | OSC 777 ``notify`` |
| anything else (tmux, screen, Windows Terminal, unknown) | the desktop's notifier (the ``desktop-notifier`` library: D-Bus on Linux, the Notification Center on macOS, WinRT on Windows); BEL, the terminal's own alert, where there is none (Linux without a session bus) |
"""

from __future__ import annotations

import base64
import logging
import sys
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Protocol

from observer.terminal.sanitize import sanitize_title

BEL = "\a"
ST = "\x1b\\"
MAX_TEXT = 200


def host_kind(environ: Mapping[str, str]) -> str:
    """``kitty``, ``osc9``, ``osc777`` or ``bell``: what the host terminal understands."""
    term, program = environ.get("TERM", ""), environ.get("TERM_PROGRAM", "")
    if environ.get("TMUX") or term.startswith(("screen", "tmux")):
        return "bell"  # a multiplexer keeps OSC notifications to itself; it shows bells
    if term == "xterm-kitty" or "KITTY_WINDOW_ID" in environ:
        return "kitty"
    if program == "iTerm.app":
        return "osc9"
    if program in ("ghostty", "WezTerm") or term in ("xterm-ghostty", "foot", "foot-extra"):
        return "osc777"
    if environ.get("VTE_VERSION"):
        return "osc777"
    return "bell"


def notification_sequence(title: str, body: str, environ: Mapping[str, str]) -> str:
    """The bytes (as text) that ask the host terminal for a desktop notification."""
    title, body = _safe(title), _safe(body)
    kind = host_kind(environ)
    if kind == "kitty":
        encoded = [base64.b64encode(part.encode()).decode("ascii") for part in (title, body)]
        return (
            f"\x1b]99;i=observer:d=0:e=1;{encoded[0]}{ST}"
            f"\x1b]99;i=observer:p=body:e=1;{encoded[1]}{ST}"
        )
    if kind == "osc9":
        return f"\x1b]9;{title}: {body}{BEL}"
    if kind == "osc777":
        return f"\x1b]777;notify;{title.replace(';', ',')};{body.replace(';', ',')}{BEL}"
    return BEL


def _safe(text: str) -> str:
    # sanitize_title removes every control character (C0, C1, DEL) and bidi control.
    return sanitize_title(text)[:MAX_TEXT]


class Notifier(Protocol):
    """The desktop's notifier (``desktop_notifier.DesktopNotifier``'s one method used here)."""

    def send(self, title: str, message: str) -> Coroutine[Any, Any, object]:
        """Show a notification on the desktop."""
        ...


Spawn = Callable[[Coroutine[Any, Any, object]], object]


def desktop_notifier(environ: Mapping[str, str], platform: str = sys.platform) -> Notifier | None:
    """The desktop's notifier, or None where there is none: on Linux and the BSDs it speaks
    D-Bus, so it needs a session bus (none over SSH or in a bare console)."""
    if platform not in ("darwin", "win32") and not environ.get("DBUS_SESSION_BUS_ADDRESS"):
        return None
    try:
        from desktop_notifier import DesktopNotifier
    except ImportError:  # an install without it: the terminal's bell still alerts
        return None
    # It reports a notification it could not deliver as a log warning, which would land on
    # the terminal the app draws: what it cannot deliver is lost quietly (the toast stays).
    log = logging.getLogger("desktop_notifier")
    log.addHandler(logging.NullHandler())
    log.propagate = False
    return DesktopNotifier(app_name="observer")


class DesktopNotifications:
    """Sends observer's desktop notifications where the module docstring says.

    Args:
        environ: the host terminal's environment.
        host_write: writes observer's own text to the host terminal.
        spawn: runs a coroutine in the app's event loop (the desktop's notifier is async).
        notifier: the desktop's notifier; found from ``environ`` when not given.
    """

    def __init__(
        self,
        environ: Mapping[str, str],
        host_write: Callable[[str], object],
        spawn: Spawn,
        notifier: Notifier | None = None,
    ) -> None:
        self.environ, self.host_write, self.spawn = environ, host_write, spawn
        self._notifier = notifier
        self._looked = notifier is not None

    def send(self, title: str, body: str) -> None:
        """Tell the desktop ``title``: ``body``."""
        if host_kind(self.environ) == "bell":
            if not self._looked:
                self._notifier, self._looked = desktop_notifier(self.environ), True
            if self._notifier is not None:
                self.spawn(self._notifier.send(title=_safe(title), message=_safe(body)))
                return
        self.host_write(notification_sequence(title, body, self.environ))
