"""Connection limits per token with room kept for control, and the message budget."""

from __future__ import annotations

from observer.server.limits import ConnectionLimits, MessageBudget


def test_defaults_give_a_token_half_the_places_and_keep_a_sixteenth_for_control() -> None:
    limits = ConnectionLimits()
    assert (limits.total, limits.per_token, limits.reserved) == (256, 128, 16)
    for _ in range(128):
        assert limits.refusal("watcher", "watch") is None
        limits.add("watcher")
    assert "this token" in (limits.refusal("watcher", "watch") or "")
    assert limits.refusal("another", "watch") is None
    assert limits.refusal("controller", "control") is None


def test_watch_tokens_never_take_the_reserved_places() -> None:
    limits = ConnectionLimits(total=10, per_token=5, reserved=2)
    for key in ("a", "b"):
        for _ in range(5 if key == "a" else 3):
            limits.add(key)
    assert limits.open == 8
    assert "control" in (limits.refusal("c", "watch") or "")
    assert limits.refusal("d", "control") is None
    limits.add("d")
    limits.add("d")
    assert limits.refusal("e", "control") == "Too many connections"


def test_closed_connections_give_their_places_back() -> None:
    limits = ConnectionLimits(total=4, per_token=1, reserved=1)
    limits.add("a")
    assert limits.refusal("a", "watch") is not None
    limits.remove("a")
    assert limits.held("a") == 0 and limits.open == 0
    assert limits.refusal("a", "watch") is None


def test_without_authentication_only_the_total_counts() -> None:
    limits = ConnectionLimits(total=3)
    for _ in range(3):
        assert limits.refusal(None, "control") is None
        limits.add(None)
    assert limits.refusal(None, "control") == "Too many connections"


def test_the_message_budget_allows_a_burst_then_paces_to_its_rate() -> None:
    now = [0.0]
    budget = MessageBudget(lambda: now[0], rate=100.0, burst=10.0)
    assert [budget.spend() for _ in range(10)] == [0.0] * 10
    assert abs(budget.spend() - 0.01) < 1e-9  # one over: wait for one message's worth
    now[0] += 1.0  # a second later the bucket is full again (at most the burst)
    assert [budget.spend() for _ in range(10)] == [0.0] * 10
