"""``observer token issue``: create a bearer token for ``observer serve``, keep only its digest."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

NAME = "token"
HELP = "create a token for `observer serve` (prints it once, stores only its digest)"
DESCRIPTION = """\
Create a random bearer token, print it once on stdout and append only its SHA-256 digest to the
token file that `observer serve --tokens FILE` reads. The token itself is stored nowhere: keep it
in your laptop's keyring (`observer` asks for it when you connect). A `watch` token can only watch;
a `control` token can also take the keyboard.
"""
EPILOG = """\
example:
  observer token issue control --file /etc/observer/tokens
  observer token issue watch --file tokens.txt > watch-token.txt
"""


def register(parser: argparse.ArgumentParser) -> None:
    """Add the ``issue`` action and its arguments."""
    parser.add_argument("action", choices=["issue"], help="what to do (issue a new token)")
    parser.add_argument("role", choices=["watch", "control"], help="what the token allows")
    parser.add_argument(
        "--file", required=True, type=Path, help="token file to append the digest to"
    )


def run(args: argparse.Namespace) -> int:
    """Append the new token's digest to the file, then print the token."""
    from observer.errors import UsageError
    from observer.tokens import digest, new_token

    token = new_token()
    line = f"{args.role} {digest(token)}\n"
    path: Path = args.file
    try:
        # 0600 for a new file: digests are not secrets, but nobody else needs to edit them.
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "r+b") as out:
            size = out.seek(0, os.SEEK_END)
            if size and os.pread(fd, 1, size - 1) != b"\n":
                line = "\n" + line  # the file's last line had no newline: keep lines apart
            out.write(line.encode())
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror} — check the path") from None
    print(token, flush=True)
    return 0
