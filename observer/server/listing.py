"""The list of sessions a server holds, as ``GET /sessions`` answers it (JSON, no upgrade).

Any valid token may ask (a watch token too): it tells what there is to watch; a token scoped to
some identifiers sees only those. The title is the agent's text, sent as it is (JSON escapes it);
whoever shows it sanitizes it first. Each session also names who is connected (the labels the
``people`` frame carries, already clean) and who holds the keyboard.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

from observer.protocol import frames
from observer.server.terminal_session import TerminalSession


def session_entry(session: TerminalSession) -> dict[str, object]:
    """One session: identifier, size, title, watchers, holder, whether its program exited, and
    who is connected (label, role, since, whether they hold the keyboard)."""
    model = session.model
    arbiter = session.arbiter
    people = [
        {
            "label": seat.label,
            "role": seat.role,
            "since": round(seat.since, 3),
            "holder": seat.id == arbiter.holder,
        }
        for seat in arbiter.seats.values()
    ]
    return {
        "identifier": session.identifier,
        "cols": model.cols,
        "rows": model.rows,
        "title": model.title,
        "watchers": len(session.clients),
        "holder": "none" if session.arbiter.holder is None else "other",
        "exited": session.exited,
        "status": session.exit_status,
        "people": people,
    }


def listing_json(
    sessions: Mapping[str, TerminalSession], admits: Callable[[str], bool] | None = None
) -> str:
    """The body of a ``GET /sessions`` answer, sessions in identifier order (only those
    ``admits`` says the token may see)."""
    names = sorted(name for name in sessions if admits is None or admits(name))
    entries = [session_entry(sessions[name]) for name in names]
    return json.dumps(
        {"api-version": frames.API_VERSION, "sessions": entries},
        ensure_ascii=True,
        separators=(",", ":"),
    )
