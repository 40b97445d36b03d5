"""The notify command runs when an agent starts waiting, with its words and the screen's question.

A real ``observer serve`` runs an agent in a PTY that, when told, draws a Claude-Code-like
permission dialog (and, in one case, sends the OSC 9 notification Claude Code sends with it);
the app watches it with a notify command that keeps its standard input, its environment and the
time it ran. The time is compared with the time the agent wrote its last byte, both wall clocks
of this machine.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from observer.app.app import CHECK_EVERY
from observer.app.notify_command import NotifyRunner, NotifyTarget
from observer.client.agent_state import WAIT_AFTER_DIALOG
from observer.client.notify import NotifyRequest
from observer.commands.watch import notify_targets
from observer.runtime.config import Config, Profile
from tests.app.notify_agent import NOTIFICATION, Agent, running_agent, told_after_going
from tests.unit.client.test_notify import DIALOG


@pytest.fixture
async def notified(tmp_path: Path) -> AsyncIterator[Agent]:
    async for agent in running_agent(tmp_path, DIALOG + NOTIFICATION):
        yield agent


@pytest.fixture
async def dialog_only(tmp_path: Path) -> AsyncIterator[Agent]:
    async for agent in running_agent(tmp_path, DIALOG):
        yield agent


async def test_a_notification_runs_the_command_with_its_words_and_the_question(
    notified: Agent,
) -> None:
    told = await told_after_going(notified)
    assert told["delay"] <= 2.0  # type: ignore[operator]
    assert told["kind"] == "notification" and told["attention"] == "needs permission"
    assert told["text"] == "Claude needs your permission to use Bash"
    assert told["question"] == "Do you want to proceed?"
    assert "rm -rf build && make test" in told["screen"]  # type: ignore[operator]
    assert told["options"] == [
        "1. Yes",
        "2. Yes, and don't ask again for rm",
        "3. No, and tell Claude what to do (esc)",
    ]
    assert (told["profile"], told["identifier"]) == ("build", "agent")
    env = (notified.folder / "env").read_text()
    assert "OBSERVER_NOTIFY_QUESTION=Do you want to proceed?" in env


async def test_a_permission_dialog_alone_runs_the_command_once_the_agent_waits(
    dialog_only: Agent,
) -> None:
    told = await told_after_going(dialog_only)
    # A dialog alone asks once it has been quiet for its settle time, which the app finds at its
    # next look at the sessions; then a shell starts the command (a second, on a loaded machine).
    assert told["delay"] <= WAIT_AFTER_DIALOG + CHECK_EVERY + 1.0  # type: ignore[operator]
    assert told["kind"] == "prompt" and told["attention"] == "needs permission"
    assert told["question"] == "Do you want to proceed?"
    assert told["options"][0] == "1. Yes"  # type: ignore[index]


def request() -> NotifyRequest:
    return NotifyRequest("p", "i", "ws://h/", "notification", "notification", "hi")


async def test_a_failing_or_slow_command_is_said_once_and_holds_nothing_up() -> None:
    said: list[str] = []
    runner = NotifyRunner({}, spawn=asyncio.ensure_future, complain=said.append, timeout=0.5)
    await asyncio.gather(*(runner.run("echo broken >&2; exit 3", request()) for _ in range(3)))
    assert said == ["notify command exited with status 3: broken — check notify_command (this "
                    "is said once)"]  # fmt: skip
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    ticking = asyncio.ensure_future(tick())
    started = time.monotonic()
    await asyncio.gather(*(runner.run("sleep 30", request()) for _ in range(2)))
    ticking.cancel()
    assert time.monotonic() - started < 10  # killed at its timeout, not after 30 s
    assert ticks >= 10  # the loop ran on meanwhile
    assert len(said) == 2 and "took longer than 0.5 s and was stopped" in said[1]


def test_the_option_wins_over_a_profiles_command_which_wins_over_the_configs() -> None:
    a = Profile("a", "ws://h/", "a", notify_command="own")
    b = Profile("b", "ws://h/", "b")
    links = [object(), object()]
    config = Config(notify_command="shared")
    targets = notify_targets(links, [a, b], None, config)
    assert [targets[id(link)].command for link in links] == ["own", "shared"]
    assert targets[id(links[1])].identifier == "b"
    targets = notify_targets(links, [a, b], "option", config)
    assert {target.command for target in targets.values()} == {"option"}
    assert notify_targets(links, [a, b], None, Config()) == {
        id(links[0]): NotifyTarget("own", "a", "a", "ws://h/")
    }
