"""Choosing a protocol: from the negotiated subprotocol, the Jupyter path, or by name."""

from __future__ import annotations

import pytest

from observer.errors import UsageError
from observer.protocol.adapters import create_adapter, detect_protocol, parse_protocol


def test_the_protocol_follows_the_negotiated_subprotocol_or_the_jupyter_path() -> None:
    assert detect_protocol("observer.v1", "/") == "observer"
    assert detect_protocol("tty", "/ws") == "ttyd"
    assert detect_protocol(None, "/terminals/websocket/1") == "jupyter"
    assert detect_protocol(None, "/") == "raw"


def test_an_unknown_protocol_name_lists_the_choices() -> None:
    assert parse_protocol("auto") is None and parse_protocol("ttyd") == "ttyd"
    with pytest.raises(UsageError, match="choose one of auto, observer, raw, ttyd, jupyter"):
        parse_protocol("k8s")


def test_adapters_are_created_by_name() -> None:
    for name in ("observer", "raw", "ttyd", "jupyter"):
        adapter = create_adapter(name, cols=90, rows=20)  # type: ignore[arg-type]
        assert adapter.capabilities.arbitration == ("server" if name == "observer" else "none")
