"""In watch mode no adapter emits a single data frame, whatever the sequence of calls."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from observer.errors import UsageError
from observer.protocol.adapters import create_session, detect_protocol, parse_protocol
from observer.protocol.adapters.jupyter import JupyterClientSession
from observer.protocol.adapters.raw import RawClientSession
from observer.protocol.adapters.ttyd import TtydClientSession
from observer.protocol.session import NativeClientSession

ADAPTERS = [RawClientSession, TtydClientSession, JupyterClientSession, NativeClientSession]

received = st.one_of(
    st.binary(max_size=40),
    st.text(max_size=40),
    st.sampled_from(
        [
            '["stdout", "x"]',
            '["setup", {}]',
            '["disconnect", 1]',
            b"0out",
            b"1title",
            '{"type":"hello","protocol":1,"identifier":"a","mode":"watch","cols":80,"rows":24,'
            '"offset":0,"holder":"none","watchers":1,"title":""}',
            '{"type":"control","holder":"you"}',
            '{"type":"control","holder":"other"}',
            '{"type":"error","code":"control-held","message":"x"}',
        ]
    ),
)
calls = st.lists(
    st.one_of(
        st.tuples(st.just("receive"), received),
        st.tuples(st.just("input"), st.binary(max_size=20)),
        st.tuples(st.just("resize"), st.tuples(st.integers(1, 500), st.integers(1, 200))),
        st.tuples(st.just("resync"), st.none()),
        st.tuples(st.just("take"), st.none()),
        st.tuples(st.just("release"), st.none()),
    ),
    max_size=30,
)


@pytest.mark.parametrize("adapter", ADAPTERS, ids=lambda a: a.__name__)
@settings(max_examples=150, deadline=None)
@given(sequence=calls)
def test_no_input_or_resize_leaves_a_watching_client(
    adapter: type, sequence: list[tuple[str, object]]
) -> None:
    session = adapter()
    for op, arg in sequence:
        watching = session.mode == "watch"
        if op == "receive":
            session.receive(arg)  # never raises, returns events only
            continue
        if op == "take":
            session.request_control()
        elif op == "release":
            session.release_control()
        elif op == "resync":
            sent = session.request_resync()
            assert all(isinstance(m, str) for m in sent), "a resync carried data"
        elif op == "input":
            sent = session.send_input(arg)
            assert not watching or sent == [], "input left a watching client"
        else:
            cols, rows = arg  # type: ignore[misc]
            sent = session.send_resize(cols, rows)
            assert not watching or sent == [], "resize left a watching client"


def test_the_protocol_follows_the_negotiated_subprotocol_or_the_jupyter_path() -> None:
    assert detect_protocol("observer.v1", "/") == "observer"
    assert detect_protocol("tty", "/ws") == "ttyd"
    assert detect_protocol(None, "/terminals/websocket/1") == "jupyter"
    assert detect_protocol(None, "/") == "raw"


def test_an_unknown_protocol_name_lists_the_choices() -> None:
    assert parse_protocol("auto") is None and parse_protocol("ttyd") == "ttyd"
    with pytest.raises(UsageError, match="choose one of auto, observer, raw, ttyd, jupyter"):
        parse_protocol("k8s")


def test_sessions_are_created_by_name_in_watch_mode() -> None:
    for name in ("raw", "ttyd", "jupyter"):
        session = create_session(name, cols=90, rows=20)  # type: ignore[arg-type]
        assert session.mode == "watch"
