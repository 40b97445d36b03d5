"""A canary token appears nowhere it could leak: logs (even at DEBUG), exceptions, reprs, files."""

from __future__ import annotations

import base64
import logging
import sys

import pytest

from observer.credentials.store import Secret
from observer.errors import ConnectionFailed
from observer.transport.settings import ConnectionSettings
from tests.client_support import Client
from tests.integration.client_peers import ECHO_SCRIPT, collect_until, pty_bridge

pytestmark = pytest.mark.timeout(60)

CANARY = "canary:Zx81-never-anywhere-5a7c"
FORMS = [CANARY, base64.b64encode(CANARY.encode()).decode(), CANARY.split(":")[1]]


def assert_nowhere(text: str) -> None:
    for form in FORMS:
        assert form not in text, f"the token leaked as {form!r}"


@pytest.mark.parametrize("flavour", ["raw", "ttyd"])
async def test_debug_logs_of_a_whole_session_never_show_the_token(
    flavour: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with pty_bridge(
        [sys.executable, "-c", ECHO_SCRIPT],
        flavour=flavour,
        credential=CANARY if flavour == "ttyd" else None,
    ) as bridge:
        connection = Client(ConnectionSettings(bridge.url, protocol=flavour), Secret(CANARY))  # type: ignore[arg-type]
        stream = connection.events()
        seen = await collect_until(stream, lambda s, out: b"ready" in out)
        await connection.take()
        await connection.send_input(b"hello\r")
        seen += await collect_until(stream, lambda s, out: b"got hello" in out)
        await connection.close()
        await stream.aclose()
    debug_lines = [
        r for r in caplog.records if r.levelno == logging.DEBUG and r.name.startswith("observer")
    ]
    assert any("Authorization: <redacted>" in r.getMessage() for r in debug_lines), (
        "websockets' debug log was not captured"
    )
    # The test's own peer (websockets.server) logs what it received; it is not observer's code.
    client_side = "\n".join(
        r.getMessage() for r in caplog.records if not r.name.startswith("websockets.server")
    )
    assert_nowhere(client_side)
    assert_nowhere(repr(connection) + repr(connection.settings) + "".join(repr(e) for e in seen))
    if flavour == "ttyd":
        assert bridge.inits[0]["AuthToken"] == FORMS[1]  # it did travel, where it must


async def test_a_refused_token_is_not_in_the_error_or_its_causes() -> None:
    async with pty_bridge(
        [sys.executable, "-c", ECHO_SCRIPT], flavour="ttyd", credential="other:pw"
    ) as bridge:
        connection = Client(ConnectionSettings(bridge.url, protocol="ttyd"), Secret(CANARY))
        with pytest.raises(ConnectionFailed) as failure:
            async for _ in connection.events():
                pass
    error: BaseException | None = failure.value
    while error is not None:
        assert_nowhere(str(error) + repr(error) + repr(getattr(error, "args", "")))
        error = error.__cause__ or error.__context__
