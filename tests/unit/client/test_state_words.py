"""One vocabulary for a session's state: the words every view, table and transcript shows."""

from __future__ import annotations

import dataclasses

from observer.client import state_words as words
from observer.client.attention import Attention
from observer.client.status import SessionStatus

UP = SessionStatus(
    connection="connected",
    in_control=False,
    requesting=False,
    holder="none",
    arbitration="server",
    may_take=True,
    cannot_take="",
    watchers=1,
    title="",
    identifier="agent",
    exited=False,
    exit_status=None,
    gaps=0,
    reason="",
    last_error="",
    retry_in=None,
    latency=None,
    complete=True,
    echo=True,
    agent="active",
    quiet_for=0.0,
    behind=False,
)


def status(**changes: object) -> SessionStatus:
    return dataclasses.replace(UP, **changes)  # type: ignore[arg-type]


def test_an_exit_is_said_long_on_the_bar_and_short_on_a_tile() -> None:
    gone = status(exited=True, exit_status=2, agent="exited")
    assert words.connection(gone) == "exited with status 2"
    assert words.summary(gone) == "exited 2"
    assert words.exited(None) == "exited" and words.exited("130") == "exited with status 130"
    assert words.agent_now(gone) is None  # the bar says the exit once


def test_a_dropped_connection_says_what_happened_without_the_advice() -> None:
    down = status(
        connection="reconnecting",
        retry_in=1.6,
        reason="ws://h:1 refused the connection — is the server running?",
    )
    assert words.why_down(down) == "ws://h:1 refused the connection"
    assert words.connection(down) == "reconnecting in 2 s: ws://h:1 refused the connection"
    assert words.summary(down) == "reconnecting: ws://h:1 refused the connection"
    assert words.agent_now(down) is None  # the last state would read as current


def test_a_closed_session_says_its_error_and_a_gap_is_counted() -> None:
    closed = status(connection="closed", reason="has no session", last_error="has no session")
    assert words.connection(closed) == "closed: has no session"
    assert words.summary(closed) == "closed: has no session"
    assert words.connection(status(gaps=2)) == "connected (gap ×2)"


def test_what_the_agent_needs_comes_first_with_how_long_it_waited() -> None:
    asked = Attention("needs permission", "Use Bash?", 10.0)
    waiting = status(agent="waiting", quiet_for=12.7, attention=asked)
    assert words.summary(waiting) == "needs permission 12s: Use Bash?"
    assert words.agent_now(waiting) == "needs permission 12s: Use Bash?"
    assert words.summary(status(agent="idle", quiet_for=3.2)) == "idle 3s"


def test_a_listing_says_who_holds_the_keyboard_and_whether_it_exited() -> None:
    assert [words.holder(h) for h in ("other", "none", None, "you")] == [
        "someone",
        "nobody",
        "nobody",
        "you",
    ]
    assert words.exited_column(False, None) == "no"
    assert words.exited_column(True, 3) == "yes (3)"


def test_a_long_wait_reads_in_minutes_and_hours() -> None:
    asked = Attention("needs permission", "Use Bash?", 0.0)
    assert words.summary(status(attention=asked, quiet_for=734.0)) == (
        "needs permission 12m14s: Use Bash?"
    )
    assert words.duration(59.9) == "59s" and words.duration(3725) == "1h02m"
