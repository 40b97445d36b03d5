"""Whether an agent needs someone: its own notifications, a bell, a prompt, as session state.

The terminal model reports what the agent sent to be noticed
(:meth:`observer.terminal.TerminalModel.take_notifications`): desktop notifications (OSC 9,
OSC 99, OSC 777), bells and progress (OSC 9;4). :class:`AttentionTracker` keeps what they mean
for one session, and the session core derives :class:`Attention` from it at a given time:

- a notification asks at once, named by the recognisers (``needs permission``, ``waiting for
  input``, or ``notification``), with the agent's own words; it holds until this client types
  to the agent, the agent prints again :data:`RESUMED_AFTER` seconds after asking (it was
  answered elsewhere, or moved on), another notification replaces it, or the agent exits;
- otherwise, once the agent is ``waiting`` (:func:`observer.client.agent_state.agent_state`: a bell,
  or a recognised prompt, then silence), the prompt's rule names it (a bell alone: ``waiting for
  input``), since the moment it became so.

Progress is the last OSC 9;4 report (none once it reports state 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from observer.client.agent_state import WAIT_AFTER_BELL, AgentState, settle_time
from observer.client.recognisers import SCREEN_ROWS, Match, Recognisers
from observer.terminal import BellRung, NotificationSent, ProgressReported, TerminalModel

RESUMED_AFTER = 2.0
"""Output this long after a notification means the agent no longer waits for it."""
BELL_MARKER_EVERY = 10.0
"""Seconds at least between two ``notification: bell`` markers (bells come in floods)."""
WAITING = "waiting for input"

Notified = NotificationSent | BellRung | ProgressReported


@dataclass(frozen=True, slots=True)
class Attention:
    """Why an agent needs someone, and since when."""

    reason: str
    """``needs permission``, ``waiting for input``, ``needs an answer``, ``notification`` ..."""
    text: str
    """The agent's own words (a notification's text, the prompt's row); may be empty."""
    since: float
    kind: Literal["notification", "prompt", "bell"] = "notification"
    """How the agent came to wait: its own notification, a recognised prompt, a bell."""

    def __str__(self) -> str:
        return f"{self.reason}: {self.text}" if self.text else self.reason


def notification_text(event: NotificationSent) -> str:
    """A notification's title and body as one line of text."""
    parts = [part for part in (event.title, event.body) if part]
    return ": ".join(parts)


class AttentionTracker:
    """What one session's notifications mean (see the module docstring).

    Args:
        recognisers: the rules that name notifications and prompts.
    """

    def __init__(self, recognisers: Recognisers | None = None) -> None:
        self.recognisers = recognisers or Recognisers()
        self.asked: Attention | None = None
        """The notification the agent is waiting on, if any."""
        self.progress: ProgressReported | None = None
        self._bell_marked: float | None = None

    def notified(self, events: Sequence[Notified], now: float) -> list[str]:
        """Take the model's notification events; return the recording markers' texts."""
        markers: list[str] = []
        for event in events:
            if isinstance(event, NotificationSent):
                text = notification_text(event)
                self.asked = Attention(self.recognisers.notification(text), text, now)
                markers.append(text or self.asked.reason)
            elif isinstance(event, ProgressReported):
                self.progress = event if event.state != 0 else None
            elif self._bell_marked is None or now - self._bell_marked >= BELL_MARKER_EVERY:
                self._bell_marked = now
                markers.append("bell")
        return markers

    def output(self, now: float) -> bool:
        """Output arrived at ``now``; True when that ended a notification's wait."""
        if self.asked is not None and now - self.asked.since >= RESUMED_AFTER:
            self.asked = None
            return True
        return False

    def answered(self) -> None:
        """This client typed to the agent: whatever it asked is being answered."""
        self.asked = None

    def prompt(self, model: TerminalModel) -> Match | None:
        """The prompt rule the screen matches now, if any."""
        return self.recognisers.waiting(*screen_text(model))

    def current(
        self, state: AgentState, prompt: Match | None, last_output: float | None
    ) -> Attention | None:
        """What the agent needs now, given its state and the prompt its screen shows."""
        if state == "exited":
            return None
        if self.asked is not None:
            return self.asked
        if state != "waiting" or last_output is None:
            return None
        if prompt is not None:
            return Attention(
                prompt.attention, prompt.text, last_output + settle_time(prompt.where), "prompt"
            )
        return Attention(WAITING, "", last_output + WAIT_AFTER_BELL, "bell")  # then silence


def screen_text(model: TerminalModel) -> tuple[str, list[str]]:
    """The cursor's row before the cursor (trailing blanks removed), and the rows from the
    cursor's upwards, as the recognisers read them."""
    y = model.cursor_y
    row = model.line(y)
    cursor_text = "".join(cell.data for cell in row[: model.cursor_x]).rstrip()
    rows = ["".join(cell.data for cell in model.line(r)) for r in reversed(rows_read(y))]
    return cursor_text, rows


def rows_read(cursor_y: int) -> range:
    """The rows :func:`screen_text` reads: the cursor's and :data:`SCREEN_ROWS` above it."""
    return range(max(0, cursor_y - SCREEN_ROWS), cursor_y + 1)
