"""Where the host terminal has no notification sequence of its own (tmux, an unknown terminal),
an opted-in desktop notification goes to the desktop's notifier: over a real D-Bus session bus
to a notification server on it, as a desktop's would receive it. Without a session bus, the bell.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import AsyncIterator, Callable

import pytest
from dbus_fast.aio import MessageBus
from dbus_fast.service import ServiceInterface, method, signal

from observer.app.app import ObserverApp
from observer.app.desktop import desktop_notifier
from observer.protocol.events import OutputReceived
from tests.app.conftest import played, scripted
from tests.app.test_fleet_screen_view import until

pytestmark = [
    pytest.mark.timeout(60),
    pytest.mark.skipif(shutil.which("dbus-daemon") is None, reason="needs dbus-daemon"),
]
# The agent's own words, with controls it hopes reach the desktop (a C1 CSI, a bidi override).
ASKS = "\x1b]9;Claude needs your \u009b31mpermission \u202eto use Bash\x07".encode()


class Notifications(ServiceInterface):  # type: ignore[misc]
    """The desktop's notification server (the freedesktop.org interface), keeping what came."""

    def __init__(self) -> None:
        super().__init__("org.freedesktop.Notifications")
        self.shown: list[tuple[str, str, str]] = []

    @method()
    def Notify(
        self,
        app_name: "s",  # type: ignore[valid-type]  # noqa: F821, UP037
        replaces_id: "u",  # type: ignore[valid-type]  # noqa: F821, UP037
        app_icon: "s",  # type: ignore[valid-type]  # noqa: F821, UP037
        summary: "s",  # type: ignore[valid-type]  # noqa: F821, UP037
        body: "s",  # type: ignore[valid-type]  # noqa: F821, UP037
        actions: "as",  # type: ignore[valid-type]  # noqa: F722
        hints: "a{sv}",  # type: ignore[valid-type]  # noqa: F722
        expire_timeout: "i",  # type: ignore[valid-type]  # noqa: F821, UP037
    ) -> "u":  # type: ignore[valid-type]  # noqa: F821, UP037
        self.shown.append((app_name, summary, body))
        return len(self.shown)

    @method()
    def GetCapabilities(self) -> "as":  # type: ignore[valid-type]  # noqa: F722
        return ["body"]

    @method()
    def GetServerInformation(self) -> "ssss":  # type: ignore[valid-type]  # noqa: F821, UP037
        return ["test server", "observer tests", "1", "1.2"]

    @signal()
    def NotificationClosed(self) -> "uu":  # type: ignore[valid-type]  # noqa: F821, UP037
        return [0, 0]


@pytest.fixture
async def desktop(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[str, Notifications]]:
    """A private session bus with a notification server on it; its address in the environment."""
    daemon = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert daemon.stdout is not None
    address = daemon.stdout.readline().strip()
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)  # where the notifier connects
    bus = await MessageBus(bus_address=address).connect()
    server = Notifications()
    bus.export("/org/freedesktop/Notifications", server)
    await bus.request_name("org.freedesktop.Notifications")
    try:
        yield address, server
    finally:
        bus.disconnect()
        daemon.terminate()
        daemon.wait(5)


async def alert(environ: dict[str, str], done: Callable[[list[str]], bool], what: str) -> list[str]:
    """An opted-in app in ``environ`` sees the agent ask; return what it wrote to the terminal
    once ``done`` says so."""
    link = scripted([b"working"])
    app = ObserverApp([link], desktop_notifications=True, environ=environ)
    written: list[str] = []
    app.alerts.host_write = written.append
    async with app.run_test(size=(100, 30)):
        await played(link)
        link.push(OutputReceived(ASKS, 7))
        await until(lambda: done(written), what)
    return written


async def test_under_tmux_an_opted_in_notification_reaches_the_desktops_notifier(
    desktop: tuple[str, Notifications],
) -> None:
    address, server = desktop
    environ = {"TERM": "tmux-256color", "TMUX": "/tmp/tmux-1/default,1,0"}
    environ["DBUS_SESSION_BUS_ADDRESS"] = address
    written = await alert(environ, lambda _: bool(server.shown), "the desktop's notification")
    [(app_name, summary, body)] = server.shown
    assert (app_name, summary) == ("observer", "observer: the agent")
    assert body.startswith("needs permission: Claude needs your ")
    assert body.isprintable() and "\u202e" not in body
    assert written == []  # nothing written to the terminal: the desktop told the user


async def test_without_a_session_bus_the_terminals_bell_alerts() -> None:
    environ = {"TERM": "xterm-256color"}  # e.g. over SSH: no D-Bus, no sequence of its own
    assert desktop_notifier(environ, "linux") is None
    assert await alert(environ, bool, "the bell") == ["\a"]
