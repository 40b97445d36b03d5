"""A session's agent state (active, idle, waiting, exited) from output and time alone."""

from __future__ import annotations

from observer.app.session import LiveSession
from observer.app.source import ConnectionChanged
from observer.protocol.events import Exited, OutputReceived, SessionStarted, SnapshotReceived
from observer.terminal import TerminalModel
from tests.app.conftest import scripted


def session_with(*chunks: bytes, at: float = 100.0) -> LiveSession:
    session = LiveSession(scripted())
    session.apply(SessionStarted("a", "watch", 40, 5, 0, "none", 1, ""), at)
    for chunk in chunks:
        session.apply(OutputReceived(chunk, 0), at)
    return session


def test_output_makes_the_agent_active_then_idle() -> None:
    session = session_with(b"working...")
    assert session.agent_state(100.5) == ("active", 0.5)
    assert session.agent_state(110.0) == ("idle", 10.0)


def test_a_bell_then_silence_means_waiting() -> None:
    session = session_with(b"Proceed? \a")
    assert session.agent_state(100.5)[0] == "active"
    assert session.agent_state(102.0) == ("waiting", 2.0)


def test_output_after_the_bell_ends_the_wait() -> None:
    session = session_with(b"Proceed? \a", b"y\r\nok, going on\r\n")
    assert session.agent_state(150.0)[0] == "idle"


def test_a_prompt_with_no_output_for_a_while_means_waiting() -> None:
    session = session_with(b"Overwrite the file? ")
    assert session.agent_state(101.0)[0] == "active"
    assert session.agent_state(103.0)[0] == "idle"
    assert session.agent_state(106.0)[0] == "waiting"


def test_exit_and_disconnect_are_told() -> None:
    session = session_with(b"bye")
    session.apply(ConnectionChanged("connected"), 100.0)
    notice = session.apply(ConnectionChanged("reconnecting", 2.0), 101.0)
    assert notice is not None and "reconnecting" in notice.text
    assert session.retry_at == 103.0
    notice = session.apply(Exited(2), 102.0)
    assert notice is not None and "status 2" in notice.text
    assert session.agent_state(200.0) == ("exited", 0.0)


def test_a_gap_snapshot_replaces_the_screen_and_is_counted() -> None:
    session = session_with(b"old text")
    notice = session.apply(SnapshotReceived(b"\x1b[2J\x1b[Hnew screen", 30, 4, 99, gap=True), 101.0)
    assert notice is not None and "missed" in notice.text
    assert session.gaps == 1
    assert (session.model.cols, session.model.rows) == (30, 4)
    assert session.model.text()[0] == "new screen"


def test_titles_and_identifiers_are_made_safe_to_print() -> None:
    session = LiveSession(scripted())
    session.apply(SessionStarted("id\x1b[31m", "watch", 40, 5, 0, "none", 1, "t\x07"), 0.0)
    assert "\x1b" not in session.identifier and "\x07" not in session.title


def snapshot_of(text: bytes, cols: int = 40, rows: int = 5) -> SnapshotReceived:
    model = TerminalModel(cols, rows)
    model.feed(text)
    return SnapshotReceived(model.to_ansi().encode(), cols, rows, 0, gap=False)


def test_a_snapshot_of_the_same_size_replaces_the_screen_but_keeps_the_scrollback() -> None:
    session = session_with(b"".join(b"old line %d\r\n" % n for n in range(20)), b"\x1b[?1h")
    history = len(session.model.history)
    session.apply(snapshot_of(b"\x1b[31mthe current screen"), 101.0)
    assert session.model.text()[0] == "the current screen"
    assert len(session.model.history) == history > 0
    assert not session.model.application_cursor  # modes are the snapshot's, not the old ones


def test_a_snapshot_after_output_cut_inside_a_sequence_shows_exactly_its_screen() -> None:
    """Skipped output can stop anywhere: in a CSI, an OSC string or a UTF-8 character."""
    for cut in (b"\x1b[38;", b"\x1b]0;unterminated title", b"\xe2\x94", b"\x1bP1$r"):
        session = session_with(b"before\r\n", cut)
        session.apply(snapshot_of(b"screen\r\n\x1b[1mbold"), 101.0)
        session.apply(OutputReceived(b" and more", 0), 101.0)
        expected = TerminalModel(40, 5)
        expected.feed(snapshot_of(b"screen\r\n\x1b[1mbold").data + b" and more")
        assert session.model.text() == expected.text(), cut
        assert session.model.line(1) == expected.line(1), cut
