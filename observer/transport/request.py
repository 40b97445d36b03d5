"""The upgrade request: URL and ``Authorization`` header per protocol."""

from __future__ import annotations

import base64
from urllib.parse import quote

from observer.credentials.store import Secret
from observer.protocol.adapters import JUPYTER_PATH, ProtocolName
from observer.protocol.adapters.native import query_params
from observer.protocol.endpoints import Endpoint, connection_url
from observer.transport.settings import ConnectionSettings


def request_url(
    endpoint: Endpoint,
    settings: ConnectionSettings,
    protocol: ProtocolName | None,
    *,
    control: bool,
    since: int | None,
) -> str:
    """The WebSocket URL to open.

    Native, raw and auto-detected endpoints get ``identifier`` (percent-encoded), ``api-version``,
    ``mode`` and, on a resume, ``since``. ttyd and Jupyter name the terminal in the path; for
    Jupyter ``/terminals/websocket/<identifier>`` is appended to a base URL that lacks it.
    """
    if protocol in ("ttyd", "jupyter"):
        path = endpoint.path
        if protocol == "jupyter" and JUPYTER_PATH not in path:
            path = path.rstrip("/") + JUPYTER_PATH + quote(settings.identifier, safe="")
        return connection_url(endpoint, {}, path=path)
    params = query_params(
        settings.identifier, control=control, since=since, api_version=settings.api_version
    )
    return connection_url(endpoint, params)


def auth_headers(protocol: ProtocolName | None, token: Secret | None) -> dict[str, str]:
    """``Authorization``: ``Bearer`` (native, raw), ``token`` (Jupyter), HTTP Basic (ttyd ``-c``)."""
    if token is None:
        return {}
    value = token.reveal()
    if protocol == "jupyter":
        return {"Authorization": f"token {value}"}
    if protocol == "ttyd":  # ttyd -c user:password: HTTP Basic (RFC 7617)
        return {"Authorization": "Basic " + ttyd_auth_token(token)}
    return {"Authorization": f"Bearer {value}"}


def ttyd_auth_token(token: Secret) -> str:
    """ttyd's credential encoding (base64 of ``user:password``), for Basic and the init."""
    return base64.b64encode(token.reveal().encode()).decode()
