"""Prompt recognisers: what an agent's screen or notification says about whether it needs someone.

The rules are data (``observer/data/agents.toml``, and the user's own ``agents.toml`` in the
config directory, tried first); this module parses their text and matches them, and reads no
file. Three kinds of rule, each a case-insensitive regular expression and an ``attention``:

- ``notification``: searched in the text of an agent's own desktop notification;
- ``screen``: searched in the screen's rows from the cursor's row up to :data:`SCREEN_ROWS`
  rows above it;
- ``cursor``: searched in the cursor's row before the cursor, trailing blanks removed.

The first rule that matches wins; a rule whose ``attention`` is :data:`NOT_WAITING` says the
screen asks nobody (a shell at its prompt waits for its own user, and would otherwise alert
after every command). The session core asks :meth:`Recognisers.notification` when a
notification arrives and :meth:`Recognisers.waiting` when the agent has been quiet long enough.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from observer.errors import UsageError

Where = Literal["notification", "screen", "cursor"]
WHERE: tuple[Where, ...] = ("notification", "screen", "cursor")
SCREEN_ROWS = 12
"""Rows above the cursor's a ``screen`` rule looks at (a permission dialog's question)."""
NOTIFIED = "notification"
"""What a notification that no rule names is shown as."""
MAX_ATTENTION = 40
NOT_WAITING = "not waiting"
"""The ``attention`` of a rule that recognises a prompt as asking nobody (a shell's)."""


@dataclass(frozen=True, slots=True)
class Rule:
    """One recogniser: where it looks, what it looks for, and what a match means."""

    agent: str
    where: Where
    pattern: re.Pattern[str]
    attention: str


@dataclass(frozen=True, slots=True)
class Match:
    """A rule matched: its ``attention``, the text it matched in (a row, a notification) and
    where it looked (``screen`` or ``cursor``: how long the screen must stay quiet)."""

    attention: str
    text: str
    where: str = "cursor"


@dataclass(frozen=True, slots=True)
class Recognisers:
    """An ordered set of rules (empty: nothing is recognised)."""

    rules: tuple[Rule, ...] = ()

    def __add__(self, other: Recognisers) -> Recognisers:
        return Recognisers(self.rules + other.rules)

    def notification(self, text: str) -> str:
        """What a notification with ``text`` means (:data:`NOTIFIED` when no rule says)."""
        for rule in self.rules:
            if rule.where == "notification" and rule.pattern.search(text):
                return rule.attention
        return NOTIFIED

    def waiting(self, cursor_text: str, rows: Sequence[str]) -> Match | None:
        """The first ``screen`` or ``cursor`` rule that matches, if any.

        Args:
            cursor_text: the cursor's row before the cursor, trailing blanks removed.
            rows: the screen's rows from the cursor's row upwards (nearest first).
        """
        for rule in self.rules:
            found = _found(rule, cursor_text, rows)
            if found is not None:
                return (
                    None
                    if rule.attention == NOT_WAITING
                    else Match(rule.attention, found, rule.where)
                )
        return None

    @classmethod
    def parse(cls, text: str, source: str) -> Recognisers:
        """Rules from the TOML ``text`` of ``source`` (a file's name, for error messages).

        Raises:
            UsageError: ``observer: <source>: <what is wrong> — <what to do>``.
        """
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise UsageError(f"{source} is not valid TOML ({error})", "fix or remove it") from None
        agents = data.get("agents", [])
        if not isinstance(agents, list):
            raise UsageError(f"{source}: agents must be a list of [[agents]] tables")
        return cls(tuple(rule for agent in agents for rule in _agent_rules(agent, source)))


def _found(rule: Rule, cursor_text: str, rows: Sequence[str]) -> str | None:
    """The text a ``cursor`` or ``screen`` rule matches in, stripped, or None."""
    if rule.where == "cursor" and rule.pattern.search(cursor_text):
        return cursor_text.strip()
    if rule.where == "screen":
        for row in rows[: SCREEN_ROWS + 1]:
            if rule.pattern.search(row):
                return row.strip()
    return None


def _agent_rules(agent: object, source: str) -> list[Rule]:
    if not isinstance(agent, Mapping) or not isinstance(agent.get("name"), str):
        raise UsageError(f"{source}: each [[agents]] needs a name", 'add name = "..."')
    name = agent["name"]
    rules = agent.get("rules", [])
    if not isinstance(rules, list):
        raise UsageError(f"{source}: {name}: rules must be a list of {{...}} tables")
    return [_rule(name, rule, source) for rule in rules]


def _rule(agent: str, rule: object, source: str) -> Rule:
    where = "one of notification, screen or cursor"
    if not isinstance(rule, Mapping):
        raise UsageError(f"{source}: {agent}: a rule must be a table with {where}")
    keys = [key for key in WHERE if key in rule]
    attention = rule.get("attention")
    if len(keys) != 1 or not isinstance(attention, str) or not attention.strip():
        raise UsageError(
            f"{source}: {agent}: each rule needs exactly {where}, and an attention",
            'e.g. { cursor = "> $", attention = "waiting for input" }',
        )
    expression = rule[keys[0]]
    try:
        pattern = re.compile(str(expression), re.IGNORECASE)
    except re.error as error:
        raise UsageError(
            f"{source}: {agent}: {expression!r} is not a regular expression ({error})", "fix it"
        ) from None
    return Rule(agent, keys[0], pattern, attention.strip()[:MAX_ATTENTION])
