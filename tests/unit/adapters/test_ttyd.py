"""ttyd: JSON init first, one-byte commands both ways, the title sanitized, what its close means."""

from __future__ import annotations

import json

from observer.protocol.adapters.ttyd import TtydAdapter
from observer.protocol.events import OutputReceived, ProtocolViolation, SessionStarted, TitleChanged


def test_the_init_carries_the_auth_token_and_size_and_is_sent_even_when_watching() -> None:
    session = TtydAdapter(cols=120, rows=40, auth_token="dXNlcjpwYXNz")
    assert session.subprotocol == "tty"
    [init] = session.opening_messages()
    assert isinstance(init, str)
    assert json.loads(init) == {"AuthToken": "dXNlcjpwYXNz", "columns": 120, "rows": 40}


def test_the_auth_token_is_not_in_the_repr() -> None:
    assert "dXNlcjpwYXNz" not in repr(TtydAdapter(auth_token="dXNlcjpwYXNz"))


def test_server_frames_title_preferences_and_output() -> None:
    session = TtydAdapter(cols=80, rows=24)
    assert session.receive(b"1bash - host") == [
        SessionStarted("", "watch", 80, 24, 0, "none", 0, "bash - host", complete=False),
        TitleChanged("bash - host"),
    ]
    assert session.receive(b'2{"fontSize":14}') == []
    assert session.receive(b"0$ ") == [OutputReceived(b"$ ", 0)]
    assert session.receive(b"0ls") == [OutputReceived(b"ls", 2)]


def test_a_hostile_title_is_sanitized() -> None:
    session = TtydAdapter()
    events = session.receive(b"1evil\x1b]52;c;AAAA\x07\xe2\x80\xaename")
    assert events[-1] == TitleChanged("evil\ufffd]52;c;AAAA\ufffd\ufffdname")


def test_bad_frames_are_reported_not_raised() -> None:
    session = TtydAdapter()
    assert session.receive(b"")[-1] == ProtocolViolation("ttyd sent an empty frame")
    assert session.receive(b"9x") == [ProtocolViolation("ttyd sent an unknown command byte 0x39")]


def test_input_and_resize_are_prefixed_with_their_command_byte() -> None:
    session = TtydAdapter()
    assert session.encode_input(b"ls\r") == [b"0ls\r"]
    assert session.encode_resize(100, 30) == [b'1{"columns":100,"rows":30}']
    assert session.encode_take() == [] and session.encode_release() == []


def test_ttyd_says_nobody_arbitrates_and_its_close_is_the_programs_end() -> None:
    caps = TtydAdapter().capabilities
    assert caps.arbitration == "none" and caps.exit == "close"
    assert caps.reconnect == "new program" and not caps.watchers and not caps.identifier
