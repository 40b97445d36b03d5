"""``observer token``: issue, list and revoke the tokens ``observer serve`` accepts."""

from __future__ import annotations

import argparse
import datetime as dt
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from observer.commands._options import add_identifier_option, add_old_spelling

if TYPE_CHECKING:
    from observer.auth.token_file import TokenEntry

NAME = "token"
HELP = "issue, list and revoke tokens for `observer serve` (only digests are stored)"
DESCRIPTION = """\
`issue` creates a random bearer token, prints it once on stdout and appends only its SHA-256
digest (with a label, the time and an optional expiry) to the token file that
`observer serve --tokens FILE` reads. The token itself is stored nowhere: keep it in your
laptop's keyring (`observer auth login URL`). A `watch` token can only watch; a `control` token
can also take the keyboard. `--identifier` (repeatable) scopes a token to those sessions: it
opens and lists only them, and any other identifier is answered as one that does not exist.
`list` shows the file's tokens (never a token: there is none to
show); `revoke` removes one. A running server rereads the file within a second and closes the
revoked token's connections; its sessions and their programs go on.
"""
EPILOG = """\
examples:
  observer token issue control --tokens /etc/observer/tokens --label alice --expires 30d
  observer token issue watch --tokens tokens.txt --label ci > watch-token.txt
  observer token issue watch --tokens tokens.txt --label carol --identifier agent-1
  observer token list --tokens tokens.txt
  observer token revoke alice --tokens tokens.txt        # by label, or by digest prefix
"""

_DURATION = re.compile(r"(\d{1,6})([smhdw])")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def register(parser: argparse.ArgumentParser) -> None:
    """Add the ``issue``, ``list`` and ``revoke`` actions."""
    sub = parser.add_subparsers(dest="token_action", metavar="ACTION", required=True)

    def example(*lines: str) -> dict[str, Any]:
        return {
            "epilog": "example:\n" + "".join(f"  observer token {line}\n" for line in lines),
            "formatter_class": argparse.RawDescriptionHelpFormatter,
        }

    issue = sub.add_parser(
        "issue",
        help="create a token, print it once, store its digest",
        **example("issue control --tokens tokens --label alice --expires 30d > alice.token"),
    )
    issue.add_argument("role", choices=["watch", "control"], help="what the token allows")
    issue.add_argument("--label", metavar="NAME", help="a name to list and revoke it by")
    issue.add_argument(
        "--expires", metavar="DURATION", help="refuse it after this long: 90m, 12h, 7d, 4w"
    )
    add_identifier_option(
        issue,
        "admit only this session (repeat for more); default: every session",
        action="append",
        dest="identifiers",
    )
    listing = sub.add_parser(
        "list",
        help="label, role, created, expiry of every token",
        **example("list --tokens tokens"),
    )
    revoke = sub.add_parser(
        "revoke",
        help="remove a token (a running server drops it live)",
        **example("revoke alice --tokens tokens", "revoke sha256:3f2a9c --tokens tokens"),
    )
    revoke.add_argument("which", metavar="LABEL|PREFIX", help="its label or digest prefix")
    for action in (issue, listing, revoke):
        tokens = action.add_argument(
            "--tokens",
            dest="file",
            required=True,
            type=Path,
            metavar="FILE",
            help="the token file (`observer serve --tokens FILE` reads it)",
        )
        add_old_spelling(action, "--file", tokens)


def run(args: argparse.Namespace) -> int:
    """Run one ``token`` action; errors are raised as :class:`~observer.errors.UsageError`."""
    actions = {"issue": _issue, "list": _list, "revoke": _revoke}
    return actions[args.token_action](args)


def _issue(args: argparse.Namespace) -> int:
    from observer.auth.token_file import LABEL, TokenEntry, append_entry, read_entries
    from observer.auth.tokens import digest, new_token
    from observer.errors import UsageError

    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    expires = now + parse_duration(args.expires) if args.expires else None
    if args.label is not None:
        if not LABEL.fullmatch(args.label):
            raise UsageError(
                f"bad --label {args.label!r}", "use 1-64 letters, digits, '.', '_', '@' or '-'"
            )
        if args.file.exists() and any(e.label == args.label for e in read_entries(args.file)):
            raise UsageError(
                f"{args.file} already has a token labelled {args.label!r}",
                "pick another label, or revoke that token first",
            )
    scope = _scope(args.identifiers)
    token = new_token()
    entry = TokenEntry(args.role, digest(token), args.label, now, expires, scope)
    append_entry(args.file, entry)
    print(token, flush=True)
    return 0


def _scope(identifiers: list[str] | None) -> frozenset[str] | None:
    """The ``--identifier`` values as a token's scope (None: every session)."""
    from observer.errors import UsageError
    from observer.protocol.frames import IDENTIFIER

    if not identifiers:
        return None
    for identifier in identifiers:
        if not IDENTIFIER.fullmatch(identifier):
            raise UsageError(
                f"bad --identifier {identifier!r}",
                "use 1-64 letters, digits, '.', '_' or '-', not starting with punctuation",
            )
    return frozenset(identifiers)


def parse_duration(text: str) -> dt.timedelta:
    """``90m``, ``12h``, ``7d``, ``4w`` (one number and one unit) to a duration."""
    from observer.errors import UsageError

    match = _DURATION.fullmatch(text.strip())
    if match is None or int(match.group(1)) == 0:
        raise UsageError(f"bad --expires {text!r}", "use a number and s, m, h, d or w, e.g. 7d")
    return dt.timedelta(seconds=int(match.group(1)) * _UNITS[match.group(2)])


def _list(args: argparse.Namespace) -> int:
    from observer.auth.token_file import read_entries

    entries = read_entries(args.file)
    if not entries:
        print(f"{args.file} holds no token — add one with `observer token issue`", file=sys.stderr)
        return 0
    now = dt.datetime.now(dt.UTC)
    rows = [("LABEL", "ROLE", "CREATED", "EXPIRES", "SESSIONS", "DIGEST")]
    rows += [_row(entry, now) for entry in entries]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )
    return 0


def _row(entry: TokenEntry, now: dt.datetime) -> tuple[str, str, str, str, str, str]:
    from observer.auth.token_file import format_time

    def when(value: dt.datetime | None, none: str) -> str:
        return format_time(value) if value is not None else none

    expires = when(entry.expires, "never")
    if entry.expired(now):
        expires += " (expired)"
    prefix = entry.digest[:19] + "…"
    scope = ",".join(sorted(entry.identifiers)) if entry.identifiers is not None else "all"
    return entry.label or "-", entry.role, when(entry.created, "-"), expires, scope, prefix


def _revoke(args: argparse.Namespace) -> int:
    from observer.auth.token_file import read_entries, remove_entries
    from observer.errors import UsageError

    entries = read_entries(args.file)
    found = matching(entries, args.which)
    if not found:
        raise UsageError(
            f"no token in {args.file} has the label or digest prefix {args.which!r}",
            f"see `observer token list --tokens {args.file}`",
        )
    if len(found) > 1:
        raise UsageError(
            f"{len(found)} tokens match {args.which!r}",
            f"give a longer digest prefix (see `observer token list --tokens {args.file}`)",
        )
    remove_entries(args.file, [found[0].digest])
    entry = found[0]
    print(
        f"revoked {entry.name} ({entry.role}); a running server closes its connections "
        "within a second",
        file=sys.stderr,
    )
    return 0


def matching(entries: list[TokenEntry], which: str) -> list[TokenEntry]:
    """The entries labelled ``which``, or else those whose digest starts with it (at least
    6 hex digits, with or without ``sha256:``)."""
    labelled = [entry for entry in entries if entry.label == which]
    if labelled:
        return labelled
    prefix = which.lower().removeprefix("sha256:")
    if len(prefix) < 6 or not re.fullmatch(r"[0-9a-f]+", prefix):
        return []
    return [entry for entry in entries if entry.digest[7:].startswith(prefix)]
