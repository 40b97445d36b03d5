"""The interface every client-side protocol session implements (sans-I/O).

A session is fed WebSocket messages (``str`` for text frames, ``bytes`` for binary) and returns
:mod:`observer.protocol.events`; it is asked to send with ``send_*`` methods, which return the
messages to write. It never touches a socket, a clock or an event loop: the transport moves
messages, the tests drive it with literals.

Watch mode is enforced here, before any byte leaves: in watch mode ``send_input`` and
``send_resize`` return no message at all, for every adapter.
"""

from __future__ import annotations

from typing import Protocol

from observer.protocol.events import Capabilities, Event, Mode

Message = str | bytes
"""One WebSocket message: ``str`` is sent as a text frame, ``bytes`` as a binary frame."""


class ClientSession(Protocol):
    """A client's view of one remote terminal over one connection."""

    #: WebSocket subprotocol to offer (``None``: offer none).
    subprotocol: str | None
    capabilities: Capabilities

    @property
    def mode(self) -> Mode:
        """``watch`` or ``control``: whether this client may send input now."""
        ...

    def opening_messages(self) -> list[Message]:
        """Messages to send right after the upgrade (ttyd's JSON init; empty for most)."""
        ...

    def receive(self, message: Message) -> list[Event]:
        """Feed one received message; return what it means. Never raises on bad input."""
        ...

    def send_input(self, data: bytes) -> list[Message]:
        """Keyboard input; no message at all unless this client is in control."""
        ...

    def send_resize(self, cols: int, rows: int) -> list[Message]:
        """Ask the remote PTY to resize; no message at all unless in control."""
        ...

    def request_control(self) -> list[Message]:
        """Ask to take the keyboard (native: ``take``; adapters without arbitration switch locally)."""
        ...

    def release_control(self) -> list[Message]:
        """Hand the keyboard back and return to watch mode."""
        ...

    def request_resync(self) -> list[Message]:
        """Ask for a fresh snapshot (only where ``capabilities.snapshot``)."""
        ...
