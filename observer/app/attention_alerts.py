"""Telling the user, once, that an agent started needing them: a toast, and a desktop notification
when they asked for those (:mod:`observer.app.desktop`).

The session core says what an agent needs (:attr:`SessionStatus.attention`); this decides only
when it is news: a new reason, or the same reason asked again later.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from observer.app.desktop import DesktopNotifications, Spawn
from observer.client.attention import Attention


class AttentionAlerts:
    """One alert per new attention of each session.

    Args:
        toast: shows a message in the app (``text``).
        host_write: writes text to the host terminal (the desktop notification's sequence).
        desktop: whether the user opted in to desktop notifications.
        environ: the host terminal's environment (which sequence it understands).
        spawn: runs a coroutine in the app's loop (the desktop's notifier is async).
    """

    def __init__(
        self,
        toast: Callable[[str], object],
        host_write: Callable[[str], object],
        *,
        desktop: bool,
        environ: Mapping[str, str],
        spawn: Spawn,
    ) -> None:
        self.toast, self.host_write = toast, host_write
        self.desktop, self.environ = desktop, environ
        self._told: dict[int, tuple[str, float] | None] = {}
        self.notifications = DesktopNotifications(environ, self._to_host, spawn)

    def _to_host(self, text: str) -> None:
        self.host_write(text)  # looked up at each call: ``host_write`` may be replaced

    def seen(self, key: int, name: str, attention: Attention | None) -> bool:
        """The session ``key`` (named ``name``) needs ``attention`` now; True when told."""
        told = (attention.reason, attention.since) if attention is not None else None
        if told == self._told.get(key):
            return False
        self._told[key] = told
        if attention is None:
            return False
        self.toast(f"{name}: {attention}")
        if self.desktop:
            self.notifications.send(f"observer: {name}", str(attention))
        return True
