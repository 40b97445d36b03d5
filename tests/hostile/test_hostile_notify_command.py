"""Agent text reaches the notify command only as data: never as shell syntax, never as controls.

The agent (a real program in a real ``observer serve`` PTY) sends an OSC 9 notification and
draws a permission dialog whose command is built to run something if any part of observer ever
put agent text on a command line (``$(...)``, backticks, ``;``, quotes), and to reach whatever
shows it (an OSC 52 clipboard write, a bell, a bidi override). The notify command uses the
variables as the recipes in ``docs/notify.md`` do, quoted; nothing the agent wrote runs, and the
JSON object and the variables hold the agent's words as text with no control in them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.app.notify_agent import KEEP, Agent, running_agent, told_after_going

SHELL = "$(touch RAN-1) `touch RAN-2`; touch RAN-3 ' \" \\ | &"
HOSTILE = f"needs your permission \u202e{SHELL}\u0085 \u2066x"
DIALOG = (
    "╭────────────────────────────────────────────────────────────╮\r\n"
    f"│ {SHELL}\x1b]52;c;aGk=\x07\u202e \x1b[31mred\x1b[m │\r\n"
    "│ Do you want to proceed?                                    │\r\n"
    "│ ❯ 1. Yes                                                   │\r\n"
    "╰────────────────────────────────────────────────────────────╯"
)
USES = ' printf "%s" "$OBSERVER_NOTIFY_TEXT" > "$OUT/text"; echo $OBSERVER_NOTIFY_MESSAGE'


@pytest.fixture
async def agent(tmp_path: Path) -> AsyncIterator[Agent]:
    async for running in running_agent(tmp_path, f"{DIALOG}\x1b]9;{HOSTILE}\x07"):
        yield running


async def test_agent_text_reaches_the_notify_command_only_as_data(agent: Agent) -> None:
    told = await told_after_going(agent, KEEP + ";" + USES)
    ran = [path.name for path in agent.folder.iterdir() if path.name.startswith("RAN")]
    assert ran == []
    text = (agent.folder / "text").read_text()
    assert text == told["text"]
    assert SHELL in text  # the shell's syntax is there, as text
    screen = "\n".join(told["screen"])  # type: ignore[arg-type]
    assert SHELL in screen and "red" in screen
    env = (agent.folder / "env").read_text()
    for said in (text, screen, env, str(told)):
        assert not any(char in said for char in "\x1b\x07\u202e\u2066\x85")
    assert told["question"] == "Do you want to proceed?"
