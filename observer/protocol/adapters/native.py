"""``observer``: the native ``observer.v1`` protocol (docs/protocol.md), client side.

What each frame means is :mod:`observer.protocol.native_events`'s. Decoding keeps the one piece
of state the wire format needs: the stream offset of the next output
byte, which ``hello`` and every ``snapshot`` set and every binary frame advances. Whether input may
be sent, and what a refusal or a grant means, is the client session core's business.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlencode

from observer.protocol import frames
from observer.protocol.adapter import Adapter, HandsOver, Message
from observer.protocol.events import Capabilities, Event, ProtocolViolation
from observer.protocol.native_events import event_of
from observer.protocol.people_frames import PEOPLE_FEATURE, Ask, Decline, Hand
from observer.protocol.screen_frames import DEFAULT_FPS, Screen, SetView, View


def query_params(
    identifier: str,
    *,
    control: bool = False,
    since: int | None = None,
    api_version: str = frames.API_VERSION,
) -> dict[str, str]:
    """The upgrade request's query: ``identifier``, ``api-version``, ``mode``, ``since`` and the
    optional frames this client understands (``features=echo,people``)."""
    params = {"identifier": identifier, "api-version": api_version}
    params["mode"] = "control" if control else "watch"
    if since is not None:
        params["since"] = str(since)
    params[frames.FEATURES_PARAMETER] = f"{frames.ECHO_FEATURE},{PEOPLE_FEATURE}"
    return params


def query(identifier: str, *, control: bool = False, since: int | None = None) -> str:
    """The request target for the upgrade: ``/?identifier=...&api-version=...&mode[&since]...``."""
    return "/?" + urlencode(query_params(identifier, control=control, since=since))


class NativeAdapter:
    """One connection to an ``observer serve`` endpoint (or the platform's own).

    Args:
        since: the offset asked for with ``since=`` (``None`` for a fresh join): a snapshot at
            another offset then means the missed bytes could not be replayed (a gap).
    """

    subprotocol: str | None = frames.SUBPROTOCOL
    capabilities = Capabilities(
        arbitration="server",
        snapshot=True,
        resume=True,
        resize=True,
        exit="frame",
        reconnect="resume",
        watchers=True,
        identifier=True,
        echo=True,
        screen=True,
        reports_size=True,
    )

    def __init__(self, *, since: int | None = None) -> None:
        self._offset: int | None = since
        self._greeted = False

    @property
    def offset(self) -> int | None:
        """Stream offset of the next output byte (``None`` before ``hello``)."""
        return self._offset

    def opening_messages(self) -> list[Message]:
        """Nothing: everything the server needs is in the request."""
        return []

    def receive(self, message: Message) -> list[Event]:
        """Feed one received message; return what it means (:func:`event_of`). Never raises."""
        frame = frames.decode_server_frame(message)
        events: list[Event] = []
        if not self._greeted and not isinstance(frame, frames.Hello | frames.Malformed):
            events.append(ProtocolViolation("the server did not start with 'hello'"))
        events.append(event_of(frame, self._offset))
        self._advance(frame)
        return events

    def _advance(self, frame: frames.ServerFrame | frames.Malformed) -> None:
        """Move the stream offset past ``frame``."""
        match frame:
            case frames.Hello(offset=offset):
                # hello.offset is where the stream that follows begins (the snapshot's offset,
                # or the replayed since=). A resume keeps its own offset so that a snapshot
                # instead shows a gap.
                self._greeted = True
                if self._offset is None:
                    self._offset = offset
            case frames.Output(data):
                self._offset = (self._offset or 0) + len(data)
            case frames.Snapshot(offset=offset) | Screen(offset=offset):
                # The screen view stands at the model's offset: the snapshot there after
                # switching back to the stream is no gap.
                self._offset = offset

    def encode_input(self, data: bytes) -> list[Message]:
        """Keyboard input as one binary frame."""
        return [bytes(data)] if data else []

    def encode_resize(self, cols: int, rows: int) -> list[Message]:
        """``resize``; nothing for a size outside 1..1000."""
        if not (1 <= cols <= frames.MAX_DIMENSION and 1 <= rows <= frames.MAX_DIMENSION):
            return []
        return [frames.encode(frames.Resize(cols, rows))]

    def encode_take(self) -> list[Message]:
        """``take``."""
        return [frames.encode(frames.Take())]

    def encode_release(self) -> list[Message]:
        """``release``."""
        return [frames.encode(frames.Release())]

    def encode_ask(self) -> list[Message]:
        """``ask``: ask the holder for the keyboard."""
        return [frames.encode(Ask())]

    def encode_hand(self, to: int) -> list[Message]:
        """``hand``: give the keyboard (held by us) to connection ``to``."""
        return [frames.encode(Hand(to))]

    def encode_decline(self, to: int) -> list[Message]:
        """``decline``: keep the keyboard; connection ``to`` is told no."""
        return [frames.encode(Decline(to))]

    def encode_resync(self) -> list[Message]:
        """``resync``: the output backlog before the snapshot will be skipped."""
        return [frames.encode(frames.Resync())]

    def encode_view(self, view: View, fps: int = DEFAULT_FPS) -> list[Message]:
        """``view``: the screen's state (``screen``, at most ``fps`` frames a second: a tile) or
        the byte stream (``stream``: a snapshot at the view's offset, then the bytes)."""
        return [frames.encode(SetView(view, fps))]


if TYPE_CHECKING:  # mypy proves that the native adapter is an Adapter

    def _is_an_adapter(adapter: NativeAdapter) -> Adapter:
        return adapter

    def _hands_over(adapter: NativeAdapter) -> HandsOver:
        return adapter
