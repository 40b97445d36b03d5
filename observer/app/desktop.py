"""Desktop notifications on the laptop, through the host terminal's own notification sequence.

Only when the user opts in (``[app] desktop_notifications = true``, or ``watch
--desktop-notifications``). observer writes its own sequence with its own words (the session's
name and what the agent needs); the agent's text in it went through the one sanitizer
(:mod:`observer.terminal.sanitize`), and the separators of the sequence chosen are taken out of
it, so no byte the agent sent reaches the host terminal as a control.

Which sequence, from the host terminal's environment:

| host | sequence |
|---|---|
| kitty (``TERM=xterm-kitty``, ``KITTY_WINDOW_ID``) | OSC 99, title and body base64 (``e=1``) |
| iTerm2 (``TERM_PROGRAM=iTerm.app``) | OSC 9 |
| Ghostty, WezTerm, foot, VTE terminals (GNOME Terminal, Tilix...) | OSC 777 ``notify`` |
| anything else (tmux, screen, Windows Terminal, unknown) | BEL: the terminal's own alert |
"""

from __future__ import annotations

import base64
from collections.abc import Mapping

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
