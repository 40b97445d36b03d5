"""Where a token may go, and keeping it out of websockets' debug log."""

from __future__ import annotations

import datetime as dt
import ipaddress
import logging
import socket
import ssl
from collections.abc import Callable, Sequence
from typing import Any

from observer.credentials.store import Secret, inspect_token, token_advice
from observer.errors import ConnectionFailed
from observer.protocol.endpoints import Endpoint
from observer.transport.settings import ConnectionSettings

Resolver = Callable[[str], Sequence[str]]
"""A host name to every address it resolves to (tests inject their own)."""


def resolve_addresses(host: str) -> list[str]:
    """Every address ``host`` resolves to (``getaddrinfo``); none if it does not resolve."""
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return []
    return [str(info[4][0]) for info in infos]


def loopback_addresses(host: str, resolve: Resolver = resolve_addresses) -> bool:
    """Whether ``host`` is loopback by address: a loopback IP literal, or a name every one of
    whose addresses is loopback (and that has at least one).

    A name alone proves nothing: ``localhost`` and ``*.localhost`` (RFC 6761) should resolve to
    loopback, but the resolver of the machine decides, and a hosts file or a DNS answer may say
    otherwise; so the name is resolved and every address checked.
    """
    literal = host.strip("[]")
    try:
        ipaddress.ip_address(literal.split("%", 1)[0])
    except ValueError:
        addresses = list(resolve(literal))
    else:
        addresses = [literal]
    return bool(addresses) and all(_is_loopback_ip(address) for address in addresses)


def _is_loopback_ip(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 scope id is not part of it
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)  # ::ffff:127.0.0.1 is loopback too
    return bool(ip.is_loopback or (mapped is not None and mapped.is_loopback))


def check_token(
    endpoint: Endpoint,
    token: Secret | None,
    settings: ConnectionSettings,
    now: dt.datetime,
    *,
    resolve: Resolver = resolve_addresses,
) -> None:
    """Refuse, before any byte leaves, to send ``token`` where it could leak or cannot work.

    Over plain ``ws://`` a token goes only to a loopback address: every address the host
    resolves to must be loopback (:func:`loopback_addresses`).
    """
    if token is None:
        return
    origin = endpoint.origin
    if not endpoint.secure and not loopback_addresses(endpoint.host, resolve):
        raise ConnectionFailed(
            f"refusing to send the token for {origin} over unencrypted ws://",
            "it does not resolve to loopback addresses only; use a wss:// URL (TLS), "
            "or connect to a loopback address",
            retryable=False,
        )
    context = settings.ssl_context
    if (
        endpoint.secure
        and context is not None
        and (context.verify_mode != ssl.CERT_REQUIRED or not context.check_hostname)
    ):
        raise ConnectionFailed(
            f"refusing to send the token for {origin} over TLS without certificate and host name "
            "verification",
            "use a verifying TLS context",
            retryable=False,
        )
    info = inspect_token(token, origin, "keyring")
    if info.expired(now):
        raise ConnectionFailed(
            f"the token for {origin} expired ({info.describe(now)})",
            token_advice(origin, "a fresh token"),
            retryable=False,
        )
    if settings.audience and info.kind == "jwt" and settings.audience not in info.audience:
        named = ", ".join(info.audience) or "no audience"
        raise ConnectionFailed(
            f"the token for {origin} is for {named}, not {settings.audience}",
            token_advice(origin, f"a token for {settings.audience}"),
            retryable=False,
        )


class RedactingLogger(logging.LoggerAdapter):  # type: ignore[type-arg]
    """The logger handed to websockets: its debug output includes request headers and frames.

    Every line is formatted, then the token (in any encoding we send it) is replaced, an
    ``Authorization`` header line is blanked whatever its scheme, and anything after
    ``AuthToken`` (ttyd's init, which websockets may log truncated) is cut.
    """

    def __init__(self, logger: logging.Logger, secrets: list[str]) -> None:
        super().__init__(logger, {})
        self._secrets = [s for s in secrets if s]

    def log(self, level: int, msg: object, *args: object, **kwargs: Any) -> None:
        """Format, redact, log."""
        if not self.isEnabledFor(level):
            return
        text = str(msg) % args if args else str(msg)
        for secret in self._secrets:
            text = text.replace(secret, "<redacted>")
        if text.lower().startswith(("> authorization:", "> cookie:")):
            text = text.split(":", 1)[0] + ": <redacted>"
        if "AuthToken" in text:
            text = text[: text.index("AuthToken")] + "AuthToken <redacted>"
        self.logger.log(level, "%s", text, **kwargs)
