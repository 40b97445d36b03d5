"""The interface every peer adapter implements: the wire format of one peer, and nothing else.

An adapter is fed WebSocket messages (``str`` for text frames, ``bytes`` for binary) and returns
:mod:`observer.protocol.events`; asked to encode input, a resize or a control request, it returns
the messages to write. It holds no control state and decides nothing: whether a message may be
sent at all (watch mode sends nothing) is decided once, by the client session core's mode table
(:mod:`observer.client.watched`), before any ``encode_*`` is called. It never touches a socket, a
clock or an event loop.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from observer.protocol.events import Capabilities, Event
from observer.protocol.screen_frames import View

Message = str | bytes
"""One WebSocket message: ``str`` is sent as a text frame, ``bytes`` as a binary frame."""


class Adapter(Protocol):
    """One connection's codec for one peer protocol."""

    #: WebSocket subprotocol to offer (``None``: offer none).
    subprotocol: str | None
    capabilities: Capabilities

    def opening_messages(self) -> list[Message]:
        """Messages to send right after the upgrade (ttyd's JSON init; empty for most)."""
        ...

    def receive(self, message: Message) -> list[Event]:
        """Feed one received message; return what it means. Never raises on bad input."""
        ...

    def encode_input(self, data: bytes) -> list[Message]:
        """Keyboard input as the peer wants it."""
        ...

    def encode_resize(self, cols: int, rows: int) -> list[Message]:
        """A request to resize the remote PTY (empty where the peer has none)."""
        ...

    def encode_take(self) -> list[Message]:
        """A request for the keyboard (empty where the peer does no arbitration)."""
        ...

    def encode_release(self) -> list[Message]:
        """Handing the keyboard back (empty where the peer does no arbitration)."""
        ...

    def encode_resync(self) -> list[Message]:
        """A request for a fresh snapshot (empty where the peer cannot send one)."""
        ...

    def encode_view(self, view: View, fps: int) -> list[Message]:
        """Ask for the screen's state (``screen``, at most ``fps`` frames a second) or the byte
        stream (empty where the peer has only the stream: ``capabilities.screen`` is False)."""
        ...


@runtime_checkable
class HandsOver(Protocol):
    """An adapter whose peer moves the keyboard by asking (native ``observer.v1``: ``ask``,
    ``hand``, ``decline``); the others take and release only."""

    def encode_ask(self) -> list[Message]:
        """Ask the holder for the keyboard."""
        ...

    def encode_hand(self, to: int) -> list[Message]:
        """Give the keyboard (held by us) to connection ``to``."""
        ...

    def encode_decline(self, to: int) -> list[Message]:
        """Keep the keyboard; connection ``to`` is told no."""
        ...
