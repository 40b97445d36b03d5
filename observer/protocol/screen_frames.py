"""Screen-sync frames of ``observer.v1``: the screen's state instead of the byte stream.

A client (a dashboard tile) sends ``view`` to choose what it gets: ``screen`` — the rows of the
server's own terminal model that changed, at most ``fps`` times a second — or ``stream``, the
output bytes (the default). A tile's cost is then bounded by its size and its frame rate,
whatever the agent prints (mosh's idea: synchronise state, not the byte stream).

Each ``screen`` frame carries the rows that changed since the previous one, each row as an ANSI
repaint of the whole row (SGR and text, trailing blanks left out), with the cursor, its
visibility and the title; ``full`` frames list every non-blank row and mean "clear the others".
``offset`` is the stream offset the server's model stood at. A repaint of rows cannot carry
what the agent sent to be noticed, so a frame also lists, when there were any, the agent's
desktop notifications (OSC 9/99/777), bells and progress reports (OSC 9;4) since the previous
frame. The full specification is in docs/protocol.md; :mod:`observer.protocol.screen_view` is the client's decoder.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from observer.protocol.fields import (
    BadFrame,
    boolean,
    choice,
    integer,
    integer_list,
    string,
)
from observer.terminal.notifications import BellRung, NotificationSent, ProgressReported
from observer.terminal.sanitize import sanitize_title

View = Literal["screen", "stream"]
VIEWS: Final = frozenset({"screen", "stream"})
MAX_FPS: Final = 30
DEFAULT_FPS: Final = 4
MAX_NOTIFICATIONS: Final = 16
"""Notifications one frame carries at most (the newest; bells come in floods)."""

NOTIFICATION_PROTOCOLS: Final = frozenset({"osc9", "osc99", "osc777"})

Notified = NotificationSent | BellRung | ProgressReported


@dataclass(frozen=True, slots=True)
class SetView:
    """Client to server: send me the screen's state (at most ``fps`` a second) or the stream."""

    view: View
    fps: int = DEFAULT_FPS


@dataclass(frozen=True, slots=True)
class Screen:
    """Server to client: the rows that changed, at the model's stream offset ``offset``."""

    offset: int
    cols: int
    rows: int
    full: bool
    lines: tuple[tuple[int, str], ...]
    """``(row, ANSI repaint of the row)`` for each changed row, rows counted from 0."""
    cursor: tuple[int, int]
    """Column and row of the cursor, from 0."""
    cursor_visible: bool
    title: str
    notifications: tuple[Notified, ...] = ()
    """What the agent sent to be noticed since the previous frame, oldest first."""


def set_view_fields(frame: SetView) -> dict[str, Any]:
    """The JSON fields of a ``view`` frame (``fps`` only for the screen)."""
    return {"view": frame.view, **({"fps": frame.fps} if frame.view == "screen" else {})}


def screen_fields(frame: Screen) -> dict[str, Any]:
    """The JSON fields of a ``screen`` frame."""
    return {
        "offset": frame.offset,
        "cols": frame.cols,
        "rows": frame.rows,
        "full": frame.full,
        "lines": [[row, text] for row, text in frame.lines],
        "cursor": list(frame.cursor),
        "cursor_visible": frame.cursor_visible,
        "title": frame.title,
        # Only when there are some: most frames have none.
        **(
            {"notifications": [_notified_fields(n) for n in frame.notifications]}
            if frame.notifications
            else {}
        ),
    }


def _notified_fields(event: Notified) -> dict[str, Any]:
    if isinstance(event, NotificationSent):
        return {
            "kind": "notification",
            "title": event.title,
            "body": event.body,
            "protocol": event.protocol,
        }
    if isinstance(event, ProgressReported):
        return {"kind": "progress", "state": event.state, "value": event.value}
    return {"kind": "bell"}


def _decode_notified(item: object) -> Notified:
    if not isinstance(item, dict):
        raise BadFrame("'screen' field 'notifications' must hold objects")
    item = {**item, "type": "screen"}  # the field helpers name the frame in their errors
    kind = choice(item, "kind", frozenset({"notification", "progress", "bell"}))
    if kind == "notification":
        title, body = string(item, "title"), string(item, "body")
        protocol = choice(item, "protocol", NOTIFICATION_PROTOCOLS)
        return NotificationSent(sanitize_title(title), sanitize_title(body), protocol)
    if kind == "progress":
        value = item.get("value")
        percent = None if value is None else integer(item, "value", 0, 100)
        return ProgressReported(integer(item, "state", 0, 4), percent)
    return BellRung()


def _decode_notifications(obj: dict[str, Any]) -> tuple[Notified, ...]:
    raw = obj.get("notifications", [])
    if not isinstance(raw, list) or len(raw) > MAX_NOTIFICATIONS:
        raise BadFrame(
            f"'screen' field 'notifications' must be a list of at most {MAX_NOTIFICATIONS}"
        )
    return tuple(_decode_notified(item) for item in raw)


def decode_set_view(obj: dict[str, Any]) -> SetView:
    """A ``view`` frame; ``fps`` defaults to :data:`DEFAULT_FPS`."""
    view = choice(obj, "view", VIEWS)
    fps = integer(obj, "fps", 1, MAX_FPS) if "fps" in obj else DEFAULT_FPS
    return SetView(view, fps)


def decode_screen(obj: dict[str, Any], largest: int) -> Screen:
    """A ``screen`` frame, every field checked (rows within the screen, no row twice; ``cols``
    and ``rows`` at most ``largest``)."""
    cols = integer(obj, "cols", 1, largest)
    rows = integer(obj, "rows", 1, largest)
    raw = obj.get("lines")
    if not isinstance(raw, list):
        raise BadFrame("'screen' field 'lines' must be a list")
    lines: dict[int, str] = {}
    for item in raw:
        if (
            not isinstance(item, list)
            or len(item) != 2
            or not isinstance(item[0], int)
            or isinstance(item[0], bool)
            or not 0 <= item[0] < rows
            or not isinstance(item[1], str)
            or item[0] in lines
        ):
            raise BadFrame("'screen' field 'lines' must hold [row, text] pairs within the screen")
        lines[item[0]] = item[1]
    x, y = integer_list(obj, "cursor", 2, largest)
    return Screen(
        offset=integer(obj, "offset"),
        cols=cols,
        rows=rows,
        full=boolean(obj, "full"),
        lines=tuple(lines.items()),
        cursor=(min(x, cols - 1), min(y, rows - 1)),
        cursor_visible=boolean(obj, "cursor_visible"),
        title=string(obj, "title"),
        notifications=_decode_notifications(obj),
    )
