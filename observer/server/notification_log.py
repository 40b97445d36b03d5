"""What the agent sent to be noticed, as the server keeps it for screen-sync.

A repaint of rows cannot carry an agent's OSC 9/99/777 notifications, bells or OSC 9;4 progress:
the model reports them, the session keeps the latest here, numbered, and each ``screen`` frame
lists those after the client's previous frame (:mod:`observer.server.screen_sync`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence

from observer.protocol.screen_frames import MAX_NOTIFICATIONS, Notified
from observer.terminal import BellRung, ProgressReported


class NotificationLog:
    """The latest of what the agent sent to be noticed, numbered: each client asks for what came
    after the last number it was sent."""

    def __init__(self) -> None:
        self.last = 0
        """The number of the newest entry (0: none yet)."""
        self.last_urgent = 0
        """The number of the newest notification or bell (what does not wait for a frame)."""
        self.on_urgent: Callable[[], None] | None = None
        """Called when a notification or a bell comes (the ticker wakes)."""
        self.listeners: list[Callable[[Sequence[Notified]], None]] = []
        """Called with each batch of events as it comes (a raw or asciinema stream's markers)."""
        self._entries: deque[tuple[int, Notified]] = deque(maxlen=MAX_NOTIFICATIONS)

    def add(self, events: Iterable[Notified]) -> None:
        """The model's notification events after a feed (a run of bells is kept as one)."""
        events = tuple(events)
        for listener in self.listeners:
            listener(events)
        for event in events:
            entries = self._entries
            if isinstance(event, BellRung) and entries and isinstance(entries[-1][1], BellRung):
                entries.pop()
            self.last += 1
            self._entries.append((self.last, event))
            if not isinstance(event, ProgressReported):
                self.last_urgent = self.last
        if self.last_urgent == self.last and self.on_urgent is not None:
            self.on_urgent()

    def since(self, number: int) -> tuple[Notified, ...]:
        """The entries after ``number``, oldest first (at most the newest kept)."""
        if number >= self.last:
            return ()
        return tuple(event for n, event in self._entries if n > number)
