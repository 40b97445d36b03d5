"""What a notify command is told when an agent starts waiting, and when it is told (pure).

The user's ``notify_command`` (config, or ``watch --notify-command``) runs when an agent starts
waiting for someone: its own notification (OSC 9/99/777), a recognised prompt, a bell then
silence, or its exit. It gets one JSON object on standard input (:meth:`NotifyRequest.payload`)
and the same facts as ``OBSERVER_NOTIFY_*`` environment variables
(:meth:`NotifyRequest.environment`); agent text is never put on its command line, so no shell
ever parses it (the runner, :mod:`observer.app.notify_command`, passes the user's command to
``sh -c`` as it is written in the config).

Every text field went through the one sanitizer (:func:`observer.terminal.sanitize.sanitize`):
no control character, no bidi control; shell metacharacters stay, as the data they are.

**The question read from the screen** (:func:`read_question`): the rows the recognisers read
(the cursor's row and those above it), borders taken off, blanks dropped, the row a recogniser
matched (``Do you want to proceed?``) and the numbered options of a dialog (``1. Yes``).

**Debounced per agent** (:class:`NotifyDebounce`): one run per new wait, and at most one per
agent every :data:`DEBOUNCE` seconds; a wait that starts within that time is told once it ends,
if it still stands.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Literal

from observer.client.attention import screen_text
from observer.client.recognisers import Recognisers
from observer.terminal import TerminalModel
from observer.terminal.sanitize import sanitize

Kind = Literal["notification", "prompt", "bell", "exit"]
DEBOUNCE = 10.0
"""Seconds at least between two runs of the notify command for one agent."""
MAX_FIELD = 500
"""Longest text field, in characters (a notification body, a row)."""
MAX_ROWS = 13
"""Most rows of the screen told (the cursor's and those the recognisers read above it)."""
ENV_PREFIX = "OBSERVER_NOTIFY_"
_BORDERS = "│┃║╭╮╰╯┌┐└┘├┤─━═|"
_OPTION = re.compile(r"^[\s❯›>●▶▸→*-]*(\d{1,2})[.)]\s+(\S.*)$")


@dataclass(frozen=True, slots=True)
class Question:
    """What the screen asks, as the recognisers read it.

    Attributes:
        line: The row a recogniser matched (empty when none did).
        rows: The rows read, top to bottom, borders and blanks taken off.
        options: A dialog's numbered choices, in order (``1. Yes``).
    """

    line: str = ""
    rows: tuple[str, ...] = ()
    options: tuple[str, ...] = ()


def _clean(text: str, limit: int = MAX_FIELD) -> str:
    return sanitize(text).strip()[:limit]


def read_question(model: TerminalModel, recognisers: Recognisers) -> Question:
    """The question the screen of ``model`` shows (see the module docstring)."""
    cursor_text, rows = screen_text(model)
    match = recognisers.waiting(cursor_text, rows)
    shown = [_clean(row.strip().strip(_BORDERS)) for row in reversed(rows[:MAX_ROWS])]
    shown = [row for row in shown if row]
    options = []
    for row in shown:
        found = _OPTION.match(row)
        if found is not None:
            options.append(f"{found[1]}. {found[2].strip()}")
    line = _clean(match.text.strip(_BORDERS)) if match is not None else ""
    return Question(line, tuple(shown), tuple(options))


@dataclass(frozen=True, slots=True)
class NotifyRequest:
    """One run of the notify command: who waits, why, with which words, for how long."""

    profile: str
    identifier: str
    endpoint: str
    kind: Kind
    attention: str
    """The recognisers' name for it (``needs permission``), or ``exited``."""
    text: str
    """The agent's own words: its notification, or the prompt's row."""
    question: Question = field(default_factory=Question)
    waited: float = 0.0
    """Seconds the agent has waited."""
    exit_status: int | None = None

    @property
    def title(self) -> str:
        """A one-line title: ``observer: build-1 needs permission``."""
        who = self.profile or self.identifier or self.endpoint
        return _clean(f"observer: {who} {self.attention}")

    @property
    def message(self) -> str:
        """A one-line message: the question read from the screen, else the agent's words."""
        return _clean(self.question.line or self.text or self.attention)

    def payload(self) -> bytes:
        """The JSON object written to the command's standard input (UTF-8, one line)."""
        data = {
            "profile": _clean(self.profile),
            "identifier": _clean(self.identifier),
            "endpoint": _clean(self.endpoint),
            "kind": self.kind,
            "attention": _clean(self.attention),
            "text": _clean(self.text),
            "question": _clean(self.question.line),
            "screen": [_clean(row) for row in self.question.rows],
            "options": [_clean(option) for option in self.question.options],
            "waited": round(self.waited, 1),
            "exit_status": self.exit_status,
            "title": self.title,
            "message": self.message,
        }
        return json.dumps(data, ensure_ascii=False).encode("utf-8") + b"\n"

    def environment(self) -> dict[str, str]:
        """The same facts as ``OBSERVER_NOTIFY_*`` variables (lists one item a line)."""
        data = json.loads(self.payload())
        env = {}
        for key, value in data.items():
            said = "\n".join(value) if isinstance(value, list) else value
            env[ENV_PREFIX + key.upper()] = "" if said is None else str(said)
        return env


class NotifyDebounce:
    """Decides which waits run the notify command (see the module docstring).

    Args:
        every: Seconds at least between two runs for one agent.
    """

    def __init__(self, every: float = DEBOUNCE) -> None:
        self.every = every
        self._told: dict[object, tuple[object, float]] = {}

    def due(self, agent: object, wait: object, now: float) -> bool:
        """Whether ``agent``'s ``wait`` (any value that names one wait) is to be told now;
        when it is, it counts as told."""
        told = self._told.get(agent)
        if told is not None and (told[0] == wait or now - told[1] < self.every):
            return False
        self._told[agent] = (wait, now)
        return True
