"""A server's refusal body and close reason reach the user only through the one sanitizer.

A hostile endpoint writes bidirectional controls (CVE-2021-42574) and invisible tag characters
into the HTTP body of its refusal and the reason of its close frame; the message the user reads
must show them as placeholders, as every other text from the far side is shown. Real websockets
servers on loopback, the real client.
"""

from __future__ import annotations

import pytest
from websockets.asyncio.server import ServerConnection, serve
from websockets.http11 import Request, Response

from observer.credentials.store import Secret
from observer.terminal.sanitize import BIDI_CONTROLS, PLACEHOLDER
from observer.transport.settings import ConnectionSettings
from tests.client_support import Client
from tests.integration.test_client_failures import first_failure

pytestmark = pytest.mark.timeout(30)
HOSTILE = "only \u202ewatch\u2066 here\U000e0041\u2028next"


def unsafe(text: str) -> set[str]:
    return {c for c in text if c in BIDI_CONTROLS or c in "\u2028\U000e0041"}


async def test_a_refusal_body_is_shown_through_the_sanitizer() -> None:
    def refuse(connection: ServerConnection, request: Request) -> Response:
        return connection.respond(403, HOSTILE)

    async with serve(lambda c: c.wait_closed(), "127.0.0.1", 0, process_request=refuse) as server:
        port = server.sockets[0].getsockname()[1]
        settings = ConnectionSettings(f"ws://127.0.0.1:{port}")
        failure = await first_failure(Client(settings, Secret("t")))
    assert "the endpoint refused: only " in str(failure)
    assert unsafe(str(failure)) == set() and PLACEHOLDER in str(failure)


async def test_a_close_reason_is_shown_through_the_sanitizer() -> None:
    async def reject(connection: ServerConnection) -> None:
        await connection.close(1008, HOSTILE)

    async with serve(reject, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        settings = ConnectionSettings(f"ws://127.0.0.1:{port}", initial_delay=0.01)
        failure = await first_failure(Client(settings, Secret("t")))
    assert "(code 1008: only " in str(failure)
    assert unsafe(str(failure)) == set() and PLACEHOLDER in str(failure)
