"""Agents' own notifications, bells and prompts become the session's attention, and markers."""

from __future__ import annotations

import base64

from observer.app.recogniser_files import built_in_recognisers
from observer.client.agent_state import WAIT_AFTER_BELL, WAIT_AFTER_DIALOG, WAIT_AFTER_PROMPT
from observer.client.attention import BELL_MARKER_EVERY, RESUMED_AFTER
from observer.client.state_words import summary
from observer.client.watched import WatchedSession
from observer.protocol import frames as f
from tests.unit.client.drive import Sink, connect, control, recorded, status_changed

PERMISSION = b"\x1b]9;Claude needs your permission to use Bash\x07"


def receive(session: WatchedSession, data: bytes, now: float) -> None:
    """Output arrives at ``now`` and is parsed at once (as the app's feeder does)."""
    session.received(data, now)
    while session.pending:
        session.feed(1 << 20, now)


def watched() -> tuple[WatchedSession, Sink]:
    """A recorded session with the built-in rules."""
    policy, sink = recorded()
    session = WatchedSession(recording=policy, recognisers=built_in_recognisers())
    connect(session, now=1.0)
    return session, sink


def test_a_permission_notification_is_the_sessions_attention_at_once_and_a_marker() -> None:
    session, sink = watched()
    session.take_events()
    receive(session, b"working\r\n" + PERMISSION, 10.0)
    status = session.status(10.0)
    assert status.agent == "waiting" and status_changed(session)
    assert status.attention is not None
    assert (status.attention.reason, status.attention.since) == ("needs permission", 10.0)
    assert summary(status) == "needs permission 0s: Claude needs your permission to use Bash"
    assert sink.markers()[-1] == "notification: Claude needs your permission to use Bash"


def test_osc_777_and_kittys_osc_99_notifications_are_told_with_their_title() -> None:
    session, _ = watched()
    receive(session, b"\x1b]777;notify;Claude Code;Claude is waiting for your input\x07", 5.0)
    attention = session.status(5.0).attention
    assert attention is not None and attention.reason == "waiting for input"
    assert attention.text == "Claude Code: Claude is waiting for your input"
    body = base64.b64encode(b"Build finished").decode()
    receive(session, f"\x1b]99;i=1:d=0;Agent\x1b\\\x1b]99;i=1:p=body:e=1;{body}\x1b\\".encode(), 6)
    attention = session.status(6.0).attention
    assert attention is not None and str(attention) == "notification: Agent: Build finished"


def test_typing_to_the_agent_answers_its_notification() -> None:
    session, _ = watched()
    receive(session, PERMISSION, 10.0)
    session.take(11.0)
    session.received(control("you"), 11.0)
    assert session.status(11.0).attention is not None
    session.type(b"1", 12.0)
    assert session.status(12.0).attention is None


def test_the_agent_printing_again_later_means_it_was_answered_elsewhere() -> None:
    session, _ = watched()
    receive(session, PERMISSION, 10.0)
    receive(session, b"\x1b[2K> still asking", 10.5)  # its own redraw, just after asking
    assert session.status(11.0).attention is not None
    receive(session, b"\r\nRunning Bash(ls)...", 10.0 + RESUMED_AFTER)
    assert session.status(13.0).attention is None


def test_a_bell_then_silence_waits_for_input_and_bells_are_marked_now_and_then() -> None:
    session, sink = watched()
    receive(session, b"Continue\a", 20.0)
    assert session.status(20.5).attention is None
    attention = session.status(20.0 + WAIT_AFTER_BELL).attention
    assert attention is not None and (attention.reason, attention.since) == (
        "waiting for input",
        20.0 + WAIT_AFTER_BELL,
    )
    receive(session, b"\a\a\a", 21.0)
    receive(session, b"\a", 20.0 + BELL_MARKER_EVERY)
    assert sink.markers().count("notification: bell") == 2


def test_a_recognised_prompt_then_silence_needs_an_answer_since_it_went_quiet() -> None:
    session, _ = watched()
    receive(session, b"\x1b[2J\x1b[HApply the change? (y)es/(n)o [Yes]: ", 30.0)
    assert session.status(32.0).attention is None
    attention = session.status(35.0).attention
    assert attention is not None
    assert attention.reason == "needs an answer" and attention.since == 30.0 + WAIT_AFTER_PROMPT
    assert attention.text == "Apply the change? (y)es/(n)o [Yes]:"


def test_a_permission_dialog_waits_a_second_after_it_is_drawn_an_input_line_four() -> None:
    dialog = "\x1b[2J\x1b[H Bash command\r\n rm -rf build\r\n Do you want to proceed?\r\n ❯ 1. Yes"
    session, _ = watched()
    receive(session, dialog.encode(), 30.0)
    assert session.status(30.0 + WAIT_AFTER_DIALOG / 2).attention is None
    attention = session.status(30.0 + WAIT_AFTER_DIALOG).attention
    assert attention is not None and attention.reason == "needs permission"
    assert attention.since == 30.0 + WAIT_AFTER_DIALOG
    session, _ = watched()  # an agent's input line shows while it works too: a long silence
    receive(session, "\x1b[2J\x1b[Hthinking\r\n\x1b[5;1H│ >".encode(), 30.0)
    assert session.status(30.0 + WAIT_AFTER_DIALOG).attention is None
    attention = session.status(30.0 + WAIT_AFTER_PROMPT).attention
    assert attention is not None and attention.reason == "waiting for input"


def test_a_shell_back_at_its_prompt_is_idle_not_waiting_for_input() -> None:
    session, _ = watched()
    receive(session, b"root@vm:/tmp/build# make test\r\nok\r\nroot@vm:/tmp/build# ", 30.0)
    status = session.status(30.0 + 60)
    assert status.attention is None
    assert (status.agent, summary(status)) == ("idle", "idle 1m00s")


def test_progress_reports_are_the_sessions_progress_until_they_end() -> None:
    session, _ = watched()
    receive(session, b"\x1b]9;4;1;42\x07", 1.0)
    progress = session.status(1.0).progress
    assert progress is not None and (progress.state, progress.value) == (1, 42)
    receive(session, b"\x1b]9;4;0\x07", 2.0)
    assert session.status(2.0).progress is None


def test_an_exit_ends_the_attention() -> None:
    session, _ = watched()
    receive(session, PERMISSION, 10.0)
    session.received(f.encode(f.Exit(0)), 11.0)
    assert session.status(11.0).attention is None


def test_a_notifications_text_is_shown_as_safe_text() -> None:
    session, _ = watched()
    receive(session, "\x1b]9;rm -rf \u202e/ \x9b31m done\x07".encode(), 1.0)
    attention = session.status(1.0).attention
    assert attention is not None
    assert attention.text.isprintable() and "\u202e" not in attention.text
