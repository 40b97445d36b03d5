"""The list of sessions a server holds, as ``GET /sessions`` answers it (JSON, no upgrade).

Any valid token may ask (a watch token too): it tells what there is to watch. The title is the
agent's text, sent as it is (JSON escapes it); whoever shows it sanitizes it first.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from observer.protocol import frames
from observer.server.terminal_session import TerminalSession


def session_entry(session: TerminalSession) -> dict[str, object]:
    """One session: identifier, size, title, watchers, holder, whether its program exited."""
    model = session.model
    return {
        "identifier": session.identifier,
        "cols": model.cols,
        "rows": model.rows,
        "title": model.title,
        "watchers": len(session.clients),
        "holder": "none" if session.arbiter.holder is None else "other",
        "exited": session.exited,
        "status": session.exit_status,
    }


def listing_json(sessions: Mapping[str, TerminalSession]) -> str:
    """The body of a ``GET /sessions`` answer, sessions in identifier order."""
    entries = [session_entry(sessions[name]) for name in sorted(sessions)]
    return json.dumps(
        {"api-version": frames.API_VERSION, "sessions": entries},
        ensure_ascii=True,
        separators=(",", ":"),
    )
