"""The options every recording command shares (``watch --record``, ``record``, ``demo --record``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from observer.asciicast import CastFormat
    from observer.credentials.store import Secret
    from observer.runtime.config import Config


def add_record_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--record FILE`` (``record``: a :class:`Path`) and ``--overwrite``."""
    from observer.commands._options import add_overwrite_option

    parser.add_argument(
        "--record", type=Path, metavar="FILE", help="also record the session to an asciicast file"
    )
    add_overwrite_option(parser)


def add_redaction_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--no-redact`` (sets ``redact`` false; secrets are masked by default)."""
    parser.add_argument(
        "--no-redact",
        dest="redact",
        action="store_false",
        help="record the key shapes the agent prints in clear (default: masked with *; "
        "the session's own token always is)",
    )


def add_format_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--format v2|v3`` (``format`` is None when not given: the config decides)."""
    parser.add_argument(
        "--format",
        choices=("v2", "v3"),
        default=None,
        help="asciicast version to write (default v2, which asciinema 2 and 3, the web player, "
        "termtosvg and svg-term read; v3 for asciinema 3 and the web player; "
        "config: [app] record_format)",
    )


def record_format(args: argparse.Namespace, config: Config | None = None) -> CastFormat:
    """The asciicast version to write: ``--format``, else the config's ``record_format``."""
    if args.format is not None:
        return cast("CastFormat", args.format)
    from observer.runtime.config import load_config

    return (config or load_config()).record_format


def own_secrets(token: Secret | None) -> tuple[str, ...]:
    """What a recording of a session reached with ``token`` masks whatever the options say."""
    return (token.reveal(),) if token is not None else ()
