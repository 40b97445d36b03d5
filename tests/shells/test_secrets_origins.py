"""Origins: one keyring entry per endpoint however its URL is written; loopback detection."""

from __future__ import annotations

import pytest

from observer.errors import UsageError
from observer.protocol.endpoints import (
    connection_url,
    is_loopback,
    normalize_origin,
    parse_endpoint,
)


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("wss://Sandbox.Example", "wss://sandbox.example:443"),
        ("https://sandbox.example/path?q=1#frag", "wss://sandbox.example:443"),
        ("http://127.0.0.1:8888/lab/tree", "ws://127.0.0.1:8888"),
        ("ws://localhost", "ws://localhost:80"),
        ("wss://[::1]:9000/", "wss://[::1]:9000"),
        ("WSS://h.example:443", "wss://h.example:443"),
    ],
)
def test_equivalent_urls_share_one_origin(url: str, origin: str) -> None:
    assert normalize_origin(url) == origin


@pytest.mark.parametrize("url", ["ftp://a.example", "a.example:443", "wss://", "wss://h:99999"])
def test_unusable_urls_are_refused_with_an_example(url: str) -> None:
    with pytest.raises(UsageError, match=r"wss://sandbox\.example"):
        parse_endpoint(url)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.9.9.9", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("10.0.0.1", False),
        ("example.com", False),
        ("localhost.example.com", False),
    ],
)
def test_loopback_hosts_are_recognised(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_query_values_are_percent_encoded() -> None:
    endpoint = parse_endpoint("wss://h.example/base?keep=1")
    url = connection_url(
        endpoint, {"identifier": "a b&c=d#e/é", "api-version": "2024-02-02-preview"}
    )
    assert url == (
        "wss://h.example:443/base?keep=1&identifier=a%20b%26c%3Dd%23e%2F%C3%A9"
        "&api-version=2024-02-02-preview"
    )
