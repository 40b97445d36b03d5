"""Reading the raw, asciicast and ALiS live streams as asciinema-player 3.18 reads them.

Each reader follows the player's own handler (``src/driver/websocket/{raw,asciicast-v2,
asciicast-v3,alis}.js``): what it takes from the first message, how it reads times and sizes,
what it throws on. A test reads the server's messages with these and checks what a viewer sees
(:func:`screen`), so a stream that would break the player breaks the test.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from observer.terminal import TerminalModel

RESIZE_SEQUENCE = re.compile(rb"\x1b\[8;(\d+);(\d+)t")


@dataclass
class Played:
    """A stream as the player saw it: the reset (size, init text, header) and the events."""

    cols: int
    rows: int
    init: str = ""
    header: dict[str, Any] = field(default_factory=dict)
    events: list[tuple[float, str, Any]] = field(default_factory=list)
    """``(milliseconds, code, data)``: ``o`` text, ``r`` (cols, rows), ``m`` label, ``x`` status."""
    resets: int = 1
    ended: bool = False
    """An ALiS end-of-transmission frame came."""

    def codes(self) -> list[str]:
        return [code for _, code, _ in self.events]

    def markers(self) -> list[str]:
        return [str(data) for _, code, data in self.events if code == "m"]


def read_raw(messages: list[bytes]) -> Played:
    """``raw``: the first message is the init (its size from ``CSI 8;rows;cols t``, else 80x24)."""
    assert all(isinstance(m, bytes) for m in messages), "raw messages are binary"
    first = messages[0]
    found = RESIZE_SEQUENCE.search(first)
    cols, rows = (int(found[2]), int(found[1])) if found else (80, 24)
    rest = b"".join(messages[1:]).decode("utf-8", "replace")
    return Played(cols, rows, first.decode("utf-8", "replace"), events=[(0.0, "o", rest)])


def read_cast(messages: list[str], version: int) -> Played:
    """``v2.asciicast`` (absolute times) or ``v3.asciicast`` (intervals), one JSON per message."""
    assert all(isinstance(m, str) for m in messages), "asciicast messages are text"
    header = json.loads(messages[0])
    assert header["version"] == version, f"not an asciicast v{version} stream"
    size = header["term"] if version == 3 else {"cols": header["width"], "rows": header["height"]}
    played = Played(size["cols"], size["rows"], header=header)
    now = 0.0
    for message in messages[1:]:
        time, code, data = json.loads(message)
        now = now + time * 1000 if version == 3 else time * 1000
        if code == "r":
            cols, rows = data.split("x")
            data = (int(cols), int(rows))
        played.events.append((now, code, data))
    return played


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def byte(self) -> int:
        value = self.data[self.at]
        self.at += 1
        return value

    def number(self) -> int:
        value, shift = 0, 0
        while True:
            byte = self.byte()
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value

    def text(self) -> str:
        size = self.number()
        chunk = self.data[self.at : self.at + size]
        self.at += size
        return chunk.decode("utf-8")  # the player's TextDecoder, without "stream": whole characters


def read_alis(messages: list[bytes]) -> Played:
    """``v1.alis``: the magic, a reset (0x01), then ``o``/``r``/``m``/``x`` frames, EOT (0x04)."""
    assert all(isinstance(m, bytes) for m in messages), "ALiS messages are binary"
    assert messages[0] == b"ALiS\x01", "not an ALiS v1 live stream"
    played: Played | None = None
    micros = 0
    for message in messages[1:]:
        reader = _Reader(message)
        kind = reader.byte()
        if played is None:
            assert kind == 0x01, f"expected reset (0x01) frame, got {kind}"
        if kind == 0x01:
            reader.number()  # last id
            micros = reader.number()
            cols, rows = reader.number(), reader.number()
            assert reader.byte() == 0, "no theme"
            resets = 0 if played is None else played.resets
            played = Played(cols, rows, reader.text(), resets=resets + 1)
            continue
        assert played is not None
        if kind == 0x04:
            played.ended = True
            continue
        reader.number()  # id
        micros += reader.number()
        data: Any
        if kind in (0x6F, 0x69, 0x6D):
            data = reader.text()
        elif kind == 0x72:
            data = (reader.number(), reader.number())
        elif kind == 0x78:
            data = reader.number()
        else:
            raise AssertionError(f"unknown frame type {kind}")
        assert reader.at == len(message), "trailing bytes in a frame"
        played.events.append((micros / 1000, chr(kind), data))
    assert played is not None, "no reset frame"
    return played


def screen(played: Played) -> TerminalModel:
    """The terminal a viewer sees after the stream: init, output and resizes, in order."""
    model = TerminalModel(cols=played.cols, rows=played.rows, scrollback=0)
    model.feed(played.init.encode())
    for _, code, data in played.events:
        if code == "o":
            model.feed(data.encode())
        elif code == "r":
            model.resize(*data)
    return model


async def receive_until(
    ws: ClientConnection,
    messages: list[Any],
    condition: Callable[[list[Any]], bool],
    what: str,
    timeout: float = 10.0,
) -> None:
    """Receive into ``messages`` until ``condition(messages)`` holds (fail after ``timeout``)."""
    try:
        async with asyncio.timeout(timeout):
            while not condition(messages):
                messages.append(await ws.recv())
    except TimeoutError:
        raise AssertionError(f"timed out after {timeout} s waiting for {what}") from None


async def receive_all(
    ws: ClientConnection, messages: list[Any], timeout: float = 10.0
) -> int | None:
    """Receive into ``messages`` until the server closes; its close code."""
    with contextlib.suppress(ConnectionClosed):
        async with asyncio.timeout(timeout):
            while True:
                messages.append(await ws.recv())
    return ws.close_code
