"""``observer``: the native ``observer.v1`` client session, written with the server.

The session lives in :mod:`observer.protocol.session`; until that module is present in a build,
asking for it is a clear error.
"""

from __future__ import annotations

import importlib

from observer.errors import UsageError
from observer.protocol.adapter import ClientSession
from observer.protocol.events import Mode


def native_session(*, mode: Mode, identifier: str, since: int | None) -> ClientSession:
    """A ``NativeClientSession`` for one connection."""
    try:
        module = importlib.import_module("observer.protocol.session")
    except ImportError:
        raise UsageError(
            "this build has no observer.v1 client yet — use --protocol raw, ttyd or jupyter"
        ) from None
    session: ClientSession = module.NativeClientSession(since=since, control=mode == "control")
    return session
