"""The narrow interface between the app and a connection: :class:`SessionSource`.

A source yields the protocol's events (:mod:`observer.protocol.events`) plus two of its own about
the connection (:class:`ConnectionChanged`, :class:`LatencyMeasured`), and accepts input and control
requests. The live transport, a recording being replayed and the scripted sessions used for
screenshots all plug in here; the app never sees a wire format.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from observer.protocol.events import (
    Capabilities,
    ControlChanged,
    ErrorReported,
    Event,
)

ConnectionState = Literal["connecting", "connected", "reconnecting", "closed"]


@dataclass(frozen=True, slots=True)
class ConnectionChanged:
    """The connection went up, down, or will be retried in ``retry_in`` seconds."""

    state: ConnectionState
    retry_in: float | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class LatencyMeasured:
    """A round trip to the endpoint took ``seconds``."""

    seconds: float


SourceEvent = Event | ConnectionChanged | LatencyMeasured


class SessionSource(Protocol):
    """One remote terminal as the app sees it."""

    label: str
    """Endpoint and identifier, for the status bar (plain text, shown as text)."""
    recording: str | None
    """Path of the file this session is being recorded to, if any."""

    @property
    def capabilities(self) -> Capabilities:
        """What the peer supports."""
        ...

    def events(self) -> AsyncIterator[SourceEvent]:
        """Everything that happens, in order, until the session ends for good."""
        ...

    async def send_input(self, data: bytes) -> None:
        """Keyboard input (sent only while this client holds control)."""
        ...

    async def request_control(self) -> None:
        """Ask for the keyboard; the answer arrives as :class:`ControlChanged`."""
        ...

    async def release_control(self) -> None:
        """Hand the keyboard back."""
        ...

    async def request_resync(self) -> bool:
        """Ask for a fresh snapshot; False if the peer cannot send one."""
        ...

    async def close(self) -> None:
        """Stop: close the connection, flush the recording."""
        ...


@dataclass
class ScriptedSource:
    """A session played from a list of ``(delay, event)`` steps, with no network.

    Used to draw the app for screenshots and snapshot tests from fixed, bundled sessions. It answers
    control requests the way an ``observer.v1`` server does (granted unless ``holder_other``) and
    keeps every byte of input it was given in ``sent``, so a test can also check the app's side.
    """

    steps: Sequence[tuple[float, SourceEvent]]
    label: str = "scripted session"
    capabilities: Capabilities = field(
        default_factory=lambda: Capabilities(
            snapshot=True, resume=False, control=True, resize=False
        )
    )
    recording: str | None = None
    holder_other: bool = False
    hold_open: bool = True
    sent: list[bytes] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    drained: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once every step has been taken in by the app."""
    _pending: asyncio.Queue[SourceEvent] = field(default_factory=asyncio.Queue)
    _holder: str = "none"

    async def events(self) -> AsyncIterator[SourceEvent]:
        """Yield the steps after their delays, interleaved with answers to requests."""
        for delay, event in self.steps:
            if delay > 0:
                await asyncio.sleep(delay)
            while not self._pending.empty():
                yield self._pending.get_nowait()
            yield event
        self.drained.set()
        while self.hold_open:
            yield await self._pending.get()
        while not self._pending.empty():
            yield self._pending.get_nowait()

    async def send_input(self, data: bytes) -> None:
        """Keep input only while holding control, as the server would."""
        if self._holder == "you":
            self.sent.append(data)

    async def request_control(self) -> None:
        """Grant control unless someone else holds it."""
        self.requests.append("take")
        if self.holder_other:
            await self._pending.put(ErrorReported("control_held", "another client holds control"))
            return
        self._holder = "you"
        await self._pending.put(ControlChanged("you"))

    async def release_control(self) -> None:
        """Return to watching."""
        self.requests.append("release")
        self._holder = "none"
        await self._pending.put(ControlChanged("none"))

    async def request_resync(self) -> bool:
        """Scripted sessions have no backlog to skip."""
        self.requests.append("resync")
        return False

    async def close(self) -> None:
        """Stop yielding."""
        self.hold_open = False
        await self._pending.put(ConnectionChanged("closed"))
