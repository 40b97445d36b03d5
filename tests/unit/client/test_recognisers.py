"""Prompt recognisers are data: the built-in file, the user's file first, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from observer.app.recogniser_files import built_in_recognisers, load_recognisers
from observer.client.recognisers import NOTIFIED, Recognisers
from observer.errors import UsageError

MINE = """
[[agents]]
name = "my agent"
rules = [
    { notification = 'needs your permission', attention = "my agent asks" },
    { cursor = 'READY>$', attention = "idle at its prompt" },
]
"""


@pytest.mark.parametrize(
    ("text", "attention"),
    [
        ("Claude needs your permission to use Bash", "needs permission"),
        ("Claude is waiting for your input", "waiting for input"),
        ("Tests passed", NOTIFIED),
    ],
)
def test_the_built_in_rules_name_claude_codes_notifications(text: str, attention: str) -> None:
    assert built_in_recognisers().notification(text) == attention


@pytest.mark.parametrize(
    ("cursor", "rows", "attention"),
    [
        ("│ >", ["│ >"], "waiting for input"),  # Claude Code's and Gemini CLI's input box
        ("", ["", "❯ 1. Yes", "Do you want to proceed?"], "needs permission"),
        ("", ["", "Allow command?"], "needs permission"),  # Codex CLI
        ("", ["", "Allow execution?"], "needs permission"),  # Gemini CLI
        ("Run it? (Y)es/(N)o [Yes]:", ["Run it? (Y)es/(N)o [Yes]:"], "needs an answer"),  # aider
        ("architect>", ["architect>"], "waiting for input"),
        ("Enter the amount in $", ["Enter the amount in $"], "waiting for input"),
        ("Password:", ["Password:"], "waiting for input"),
    ],
)
def test_the_built_in_rules_recognise_the_agents_prompts(
    cursor: str, rows: list[str], attention: str
) -> None:
    match = built_in_recognisers().waiting(cursor, rows)
    assert match is not None and match.attention == attention


@pytest.mark.parametrize(
    "prompt",
    [
        "user@host:~$",
        "root@vm:/tmp/build project#",
        "(venv) me@box:~/src/observer$",
        "me@box ~ %",
        "[user@host ~]$",
        "bash-5.2$",
        "host%",
        "$",
        "#",
    ],
)
def test_a_shell_at_its_prompt_waits_for_nobody(prompt: str) -> None:
    assert built_in_recognisers().waiting(prompt, [prompt, "$ make test", "ok"]) is None


def test_text_that_is_no_prompt_is_not_recognised() -> None:
    assert built_in_recognisers().waiting("compiling src/app.py", ["compiling src/app.py"]) is None


def test_the_users_rules_are_tried_before_the_built_in_ones(tmp_path: Path) -> None:
    (tmp_path / "agents.toml").write_text(MINE)
    rules, problems = load_recognisers(tmp_path)
    assert problems == []
    assert rules.notification("Claude needs your permission to use Bash") == "my agent asks"
    match = rules.waiting("READY>", ["READY>"])
    assert match is not None and match.attention == "idle at its prompt"
    assert rules.notification("Claude is waiting for your input") == "waiting for input"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[[agents]\nname=", "is not valid TOML"),
        ('[[agents]]\nrules = [{ cursor = "x", attention = "a" }]', "needs a name"),
        ('[[agents]]\nname = "a"\nrules = [{ cursor = "x" }]', "exactly one of"),
        (
            '[[agents]]\nname = "a"\nrules = [{ cursor = "x", screen = "y", attention = "b" }]',
            "exactly",
        ),
        (
            '[[agents]]\nname = "a"\nrules = [{ cursor = "(", attention = "b" }]',
            "not a regular expression",
        ),
    ],
)
def test_a_broken_rules_file_names_itself_and_what_to_do(text: str, says: str) -> None:
    with pytest.raises(UsageError, match=says) as raised:
        Recognisers.parse(text, "mine.toml")
    assert str(raised.value).startswith("mine.toml") and "—" in str(raised.value)


def test_a_broken_user_file_is_reported_and_the_built_in_rules_still_work(tmp_path: Path) -> None:
    (tmp_path / "agents.toml").write_text("[[agents]\n")
    rules, problems = load_recognisers(tmp_path)
    assert len(problems) == 1 and str(tmp_path / "agents.toml") in str(problems[0])
    assert rules.notification("Claude is waiting for your input") == "waiting for input"
