"""What happened to a session while nobody looked: markers for rewind, one line for the return."""

from __future__ import annotations

from observer.asciicast.markers import MarkerKind
from observer.client.attention import Attention
from observer.client.happenings import Happenings, while_away
from tests.unit.client.test_state_words import status


def test_changes_of_status_become_moments_of_the_marker_vocabulary() -> None:
    seen = Happenings()
    assert [h.label for h in seen.seen(status(), 1.0)] == ["connect"]
    asked = Attention("needs permission", "Use Bash?\x1b[31m", 2.0)
    assert [h.label for h in seen.seen(status(attention=asked), 2.0)] == [
        "notification: needs permission: Use Bash?\ufffd[31m"  # agent text made safe
    ]
    assert seen.seen(status(attention=asked), 3.0) == []  # the same wait, once
    assert [h.label for h in seen.seen(status(holder="other"), 4.0)] == [
        "takeover start: another client"
    ]
    assert [h.label for h in seen.seen(status(connection="reconnecting"), 5.0)] == [
        "takeover end",
        "disconnect",
    ]
    assert [h.label for h in seen.seen(status(), 6.0)] == ["reconnect"]
    assert [h.label for h in seen.seen(status(exited=True, exit_status=0), 7.0)] == [
        "exit: exited with status 0"
    ]
    assert [h.kind for h in seen.since(4.5)] == [
        MarkerKind.TAKEOVER_END, MarkerKind.DISCONNECT, MarkerKind.RECONNECT, MarkerKind.EXIT,
    ]  # fmt: skip


def test_the_line_for_the_return_says_what_happened_and_how_to_see_it() -> None:
    seen = Happenings()
    seen.seen(status(), 0.0)
    for at in (10.0, 20.0):
        seen.seen(status(attention=Attention("needs permission", "", at)), at)
    seen.seen(status(holder="other"), 30.0)
    seen.seen(status(exited=True, exit_status=2), 40.0)
    line = while_away(seen.since(5.0), 725.0)
    assert line == (
        "Away 12m05s: 2 notifications (last: needs permission), another client took the "
        "keyboard, exited with status 2 — ← shows it."
    )
    assert while_away(seen.since(45.0), 60.0) == ""
