"""Connection limits per token with room kept for control, and the message budget."""

from __future__ import annotations

from observer.server.limits import ConnectionLimits, MessageBudget, NewConnections, TokenBudgets


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


def test_a_tokens_connections_share_its_budget_and_each_keeps_its_own() -> None:
    now = [0.0]
    budgets = TokenBudgets(lambda: now[0], rate=10.0, burst=4.0)
    first, second = budgets.for_connection("ops"), budgets.for_connection("ops")
    other = budgets.for_connection("dev")
    assert [first.spend(), second.spend(), first.spend(), second.spend()] == [0.0] * 4
    assert first.spend() > 0 and second.spend() > 0  # the token's four are spent
    assert other.spend() == 0.0  # another token's are not
    budgets.forget("ops")
    assert budgets.for_connection("ops").spend() == 0.0


def test_new_connections_pass_at_the_rate_and_a_refused_one_takes_no_place() -> None:
    now = [0.0]
    arrivals = NewConnections(lambda: now[0], rate=2.0, burst=3.0)
    assert [arrivals.allow("ops") for _ in range(4)] == [True, True, True, False]
    for _ in range(100):  # retrying at once, again and again, takes nothing away
        assert not arrivals.allow("ops")
    now[0] += 0.5
    assert arrivals.allow("ops") and not arrivals.allow("ops")
    assert arrivals.allow("dev") and arrivals.allow(None)
