"""What a notify command is told: the question read from the screen, safe text, one run per wait."""

from __future__ import annotations

import json

from observer.app.recogniser_files import built_in_recognisers
from observer.client.notify import NotifyDebounce, NotifyRequest, Question, read_question
from observer.terminal import TerminalModel

DIALOG = (
    "working on it\r\n"
    "╭──────────────────────────────────────────────╮\r\n"
    "│ Bash command                                 │\r\n"
    "│                                              │\r\n"
    "│   rm -rf build && make test                  │\r\n"
    "│   Remove the build and run the tests         │\r\n"
    "│                                              │\r\n"
    "│ Do you want to proceed?                      │\r\n"
    "│ ❯ 1. Yes                                     │\r\n"
    "│   2. Yes, and don't ask again for rm         │\r\n"
    "│   3. No, and tell Claude what to do (esc)    │\r\n"
    "╰──────────────────────────────────────────────╯"
)


def model_showing(text: str) -> TerminalModel:
    model = TerminalModel(cols=60, rows=20)
    model.feed(text.encode())
    return model


def test_a_permission_dialog_is_read_as_its_question_command_and_options() -> None:
    question = read_question(model_showing(DIALOG), built_in_recognisers())
    assert question.line == "Do you want to proceed?"
    assert "rm -rf build && make test" in question.rows
    assert question.rows[0] == "working on it"  # top to bottom, borders and blanks gone
    assert question.options == (
        "1. Yes",
        "2. Yes, and don't ask again for rm",
        "3. No, and tell Claude what to do (esc)",
    )


def test_a_screen_no_rule_matches_has_no_question_line_but_its_rows() -> None:
    question = read_question(model_showing("compiling 3/7"), built_in_recognisers())
    assert question.line == "" and question.rows == ("compiling 3/7",)


def request(text: str, question: Question | None = None) -> NotifyRequest:
    return NotifyRequest(
        "build", "build-1", "wss://h/", "notification", "needs permission", text,
        question or Question(), waited=12.34,
    )  # fmt: skip


def test_the_payload_and_the_environment_say_the_same_safe_text() -> None:
    hostile = "use Bash\x1b]52;c;aGk=\x07 \u202e$(touch x); `id` | rm *"
    sent = request(hostile, Question(hostile, (hostile,), ("1. Yes",)))
    data = json.loads(sent.payload())
    env = sent.environment()
    assert data["text"] == data["question"] == env["OBSERVER_NOTIFY_TEXT"]
    assert (
        "\x1b" not in data["text"] and "\u202e" not in data["text"] and "\x07" not in data["text"]
    )
    assert "$(touch x); `id` | rm *" in data["text"]  # shell syntax is kept, as data
    assert data["waited"] == 12.3 and env["OBSERVER_NOTIFY_WAITED"] == "12.3"
    assert env["OBSERVER_NOTIFY_OPTIONS"] == "1. Yes"
    assert env["OBSERVER_NOTIFY_TITLE"] == "observer: build needs permission"
    assert data["message"] == data["question"]  # the question first, else the agent's words
    assert all("\x00" not in value for value in env.values())


def test_one_run_per_wait_and_at_most_one_per_agent_in_the_debounce_time() -> None:
    debounce = NotifyDebounce(every=10.0)
    assert debounce.due("a", ("needs permission", 1.0), now=1.0)
    assert not debounce.due("a", ("needs permission", 1.0), now=30.0)  # the same wait
    assert debounce.due("b", ("waiting for input", 2.0), now=2.0)  # another agent
    assert not debounce.due("a", ("waiting for input", 5.0), now=5.0)  # too soon: later
    assert debounce.due("a", ("waiting for input", 5.0), now=11.0)  # still waiting: told
