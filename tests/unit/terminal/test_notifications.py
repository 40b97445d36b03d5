"""Agents' notifications as events: OSC 9, OSC 99, OSC 777, BEL and OSC 9;4 progress
(``TerminalModel.take_notifications``), from byte literals such as Claude Code sends."""

from __future__ import annotations

import base64

import pytest

from observer.terminal import BellRung, NotificationSent, ProgressReported, TerminalModel
from observer.terminal.notifications import MAX_EVENTS, MAX_PARTIAL


def notified(*chunks: bytes) -> list[object]:
    m = TerminalModel(40, 5)
    for chunk in chunks:
        m.feed(chunk)
    return list(m.take_notifications())


def test_osc_9_is_an_iterm2_notification_ended_by_bel_or_st() -> None:
    assert notified(b"\x1b]9;Claude needs your permission to use Bash\x07") == [
        NotificationSent("", "Claude needs your permission to use Bash", "osc9")
    ]
    assert notified(b"\x1b]9;done\x1b\\") == [NotificationSent("", "done", "osc9")]
    assert notified(b"\x1b]9;13 files changed\x07\x1b]9;42\x07") == [
        NotificationSent("", "13 files changed", "osc9"),
        NotificationSent("", "42", "osc9"),
    ]


@pytest.mark.parametrize(
    ("payload", "event"),
    [
        (b"4;1;42", ProgressReported(1, 42)),
        (b"4;1", ProgressReported(1, None)),
        (b"4;0", ProgressReported(0, None)),
        (b"4;2;100", ProgressReported(2, 100)),
        (b"4;3", ProgressReported(3, None)),
        (b"4;4;7", ProgressReported(4, 7)),
        (b"4;1;250", ProgressReported(1, 100)),  # percent, at most 100
        (b"4;1;", ProgressReported(1, None)),
    ],
)
def test_osc_9_4_is_conemu_progress_not_a_notification(payload: bytes, event: object) -> None:
    assert notified(b"\x1b]9;" + payload + b"\x07") == [event]


@pytest.mark.parametrize(
    "payload",
    [b"4", b"4;9", b"4;x", b"4;1;abc", b"9;C:\\work", b"1;100", b"2;box", b"3;tab", b"5", b"12"],
)
def test_other_conemu_osc_9_commands_are_neither_progress_nor_notifications(payload: bytes) -> None:
    assert notified(b"\x1b]9;" + payload + b"\x07") == []


def test_osc_777_notify_has_a_title_and_a_body() -> None:
    assert notified(b"\x1b]777;notify;Claude Code;Waiting for input; really\x07") == [
        NotificationSent("Claude Code", "Waiting for input; really", "osc777")
    ]
    assert notified(b"\x1b]777;notify;only a title\x07") == [
        NotificationSent("only a title", "", "osc777")
    ]
    assert notified(b"\x1b]777;preexec;x\x07\x1b]777;notifyx;a;b\x07") == []


def test_osc_99_puts_kitty_parts_together_with_their_metadata() -> None:
    assert notified(b"\x1b]99;;Hello\x1b\\") == [NotificationSent("Hello", "", "osc99")]
    parts = (
        b"\x1b]99;i=agent-1:d=0:u=2;Permission\x1b\\",
        b"\x1b]99;i=other:d=0;Other\x1b\\",
        b"\x1b]99;i=agent-1:p=body:d=0;Run \x1b\\",
        b"\x1b]99;i=agent-1:p=body;pytest?\x1b\\",
    )
    assert notified(*parts) == [
        NotificationSent("Permission", "Run pytest?", "osc99", "agent-1", 2)
    ]
    body = base64.b64encode("caf\u00e9 \u4e2d\nline".encode()).decode()
    assert notified(f"\x1b]99;e=1:p=body;{body}\x07".encode()) == [
        NotificationSent("", "caf\u00e9 \u4e2d\ufffdline", "osc99")  # the newline, made safe
    ]


def test_osc_99_closes_queries_icons_and_bad_base64_are_not_notifications() -> None:
    for payload in (b"i=1:p=close;", b"i=1:p=?;", b"p=icon;abc", b"p=alive;", b"e=1;%%%"):
        assert notified(b"\x1b]99;" + payload + b"\x1b\\") == []


def test_a_bell_is_an_event_but_bel_ending_an_osc_is_not() -> None:
    assert notified(b"a\x07b\x1b]0;title\x07c\x1b[3\x07m") == [BellRung(), BellRung()]


def test_titles_and_bodies_are_sanitized_and_bounded() -> None:
    (event,) = notified("\x1b]777;notify;\u202eevil\u200b;ok\u2066 \u0085x\x07".encode())
    assert isinstance(event, NotificationSent)
    assert "\u202e" not in event.title and "\u2066" not in event.body
    assert event.title == "\ufffdevil" and event.body.startswith("ok\ufffd")
    (long,) = notified(b"\x1b]9;" + b"y" * 100_000 + b"\x07")
    assert isinstance(long, NotificationSent) and long.body == "y" * 256


def test_a_notification_split_across_feeds_is_one_event() -> None:
    stream = (
        b"\x1b]9;hi \xe4\xb8\xad\x07\x07\x1b]9;4;1;5\x1b\\"
        b"\x1b]777;notify;t;b\x07\x1b]99;i=1:d=0;T\x1b\\\x1b]99;i=1:p=body;B\x1b\\"
    )
    whole = notified(stream)
    assert len(whole) == 5
    for cut in range(len(stream) + 1):
        assert notified(stream[:cut], stream[cut:]) == whole, cut
    assert notified(*[stream[i : i + 1] for i in range(len(stream))]) == whole


def test_a_snapshot_repaint_keeps_the_kitty_parts_not_yet_done() -> None:
    source = TerminalModel(40, 5)
    source.feed(b"\x1b]99;i=a:d=0:u=1;Title \x1b\\\x1b]99;i=a:p=body:d=0;body \x1b\\\x1b]99;i=a")
    fresh = TerminalModel(40, 5)
    fresh.feed(source.to_ansi(unfinished=True).encode("utf-8", "surrogateescape"))
    fresh.feed(b":p=body;end\x1b\\")
    assert fresh.take_notifications() == [NotificationSent("Title", "body end", "osc99", "a", 1)]


def test_events_are_taken_once_and_a_flood_keeps_only_the_newest() -> None:
    m = TerminalModel(40, 5)
    m.feed(b"\x07" * 10_000 + b"\x1b]9;last\x07")
    events = m.take_notifications()
    assert len(events) == MAX_EVENTS and events[-1] == NotificationSent("", "last", "osc9")
    assert m.take_notifications() == []
    assert m.bells == 10_000


def test_kitty_parts_in_flight_are_bounded() -> None:
    m = TerminalModel(40, 5)
    m.feed(b"".join(b"\x1b]99;i=%d:d=0;x\x1b\\" % i for i in range(5000)))
    assert len(m._screen.notifications.partial) == MAX_PARTIAL
    m.feed(b"\x1b]99;i=4999;y\x1b\\")
    assert m.take_notifications() == [NotificationSent("xy", "", "osc99", "4999")]
