"""Control on its own: the mode table's side, replies, idle release and the resize policy."""

from __future__ import annotations

import json

from observer.client.attention import AttentionTracker
from observer.client.control import Control
from observer.client.events import NoticePosted, Outlet
from observer.client.parse_queue import ParseQueue
from observer.protocol.adapters import create_adapter
from observer.protocol.adapters.native import NativeAdapter
from observer.protocol.modes import ControlMode
from tests.unit.client.drive import lifecycle


def control(protocol: str = "observer", *, idle_release: float = 300.0) -> tuple[Control, Outlet]:
    outlet = Outlet()
    life = lifecycle(outlet)
    adapter = (
        NativeAdapter() if protocol == "observer" else create_adapter("ttyd", cols=80, rows=24)
    )
    life.opened(adapter, 0.0)
    outlet.data_to_send()
    attention = AttentionTracker()
    queue = ParseQueue(life, outlet, attention, None, size=(80, 24), scrollback=0, show=True)
    part = Control(
        life,
        queue,
        outlet,
        attention,
        None,
        want=False,
        follow_size=True,
        idle_release=idle_release,
    )
    return part, outlet


def sent(outlet: Outlet) -> list[object]:
    return [json.loads(m) if isinstance(m, str) else m for m in outlet.data_to_send()]


def test_an_arbitrating_peer_is_asked_and_keys_wait_for_its_grant() -> None:
    part, outlet = control()
    assert part.take(1.0) and part.mode is ControlMode.REQUESTING
    assert not part.type(b"x", 1.0)
    assert sent(outlet) == [{"type": "take"}]
    part.holder_changed("you", 2.0)
    assert part.type(b"x", 2.0) and sent(outlet) == [b"x"]


def test_a_peer_that_arbitrates_nothing_is_ours_at_once() -> None:
    part, outlet = control("ttyd")
    assert part.take(1.0) and part.in_control
    assert sent(outlet) == []  # nothing to ask


def test_a_reply_takes_types_and_hands_back_once_granted() -> None:
    part, outlet = control()
    assert part.reply(b"y\r", 1.0, told="")
    assert sent(outlet) == [{"type": "take"}]
    part.holder_changed("you", 2.0)
    assert sent(outlet) == [b"y\r", {"type": "release"}]
    assert NoticePosted("Sent 'y⏎' to the agent") in outlet.take_events()


def test_a_watch_only_refusal_is_remembered_and_explained() -> None:
    part, _ = control()
    part.take(1.0)
    part.refused("watch_only", "this token may only watch", 1.0)
    assert part.mode is ControlMode.WATCH and part.watch_only
    assert "watching only" in part.cannot_take()


def test_idle_control_is_handed_back() -> None:
    part, _ = control(idle_release=60.0)
    part.take(0.0)
    part.holder_changed("you", 0.0)
    part.tick(59.0)
    assert part.in_control
    part.tick(60.0)
    assert part.mode is ControlMode.RELEASED


def test_the_pty_follows_the_view_only_while_in_control() -> None:
    part, outlet = control()
    part.view_resized(120, 40)
    assert sent(outlet) == []
    part.take(0.0)
    part.holder_changed("you", 0.0)
    assert sent(outlet)[-1] == {"type": "resize", "cols": 120, "rows": 40}
