"""Adapters: one sans-I/O :class:`~observer.protocol.adapter.Adapter` (a codec) per peer protocol.

``observer`` is the native ``observer.v1``; ``raw``, ``ttyd`` and ``jupyter`` speak to peers the
user already runs. :func:`detect_protocol` picks one from the negotiated WebSocket subprotocol (and
Jupyter's URL path, since terminado negotiates none).
"""

from __future__ import annotations

from typing import Literal

from observer.errors import UsageError
from observer.protocol import frames
from observer.protocol.adapter import Adapter

ProtocolName = Literal["observer", "raw", "ttyd", "jupyter"]
PROTOCOLS: tuple[ProtocolName, ...] = ("observer", "raw", "ttyd", "jupyter")
PROTOCOL_CHOICES: tuple[str, ...] = ("auto", *PROTOCOLS)
"""What ``--protocol`` takes on every command: ``auto`` (detect it) or a protocol's name."""

#: Subprotocol offered for each protocol (``None``: offer none).
SUBPROTOCOLS: dict[ProtocolName, str | None] = {
    "observer": frames.SUBPROTOCOL,
    "raw": None,
    "ttyd": "tty",
    "jupyter": None,
}

JUPYTER_PATH = "/terminals/websocket/"


def offered_subprotocols(protocol: ProtocolName | None) -> list[str]:
    """Subprotocols to offer: the protocol's own, or every known one when auto-detecting."""
    if protocol is None:
        return [s for s in SUBPROTOCOLS.values() if s]
    own = SUBPROTOCOLS[protocol]
    return [own] if own else []


def guess_protocol(path: str) -> ProtocolName | None:
    """A protocol known from the URL alone (Jupyter's terminal path), else None."""
    return "jupyter" if JUPYTER_PATH in path else None


def detect_protocol(negotiated: str | None, path: str) -> ProtocolName:
    """The protocol to speak after the upgrade, from the subprotocol the server chose."""
    for name, subprotocol in SUBPROTOCOLS.items():
        if subprotocol is not None and subprotocol == negotiated:
            return name
    return guess_protocol(path) or "raw"


def parse_protocol(name: str) -> ProtocolName | None:
    """``auto`` → None; a known name → itself; else :class:`UsageError` listing the choices."""
    if name == "auto":
        return None
    for known in PROTOCOLS:
        if name == known:
            return known
    raise UsageError(f"unknown protocol {name!r}", f"choose one of auto, {', '.join(PROTOCOLS)}")


def create_adapter(
    protocol: ProtocolName,
    *,
    cols: int = 80,
    rows: int = 24,
    identifier: str = "",
    auth_token: str = "",
    since: int | None = None,
) -> Adapter:
    """A fresh adapter for one connection.

    Args:
        protocol: which peer protocol.
        cols: initial size, sent where the protocol sets the size on join (ttyd's init).
        rows: see ``cols``.
        identifier: the session identifier, reported in ``SessionStarted``.
        auth_token: ttyd's ``AuthToken`` (base64 of ``user:password``); unused by the others.
        since: the offset asked for with ``since=`` (native only).
    """
    if protocol == "raw":
        from observer.protocol.adapters.raw import RawAdapter

        return RawAdapter(cols=cols, rows=rows, identifier=identifier)
    if protocol == "ttyd":
        from observer.protocol.adapters.ttyd import TtydAdapter

        return TtydAdapter(cols=cols, rows=rows, identifier=identifier, auth_token=auth_token)
    if protocol == "jupyter":
        from observer.protocol.adapters.jupyter import JupyterAdapter

        return JupyterAdapter(cols=cols, rows=rows, identifier=identifier)
    from observer.protocol.adapters.native import NativeAdapter

    return NativeAdapter(since=since)
