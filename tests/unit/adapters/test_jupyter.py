"""jupyter: terminado JSON arrays both ways."""

from __future__ import annotations

import json

from observer.protocol.adapters.jupyter import JupyterAdapter
from observer.protocol.events import Exited, OutputReceived, ProtocolViolation, SessionStarted


def test_setup_starts_the_session_and_stdout_is_output() -> None:
    session = JupyterAdapter(identifier="1", cols=80, rows=24)
    assert session.receive('["setup", {}]') == [
        SessionStarted("1", "watch", 80, 24, 0, "none", 0, "", complete=False)
    ]
    assert session.receive('["stdout", "h\\u00e9\\u001b[0m"]') == [
        OutputReceived("hé\x1b[0m".encode(), 0)
    ]
    assert session.receive('["disconnect", 1]') == [Exited(None)]


def test_malformed_frames_are_reported() -> None:
    session = JupyterAdapter()
    session.receive('["setup", {}]')
    assert session.receive("not json") == [
        ProtocolViolation("the Jupyter terminal sent a frame that is not JSON")
    ]
    assert session.receive('{"a": 1}')[0].reason.endswith("is not [type, ...]")  # type: ignore[union-attr]
    assert session.receive('["stdout", 5]') == [
        ProtocolViolation("a Jupyter stdout frame carried no text")
    ]
    assert session.receive('["future-kind", 1]') == []


def test_input_is_stdin_and_set_size_has_rows_first() -> None:
    session = JupyterAdapter()
    assert [json.loads(m) for m in session.encode_input(b"ls\r")] == [["stdin", "ls\r"]]
    assert [json.loads(m) for m in session.encode_resize(100, 30)] == [["set_size", 30, 100]]
    caps = session.capabilities
    assert caps.arbitration == "none" and caps.exit == "frame" and caps.reconnect == "rejoin"


def test_a_utf8_character_split_across_keystrokes_arrives_whole() -> None:
    session = JupyterAdapter()
    encoded = "é".encode()
    assert session.encode_input(encoded[:1]) == []
    assert [json.loads(m) for m in session.encode_input(encoded[1:])] == [["stdin", "é"]]
