"""Whether an endpoint can be reached at all, before the full-screen app takes the terminal.

A refused port, a host that does not resolve, or a plain server behind a ``wss://`` URL would
otherwise flash the app for an instant before its one-line error. The probe opens a TCP
connection and, for ``wss``, completes the TLS handshake, then closes: nothing is sent, no token
leaves, and no program starts (ttyd starts one per WebSocket upgrade, not per connection).
Where a proxy carries the connection, or the probe gets no answer in time, it says nothing:
the connection's own attempt then decides.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import urllib.request

from observer.errors import ConnectionFailed
from observer.protocol.endpoints import Endpoint
from observer.transport.failures import describe_failure

PROBE_TIMEOUT = 3.0
"""Seconds the probe waits for the TCP connection and the TLS handshake."""


async def unreachable(
    endpoint: Endpoint,
    *,
    identifier: str = "",
    context: ssl.SSLContext | None = None,
    timeout: float = PROBE_TIMEOUT,
) -> ConnectionFailed | None:
    """Why ``endpoint`` cannot be reached (the words the connection itself would use), or None.

    Args:
        endpoint: where to connect.
        identifier: the session's identifier, for the failure's words.
        context: the TLS context the connection uses (default: verified, as websockets does).
        timeout: seconds before the probe gives up and says nothing.
    """
    if _proxied(endpoint):
        return None
    tls = (context or ssl.create_default_context()) if endpoint.secure else None
    try:
        _, writer = await asyncio.wait_for(
            asyncio.open_connection(endpoint.host, endpoint.port, ssl=tls), timeout
        )
    except TimeoutError:
        return None
    except Exception as error:  # what a connection attempt can raise: describe_failure says it
        return describe_failure(error, endpoint, identifier, has_token=False)
    writer.close()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(writer.wait_closed(), timeout)
    return None


def _proxied(endpoint: Endpoint) -> bool:
    """Whether a proxy would carry the connection (websockets uses one for ``wss`` only)."""
    if not endpoint.secure:
        return False
    proxies = urllib.request.getproxies()
    if not any(proxies.get(scheme) for scheme in ("wss", "https", "all")):
        return False
    return not urllib.request.proxy_bypass(endpoint.host)
