"""A bearer token goes over plain ``ws://`` only to addresses that are all loopback.

The attack: a name that looks local (``agent.localhost``, even ``localhost``) but resolves, by a
hosts file or a DNS answer, to another machine. A check by name would send the token in clear
text to it. The resolver is injected; one test replaces ``getaddrinfo`` itself, the way a hostile
hosts file or DNS server would answer the default resolver.
"""

from __future__ import annotations

import datetime as dt
import socket
from collections.abc import Sequence
from typing import Any

import pytest

from observer.credentials.store import Secret
from observer.errors import ConnectionFailed
from observer.protocol.endpoints import parse_endpoint
from observer.transport.safety import check_token, loopback_addresses
from observer.transport.settings import ConnectionSettings

NOW = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
TOKEN = Secret("canary-token-0123456789")


def check(url: str, resolve: Any = None) -> None:
    options = {} if resolve is None else {"resolve": resolve}
    check_token(parse_endpoint(url), TOKEN, ConnectionSettings(url), NOW, **options)


def answers(*addresses: str) -> Any:
    def resolve(host: str) -> Sequence[str]:
        return list(addresses)

    return resolve


def test_a_localhost_name_resolving_elsewhere_gets_no_token_by_the_default_resolver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = socket.getaddrinfo

    def hostile_dns(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host in ("agent.localhost", "localhost"):
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("192.0.2.55", 0))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", hostile_dns)
    for url in ("ws://agent.localhost:8765", "ws://localhost:8765"):
        with pytest.raises(ConnectionFailed) as info:
            check(url)
        assert "unencrypted ws://" in str(info.value)
        assert not info.value.retryable
        assert TOKEN.reveal() not in str(info.value)


@pytest.mark.parametrize(
    ("addresses", "allowed"),
    [
        (["127.0.0.1"], True),
        (["127.0.0.1", "::1"], True),
        (["::ffff:127.0.0.1"], True),
        (["fe80::1%lo"], False),
        (["127.0.0.1", "192.0.2.9"], False),  # one address elsewhere is enough to refuse
        (["10.0.0.8"], False),
        ([], False),  # does not resolve: nothing proves it is local
        (["not an address"], False),
    ],
)
def test_every_resolved_address_must_be_loopback(addresses: list[str], allowed: bool) -> None:
    assert loopback_addresses("agent.localhost", answers(*addresses)) is allowed
    if allowed:
        check("ws://agent.localhost:1", answers(*addresses))
    else:
        with pytest.raises(ConnectionFailed):
            check("ws://agent.localhost:1", answers(*addresses))


def test_ip_literals_need_no_resolver_and_tls_needs_no_loopback() -> None:
    def no_dns(host: str) -> Sequence[str]:
        raise AssertionError("an IP literal was resolved")

    check("ws://127.0.0.1:8765", no_dns)
    check("ws://[::1]:8765", no_dns)
    with pytest.raises(ConnectionFailed):
        check("ws://192.0.2.1:8765", no_dns)
    check("wss://sandbox.example", no_dns)  # TLS: the address does not matter
