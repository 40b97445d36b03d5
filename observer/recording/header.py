"""What a recording's header may say of where it came from and how big it is.

The header carries the endpoint's host only: never a URL's path, query or user info, where
tokens hide (the security model keeps tokens out of files).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from observer.terminal.size import MAX_SIZE, MIN_SIZE


def endpoint_host(endpoint: str) -> str:
    """Return only ``host[:port]`` of an endpoint URL (or host), dropping user info, path and query.

    >>> endpoint_host("wss://user:secret@sandbox.example.net:8443/?identifier=a&token=t")
    'sandbox.example.net:8443'
    """
    parts = urlsplit(endpoint if "//" in endpoint else f"//{endpoint}")
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"  # IPv6 literal
    try:
        port = parts.port
    except ValueError:
        port = None
    return f"{host}:{port}" if port is not None else host


def clamp_size(cols: int, rows: int) -> tuple[int, int]:
    """Keep a peer's absurd size from making an unreadable file (readers refuse it)."""
    return (min(max(cols, MIN_SIZE), MAX_SIZE), min(max(rows, MIN_SIZE), MAX_SIZE))
