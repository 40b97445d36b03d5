"""raw: every frame is output, input goes as binary, the close is the end."""

from __future__ import annotations

from observer.protocol.adapters.raw import RawAdapter
from observer.protocol.events import OutputReceived, SessionStarted


def test_binary_and_text_frames_are_output_after_an_incomplete_start() -> None:
    session = RawAdapter(cols=100, rows=30, identifier="agent-1")
    first = session.receive(b"\x1b[1mhi")
    assert first == [
        SessionStarted("agent-1", "watch", 100, 30, 0, "none", 0, "", complete=False),
        OutputReceived(b"\x1b[1mhi", 0),
    ]
    assert session.receive("é") == [OutputReceived("é".encode(), 6)]


def test_input_is_sent_as_binary() -> None:
    assert RawAdapter().encode_input(b"ls\r") == [b"ls\r"]


def test_raw_declares_no_snapshot_resume_arbitration_or_resize() -> None:
    session = RawAdapter()
    caps = session.capabilities
    assert (caps.snapshot, caps.resume, caps.resize) == (False, False, False)
    assert caps.arbitration == "none" and caps.exit == "close"
    assert session.encode_resize(80, 24) == [] and session.encode_resync() == []
    assert session.opening_messages() == [] and session.subprotocol is None
