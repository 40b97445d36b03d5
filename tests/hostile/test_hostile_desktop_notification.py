"""An agent's notification reaches the desktop only as observer's own sequence, made of safe text.

The agent (a real program in a real ``observer serve`` PTY) sends notifications built to escape
into the host terminal: a kitty OSC 99 whose base64 payload decodes to BEL, an OSC 52 clipboard
write, an SGR and a bidi override; an OSC 777 whose title and body carry extra ``;`` fields. With
desktop notifications on, for each kind of host terminal, the host gets observer's sequence with
the agent's words as text, and none of the agent's controls.
"""

from __future__ import annotations

import base64
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from observer.app.app import ObserverApp
from tests.hostile.live import (
    CapturingDriver,
    HostileAgent,
    host_output,
    hostile_agent,
    status,
    until,
)


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


TITLE = b64("Agent\a\x1b]52;c;aGk=\a")
BODY = b64("needs you\u202e now\x1b[31m")
ST = "\x1b\\"
PAYLOADS = {
    "osc99": f"\x1b]99;i=x:d=0:e=1;{TITLE}{ST}\x1b]99;i=x:p=body:e=1;{BODY}{ST}".encode(),
    "osc777": b"\x1b]777;notify;ti;tle;bo;dy\x07",
}
HOSTS = {
    "kitty": {"TERM": "xterm-kitty"},
    "iterm2": {"TERM_PROGRAM": "iTerm.app"},
    "ghostty": {"TERM_PROGRAM": "ghostty"},
}
NOTIFICATION = re.compile(r"\x1b\](9|99|777);(.*?)(?:\x07|\x1b\\)", re.S)


def sent() -> list[tuple[str, str]]:
    """The desktop notifications the app wrote to the host terminal: (OSC number, payload)."""
    return NOTIFICATION.findall(host_output())


@pytest.fixture(params=sorted(PAYLOADS))
async def agent(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[HostileAgent]:
    async for running in hostile_agent(tmp_path, PAYLOADS[request.param]):
        yield running


@pytest.mark.parametrize("host", sorted(HOSTS))
async def test_an_agents_notification_reaches_the_desktop_only_as_safe_text(
    agent: HostileAgent, host: str
) -> None:
    CapturingDriver.written = []
    app = ObserverApp([agent.source()], desktop_notifications=True, environ=HOSTS[host])
    app.driver_class = CapturingDriver
    async with app.run_test(size=(100, 30), headless=False):
        await until(lambda: "connected" in status(app), "the connection")
        agent.start_payload()
        await until(lambda: bool(sent()), "the desktop notification")
    written = host_output()
    assert "\x1b]52" not in written and "\u202e" not in written
    for code, text in sent():
        assert text.isprintable()
        if code == "9":
            assert text.startswith("observer: the agent: notification: ")
        elif code == "777":
            assert text.startswith("notify;observer: the agent;")
            assert text.count(";") == 2  # notify ; title ; body: no field of the agent's
        else:
            metadata, _, text = text.partition(";")
            assert metadata.startswith("i=observer:") and "e=1" in metadata
            decoded = base64.b64decode(text).decode()
            assert decoded.isprintable() and "\x1b" not in decoded
