"""The agent's state (starting, active, idle, waiting, exited): pure rules over the times a
session saw output and bells, and whether its screen shows a recognised prompt."""

from __future__ import annotations

from typing import Literal

AgentState = Literal["starting", "active", "idle", "waiting", "exited"]

#: No output for this long: the agent is idle.
IDLE_AFTER = 2.0
#: A bell, then no output for this long: it waits for someone.
WAIT_AFTER_BELL = 1.0
#: A recognised prompt (a ``cursor`` rule of :mod:`observer.client.recognisers`) with no output
#: for this long: it waits for someone. An agent's input line is on its screen while it works
#: too, so only a long silence says it waits.
WAIT_AFTER_PROMPT = 4.0
#: A recognised dialog (a ``screen`` rule: "Do you want to proceed?", "❯ 1. Yes") with no output
#: for this long: it waits for someone. Agents draw these only when they ask, so a short settle
#: (the dialog fully drawn) is enough.
WAIT_AFTER_DIALOG = 1.0


def settle_time(where: str) -> float:
    """How long a screen matching a rule of kind ``where`` must stay quiet before it asks."""
    return WAIT_AFTER_DIALOG if where == "screen" else WAIT_AFTER_PROMPT


def agent_state(
    *,
    exited: bool,
    last_output: float | None,
    bell_rang_last: bool,
    prompt_line: bool,
    now: float,
    asked: bool = False,
) -> tuple[AgentState, float]:
    """The agent's state and for how long it has been quiet (seconds).

    Args:
        exited: the program ended.
        last_output: when output last arrived (None: never).
        bell_rang_last: the latest output rang the bell (agents ring it when they ask).
        prompt_line: the screen shows a recognised prompt, quiet for its rule's settle time.
        now: the time to judge at.
        asked: the agent sent a notification it still waits on: waiting at once.
    """
    if exited:
        return "exited", 0.0
    if last_output is None:
        return "starting", 0.0
    quiet = max(0.0, now - last_output)
    if asked or (bell_rang_last and quiet >= WAIT_AFTER_BELL):
        return "waiting", quiet
    if prompt_line:
        return "waiting", quiet
    if quiet >= IDLE_AFTER:
        return "idle", quiet
    return "active", quiet
