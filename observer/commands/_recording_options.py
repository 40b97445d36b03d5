"""The options every recording command shares (``watch --record``, ``record``, ``demo --record``)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from observer.credentials.store import Secret


def add_redaction_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--no-redact`` (sets ``redact`` false; secrets are masked by default)."""
    parser.add_argument(
        "--no-redact",
        dest="redact",
        action="store_false",
        help="record the key shapes the agent prints in clear (default: masked with *; "
        "the session's own token always is)",
    )


def own_secrets(token: Secret | None) -> tuple[str, ...]:
    """What a recording of a session reached with ``token`` masks whatever the options say."""
    return (token.reveal(),) if token is not None else ()
