"""Endpoint addresses: origins for the token store, loopback checks, connection URLs.

A token belongs to an *origin*, not to a URL: ``https://Sandbox.example/x?y`` and
``wss://sandbox.example:443/`` are the same endpoint and share one keyring entry. The origin is
written ``ws[s]://host:port`` with the default port made explicit (RFC 6455 §3: 80 for ``ws``, 443
for ``wss``), ``http``/``https`` mapped to ``ws``/``wss`` so a Jupyter URL copied from a browser
finds its token.
"""

from __future__ import annotations

import ipaddress
import urllib.parse
from dataclasses import dataclass

from observer.errors import UsageError

_SCHEMES = {"ws": "ws", "wss": "wss", "http": "ws", "https": "wss"}
_DEFAULT_PORTS = {"ws": 80, "wss": 443}


@dataclass(frozen=True, slots=True)
class Endpoint:
    """A parsed endpoint URL: ``scheme`` is ``ws`` or ``wss``, ``path`` keeps the URL's path."""

    scheme: str
    host: str
    port: int
    path: str
    query: str

    @property
    def secure(self) -> bool:
        """True for ``wss``: TLS is used."""
        return self.scheme == "wss"

    @property
    def origin(self) -> str:
        """The normalized origin, ``ws[s]://host:port`` (the keyring user name)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}"

    @property
    def loopback(self) -> bool:
        """True when the host is this machine (``localhost``, 127.0.0.0/8, ``::1``)."""
        return is_loopback(self.host)


def parse_endpoint(url: str) -> Endpoint:
    """Parse a ``ws``/``wss``/``http``/``https`` URL.

    Raises:
        UsageError: the URL has no host, an unknown scheme or a bad port; the message says
            what a valid URL looks like. User info (``user:pass@``) is refused: credentials
            never belong in a URL.
    """
    hint = "give a URL like wss://sandbox.example:443 or http://127.0.0.1:8888"
    try:
        parts = urllib.parse.urlsplit(url.strip())
        port = parts.port
    except ValueError as error:
        raise UsageError(f"not a valid endpoint URL ({error})", hint) from None
    scheme = _SCHEMES.get(parts.scheme.lower())
    if scheme is None:
        raise UsageError(f"unsupported URL scheme {parts.scheme!r}", hint)
    if not parts.hostname:
        raise UsageError("the URL has no host", hint)
    if parts.username is not None or parts.password is not None:
        raise UsageError(
            "credentials in a URL would end up in shell history and process lists",
            "remove them and store the token with `observer auth login URL`",
        )
    return Endpoint(
        scheme=scheme,
        host=parts.hostname.lower(),
        port=port if port is not None else _DEFAULT_PORTS[scheme],
        path=parts.path or "/",
        query=parts.query,
    )


def normalize_origin(url: str) -> str:
    """Return the origin ``ws[s]://host:port`` of ``url`` (see :func:`parse_endpoint`)."""
    return parse_endpoint(url).origin


def is_loopback(host: str) -> bool:
    """True when ``host`` names this machine: ``localhost`` or a loopback IP address."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def connection_url(endpoint: Endpoint, params: dict[str, str], *, path: str | None = None) -> str:
    """Build the WebSocket URL for ``endpoint`` with ``params`` percent-encoded in the query.

    Existing query parameters of the endpoint URL are kept; ``params`` override them. Values are
    percent-encoded (an identifier may contain ``&``, ``#``, spaces or non-ASCII text).
    """
    query = dict(urllib.parse.parse_qsl(endpoint.query, keep_blank_values=True))
    query.update(params)
    host = f"[{endpoint.host}]" if ":" in endpoint.host else endpoint.host
    encoded = urllib.parse.urlencode(query, quote_via=urllib.parse.quote, safe="")
    target = path if path is not None else endpoint.path
    return f"{endpoint.scheme}://{host}:{endpoint.port}{target}" + (
        f"?{encoded}" if encoded else ""
    )
