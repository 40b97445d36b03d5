"""A burst of log lines of one kind from one source is a few lines and one summary."""

from __future__ import annotations

import logging

import pytest

from observer.server.log_budget import LINES, WINDOW, LogBudget


def test_a_burst_is_cut_to_a_few_lines_and_summed_up_when_its_window_ends(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    log = logging.getLogger("observer.test.log_budget")
    budget = LogBudget(log, lambda: now[0])
    with caplog.at_level(logging.INFO, log.name):
        allowed = [budget.allow("refusals 429", "token ops") for _ in range(100)]
        assert allowed == [True] * LINES + [False] * (100 - LINES)
        assert budget.allow("refusals 429", "token dev")  # another source has its own
        now[0] += WINDOW
        assert budget.allow("refusals 429", "token ops")  # a new window
    assert caplog.messages == [f"{100 - LINES} more refusals 429 from token ops in 10 s"]


def test_stopping_says_what_every_window_held_back(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("observer.test.log_budget")
    budget = LogBudget(log, lambda: 0.0)
    with caplog.at_level(logging.INFO, log.name):
        for _ in range(LINES + 3):
            budget.allow("joins", "token ops")
        budget.flush(everything=True)
    assert caplog.messages == ["3 more joins from token ops in 10 s"]
