"""The socket of a client that asked for another protocol than ``observer.v1``.

The client's queue and writer are every client's (:class:`~observer.server.clients.Client`:
bounded, dropped for a snapshot when it lags); only what reaches the wire differs. This socket
takes no prebuilt frames (:attr:`FrameSocket.direct` is off, so every message comes through
:meth:`TranslatingSocket.send`), hands each message to the client's
:class:`~observer.server.stream_translator.StreamTranslator` and sends what that gives. After the
program's exit it closes the connection: a raw stream's end is its exit, and asciinema-player
takes a normal close (1000) after the exit event as the end of the stream, not a drop to
reconnect after.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from websockets.asyncio.server import ServerConnection

from observer.protocol import frames
from observer.protocol.screen_frames import Notified
from observer.server.stream_translator import StreamTranslator
from observer.server.websocket_adapter import FrameSocket, Message

Clock = Callable[[], float]
EXITED = 1000
"""Close code after the program's exit: a normal closure (RFC 6455 section 7.4.1)."""


class Noticed(str):
    """What the agent sent to be noticed, queued in stream order like a message (its text is
    empty: it costs nothing against the client's queue limit) and told by the translator."""

    events: tuple[Notified, ...]

    def __new__(cls, events: Sequence[Notified]) -> Noticed:
        notice = super().__new__(cls, "")
        notice.events = tuple(events)
        return notice


class TranslatingSocket(FrameSocket):
    """A websockets connection that is sent ``translator``'s messages for each native one."""

    def __init__(self, connection: ServerConnection, translator: StreamTranslator) -> None:
        super().__init__(connection)
        self.direct = False
        self.translator = translator

    async def send(self, message: Message) -> None:
        """Send what ``message`` becomes; close after the stream's last message."""
        translator = self.translator
        if isinstance(message, Noticed):
            out = translator.notified(message.events)
        else:
            out = translator.translate(message)
        for item in out:
            await self.connection.send(item)
        if translator.ended:
            await self.connection.close(EXITED, "the program exited")


def client_socket(
    connection: ServerConnection, stream: str, clock: Clock, wall: Clock
) -> FrameSocket:
    """The socket for a client of ``stream``: ``observer.v1`` takes prebuilt frames, any other
    stream a translator (its times from ``clock``, its header's start from ``wall``)."""
    if stream == frames.SUBPROTOCOL:
        return FrameSocket(connection)
    return TranslatingSocket(connection, StreamTranslator(stream, clock, wall))
