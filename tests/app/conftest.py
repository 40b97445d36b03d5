"""Helpers for the app's Pilot tests."""

from __future__ import annotations

from collections.abc import Sequence

from observer.app.source import ConnectionChanged, ScriptedSource, SourceEvent
from observer.protocol.events import OutputReceived, SessionStarted


def greeting(
    identifier: str = "agent-1", cols: int = 60, rows: int = 12
) -> list[tuple[float, SourceEvent]]:
    return [
        (0.0, ConnectionChanged("connected")),
        (0.0, SessionStarted(identifier, "watch", cols, rows, 0, "none", 1, "")),
    ]


def scripted(
    output: Sequence[bytes] = (), identifier: str = "agent-1", cols: int = 60, rows: int = 12
) -> ScriptedSource:
    steps = greeting(identifier, cols, rows)
    steps += [(0.0, OutputReceived(chunk, 0)) for chunk in output]
    return ScriptedSource(steps, label=f"ws://127.0.0.1:9/ · {identifier}")
