"""Who may type: the watch / requesting / asking / control / asked / released mode table.

The client keeps one :class:`ControlMode` per connection and the server keeps one per connected
client; both move it with :func:`next_mode` and ask :func:`may_send_input` before any keyboard byte
or resize goes to the PTY. Read-only is therefore enforced twice by the same table: a UI bug on the
client cannot send, and a modified client cannot get its input written by the server.

Rules (one row of ``TRANSITIONS`` each):

- Everybody starts in WATCH. Only CONTROL and ASKED (the holder, while somebody asks) may send
  input or resize; every other mode sends nothing.
- REQUEST (``take`` sent / received) moves WATCH or RELEASED to REQUESTING. Asking again while
  REQUESTING or CONTROL changes nothing.
- GRANTED (``control`` with ``holder: you``) moves WATCH, REQUESTING or RELEASED to CONTROL: a server
  may grant control at connect (``mode=control``) before any ``take``.
- DENIED (an ``error`` answering ``take``) moves REQUESTING back to WATCH.
- RELEASE (``release`` sent / received) moves CONTROL or REQUESTING to RELEASED: input stops at once,
  before the server confirms.
- LOST (``control`` with ``holder`` other or none) moves CONTROL and RELEASED to WATCH. While
  REQUESTING, another holder's name changes nothing: the answer to our ``take`` is still coming.
- ASK (``ask`` sent / received: the keyboard is held, so its holder is asked) moves WATCH or
  RELEASED to ASKING; asking again changes nothing. GRANTED (the holder said yes, or let go)
  moves ASKING to CONTROL; DENIED (the holder said no, or did not answer in time) moves it back
  to WATCH; RELEASE (the asker withdrew) moves it to RELEASED. Another holder's name changes
  nothing while ASKING: the answer is still coming.
- ASKED (somebody asks this holder) moves CONTROL to ASKED, where input still goes through: the
  holder keeps typing until they answer. ANSWERED (every request declined, withdrawn or timed
  out) moves ASKED back to CONTROL; LOST (handed over) moves it to WATCH; RELEASE to RELEASED.
- A pair missing from the table is a bug: :func:`next_mode` raises :class:`InvalidState` (as h11
  does). Where the pair comes from the network (a client's ``release`` while watching, a server's
  refusal nobody asked for), the caller asks :func:`allows` first and answers or ignores it
  explicitly.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from observer.errors import InvalidState


class ControlMode(Enum):
    """Where one connection stands on the way to and from holding the keyboard."""

    WATCH = "watch"
    REQUESTING = "requesting"
    CONTROL = "control"
    RELEASED = "released"
    ASKING = "asking"
    """Asked the holder for the keyboard; waiting for the answer."""
    ASKED = "asked"
    """Holds the keyboard while somebody asks for it."""


class ControlEvent(Enum):
    """What happened to one connection's claim on the keyboard."""

    REQUEST = "request"
    GRANTED = "granted"
    DENIED = "denied"
    RELEASE = "release"
    LOST = "lost"
    ASK = "ask"
    ASKED = "asked"
    ANSWERED = "answered"


W, Q, C, R = ControlMode.WATCH, ControlMode.REQUESTING, ControlMode.CONTROL, ControlMode.RELEASED
A, K = ControlMode.ASKING, ControlMode.ASKED
E = ControlEvent

TRANSITIONS: Final[dict[tuple[ControlMode, ControlEvent], ControlMode]] = {
    (W, E.REQUEST): Q,
    (R, E.REQUEST): Q,
    (Q, E.REQUEST): Q,
    (C, E.REQUEST): C,
    (W, E.GRANTED): C,
    (Q, E.GRANTED): C,
    (R, E.GRANTED): C,
    (C, E.GRANTED): C,
    (Q, E.DENIED): W,
    (C, E.RELEASE): R,
    (Q, E.RELEASE): R,
    (C, E.LOST): W,
    (R, E.LOST): W,
    (W, E.LOST): W,
    (Q, E.LOST): Q,
    (W, E.ASK): A,
    (R, E.ASK): A,
    (A, E.ASK): A,
    (A, E.GRANTED): C,
    (A, E.DENIED): W,
    (A, E.RELEASE): R,
    (A, E.LOST): A,
    (C, E.ASKED): K,
    (K, E.ASKED): K,
    (K, E.ANSWERED): C,
    (K, E.GRANTED): K,
    (K, E.REQUEST): K,
    (K, E.RELEASE): R,
    (K, E.LOST): W,
}


def allows(mode: ControlMode, event: ControlEvent) -> bool:
    """Whether the table has a row for ``event`` in ``mode``."""
    return (mode, event) in TRANSITIONS


def next_mode(mode: ControlMode, event: ControlEvent) -> ControlMode:
    """Return the mode after ``event``.

    Raises:
        InvalidState: the table has no such pair (a caller's bug: check :func:`allows` first for
            events that come from the network).
    """
    try:
        return TRANSITIONS[(mode, event)]
    except KeyError:
        raise InvalidState(f"no control transition for {event.value} in {mode.value}") from None


def may_send_input(mode: ControlMode) -> bool:
    """Whether keyboard input and resize requests may go to the PTY in ``mode``."""
    return mode is ControlMode.CONTROL or mode is ControlMode.ASKED
