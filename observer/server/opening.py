"""Whether an admitted request may open: the token's scope, the session, the server's limits.

:func:`observer.server.admission.admit` decides from the request alone (token, headers,
query); what is left depends on the server's state at that moment: which sessions exist, how
many connections each token holds, how fast it opens them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from http import HTTPStatus

from observer.auth.tokens import Credential
from observer.server.admission import Admission
from observer.server.limits import ConnectionLimits, NewConnections

UNKNOWN_IDENTIFIER = "Unknown identifier"


def token_key(credential: Credential | None) -> str | None:
    """What the limits count a connection under: its token (``None``: no authentication)."""
    return credential.key if credential is not None else None


@dataclass
class Opening:
    """The server's rules for opening a connection once its request is admitted.

    Args:
        limits: connections held per token and in all.
        arrivals: how fast each token opens connections.
        create_on_connect: an unknown identifier starts a session (for a control token).
        max_sessions: sessions ``create_on_connect`` may start.
    """

    limits: ConnectionLimits
    arrivals: NewConnections
    create_on_connect: bool
    max_sessions: int

    def refusal(
        self, decision: Admission, sessions: Mapping[str, object]
    ) -> tuple[HTTPStatus, str] | None:
        """Why ``decision`` may still not open, given the server's ``sessions``; ``None`` if
        it may (an arrival is counted then)."""
        credential = decision.credential
        if credential is not None and not credential.admits(decision.identifier):
            # Word for word what an unknown identifier gets: a scoped token learns nothing
            # about the sessions beyond its scope, not even whether they exist.
            return HTTPStatus.NOT_FOUND, UNKNOWN_IDENTIFIER
        if decision.identifier not in sessions:
            if not self.create_on_connect:
                return HTTPStatus.NOT_FOUND, UNKNOWN_IDENTIFIER
            if decision.role != "control":
                return HTTPStatus.FORBIDDEN, (
                    "Unknown identifier; only a control token starts a session"
                )
            if len(sessions) >= self.max_sessions:
                return HTTPStatus.SERVICE_UNAVAILABLE, "Too many sessions"
        full = self.limits.refusal(token_key(credential), decision.role)
        if full is not None:
            return HTTPStatus.SERVICE_UNAVAILABLE, full
        if not self.arrivals.allow(token_key(credential)):
            return HTTPStatus.TOO_MANY_REQUESTS, (
                "Too many new connections for this token — wait a second, then retry"
            )
        return None
