"""Agents' notifications: the sequences a program sends to be noticed, as small events.

Coding agents ask their terminal for a desktop notification when they wait for a permission or
for input (Claude Code sends one of these, or only a bell):

- ``OSC 9 ; text`` (iTerm2): a notification with a body. ConEmu uses ``OSC 9`` too, with a
  number first (``9;1;`` .. ``9;12``): those are not notifications, and ``OSC 9 ; 4 ; state ;
  value`` is ConEmu's progress report (state 0 none, 1 running, 2 error, 3 indeterminate,
  4 paused; value 0-100), as Windows Terminal and Ghostty read it;
- ``OSC 777 ; notify ; title ; body`` (rxvt, VTE, Ghostty);
- ``OSC 99 ; metadata ; payload`` (kitty's desktop notifications): ``key=value`` pairs joined
  by ``:``, among them ``i`` (identifier), ``p`` (what the payload is: ``title``, the default,
  or ``body``), ``d`` (``0``: more parts follow under the same identifier), ``e`` (``1``: the
  payload is base64) and ``u`` (urgency 0-2). Parts are put together until one says it is
  done;
- BEL.

Texts are agent output: they are made safe with :func:`observer.terminal.sanitize.sanitize_title`
(which also bounds them). The events wait in a bounded queue until taken.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections import OrderedDict, deque
from dataclasses import dataclass

from observer.terminal.sanitize import sanitize_title

#: Events kept until taken; beyond this the oldest go (a bell flood cannot grow memory).
MAX_EVENTS = 256
#: kitty notifications being put together at once, and the text kept for each.
MAX_PARTIAL, MAX_PARTIAL_TEXT = 16, 4096

_CONEMU = re.compile(r"(?:1[0-2]?|[2-9])(?:;|$)")  # ConEmu's OSC 9 sub-commands
_PROGRESS = re.compile(r"4;([0-4])(?:;(\d{0,9}))?")


@dataclass(frozen=True, slots=True)
class NotificationSent:
    """A program asked for a desktop notification.

    Attributes:
        title: its title ("" if the sequence has none).
        body: its text.
        protocol: the sequence: ``"osc9"``, ``"osc99"`` or ``"osc777"``.
        identifier: kitty's ``i`` ("" otherwise or if absent).
        urgency: kitty's ``u`` (0 low, 1 normal, 2 critical), ``None`` if not given.
    """

    title: str
    body: str
    protocol: str
    identifier: str = ""
    urgency: int | None = None


@dataclass(frozen=True, slots=True)
class BellRung:
    """A BEL."""


@dataclass(frozen=True, slots=True)
class ProgressReported:
    """ConEmu's OSC 9;4 progress report.

    Attributes:
        state: 0 none (the progress ends), 1 running, 2 error, 3 indeterminate, 4 paused.
        value: percent done, 0-100, or ``None`` when the sequence gives none.
    """

    state: int
    value: int | None


Event = NotificationSent | BellRung | ProgressReported
_BELL = BellRung()  # all bells are alike: a flood of them allocates nothing
#: A kitty notification being put together: (title, body, urgency).
Partial = tuple[str, str, int | None]


class Notifications:
    """The notification sequences a screen met, in order, until taken."""

    def __init__(self) -> None:
        self.events: deque[Event] = deque(maxlen=MAX_EVENTS)
        self.partial: OrderedDict[str, Partial] = OrderedDict()

    def pending_parts(self) -> str:
        """The kitty notifications still being put together, as the OSC 99 parts (``d=0``)
        that put them together again in a fresh model (see :mod:`.continuation`)."""
        parts = []
        for identifier, (title, body, urgency) in self.partial.items():
            meta = f"i={identifier}:d=0:e=1" + (f":u={urgency}" if urgency is not None else "")
            for kind, text in (("title", title), ("body", body)):
                encoded = base64.b64encode(text.encode("utf-8", "surrogatepass")).decode("ascii")
                parts.append(f"\x1b]99;{meta}:p={kind};{encoded}\x1b\\")
        return "".join(parts)

    def take(self) -> list[Event]:
        """The events since the last call, oldest first; the queue is then empty."""
        events = list(self.events)
        self.events.clear()
        return events

    def bell(self) -> None:
        """BEL."""
        self.events.append(_BELL)

    def osc(self, code: str, value: str) -> None:
        """An OSC ended (``code`` is its number, ``value`` what follows the first ``;``)."""
        if code == "9":
            self._osc9(value)
        elif code == "777":
            kind, _, rest = value.partition(";")
            if kind == "notify":
                title, _, body = rest.partition(";")
                self._sent(title, body, "osc777")
        elif code == "99":
            self._osc99(value)

    def _sent(
        self, title: str, body: str, protocol: str, identifier: str = "", urgency: int | None = None
    ) -> None:
        self.events.append(
            NotificationSent(
                sanitize_title(title),
                sanitize_title(body),
                protocol,
                sanitize_title(identifier),
                urgency,
            )
        )

    def _osc9(self, value: str) -> None:
        if not _CONEMU.match(value):
            self._sent("", value, "osc9")  # iTerm2
            return
        progress = _PROGRESS.fullmatch(value)
        if progress is not None:  # the other ConEmu commands are not for observer
            state, percent = progress.groups()
            amount = min(int(percent), 100) if percent else None
            self.events.append(ProgressReported(int(state), amount))

    def _osc99(self, value: str) -> None:
        metadata, _, payload = value.partition(";")
        keys = dict(pair.partition("=")[::2] for pair in metadata.split(":") if "=" in pair)
        kind = keys.get("p", "title")
        if kind not in ("title", "body"):
            return  # close, alive, icon, buttons, queries: nothing to show
        if keys.get("e") == "1":
            try:
                payload = base64.b64decode(payload, validate=True).decode("utf-8", "replace")
            except (binascii.Error, ValueError):
                return
        identifier = keys.get("i", "")
        urgency = {"0": 0, "1": 1, "2": 2}.get(keys.get("u", ""))
        title, body, earlier = self.partial.pop(identifier, ("", "", None))
        if kind == "title":
            title = (title + payload)[:MAX_PARTIAL_TEXT]
        else:
            body = (body + payload)[:MAX_PARTIAL_TEXT]
        urgency = urgency if urgency is not None else earlier
        if keys.get("d") == "0":  # more parts follow
            self.partial[identifier] = (title, body, urgency)
            while len(self.partial) > MAX_PARTIAL:
                self.partial.popitem(last=False)
            return
        self._sent(title, body, "osc99", identifier, urgency)
