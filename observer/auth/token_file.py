"""The token file of ``observer serve``: one accepted token digest per line, never a token.

A line is ``<watch|control> sha256:<64 hex>``, optionally followed by ``label=NAME``,
``created=TIME``, ``expires=TIME`` (UTC, ``2025-06-01T12:00:00Z``) and ``identifiers=ID,ID``
(the token admits only those sessions); ``#`` comments and blank lines are kept as they are. Files written before labels existed (role and digest only) stay
valid. ``observer token`` appends and removes lines; ``observer serve`` reads the file again
whenever it changes.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, cast

from observer.errors import UsageError
from observer.protocol.frames import IDENTIFIER
from observer.runtime.files import replace_file

Role = Literal["watch", "control"]
ROLES: Final = ("watch", "control")
LABEL: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}")
"""1-64 characters: letters, digits, ``.``, ``_``, ``@``, ``-``; not starting with punctuation."""

_LINE = re.compile(r"(watch|control)\s+(sha256:[0-9a-f]{64})((?:\s+[a-z]+=\S*)*)")
_FIELDS: Final = ("label", "created", "expires", "identifiers")
_EXPECTED = (
    "expected '<watch|control> sha256:<64 hex digits> [label=NAME] [created=TIME] "
    "[expires=TIME] [identifiers=ID,ID]'"
)

_ISSUE = "create entries with `observer token issue`"


class EntryError(UsageError, ValueError):
    """A line of the token file is not an entry (what is wrong, and what to do, as fields)."""


@dataclass(frozen=True, slots=True)
class TokenEntry:
    """One accepted token: its role and digest, and what the operator knows about it."""

    role: Role
    digest: str
    """``sha256:`` and 64 lowercase hex digits."""
    label: str | None = None
    created: dt.datetime | None = None
    expires: dt.datetime | None = None
    identifiers: frozenset[str] | None = None
    """The sessions it admits (None: every one)."""

    @property
    def name(self) -> str:
        """How logs and listings name the token: its label, or the start of its digest."""
        return self.label or self.digest[:19]

    def expired(self, now: dt.datetime) -> bool:
        """Whether the token no longer admits anybody at ``now``."""
        return self.expires is not None and now >= self.expires

    def line(self) -> str:
        """The entry as a line of the token file (without the newline)."""
        fields = [self.role, self.digest]
        if self.label is not None:
            fields.append(f"label={self.label}")
        for key, value in (("created", self.created), ("expires", self.expires)):
            if value is not None:
                fields.append(f"{key}={format_time(value)}")
        if self.identifiers is not None:
            fields.append("identifiers=" + ",".join(sorted(self.identifiers)))
        return " ".join(fields)


def format_time(value: dt.datetime) -> str:
    """``2025-06-01T12:00:00Z`` (UTC, whole seconds)."""
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _time(text: str) -> dt.datetime:
    value = dt.datetime.fromisoformat(text)
    return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)


def parse_line(text: str) -> TokenEntry | None:
    """The entry on one line, ``None`` for a blank or comment line.

    Raises:
        EntryError: the line is not an entry (the message never quotes the line).
    """
    line = text.strip()
    if not line or line.startswith("#"):
        return None
    match = _LINE.fullmatch(line)
    if match is None:
        raise EntryError(_EXPECTED, _ISSUE)
    fields: dict[str, str] = {}
    for item in match.group(3).split():
        key, _, value = item.partition("=")
        if key not in _FIELDS or key in fields:
            raise EntryError(f"unknown or repeated field {key!r}; {_EXPECTED}", _ISSUE)
        fields[key] = value
    label = fields.get("label")
    if label is not None and not LABEL.fullmatch(label):
        raise EntryError("a label is 1-64 letters, digits, '.', '_', '@' or '-'")
    try:
        created, expires = (_time(fields[k]) if k in fields else None for k in _FIELDS[1:3])
    except ValueError:
        raise EntryError("a time is written 2025-06-01T12:00:00Z") from None
    scope = None
    if "identifiers" in fields:
        scope = frozenset(fields["identifiers"].split(","))
        if not all(IDENTIFIER.fullmatch(identifier) for identifier in scope):
            raise EntryError("identifiers are a comma-separated list of session identifiers")
    role = cast("Role", match.group(1))
    return TokenEntry(role, match.group(2), label, created, expires, scope)


def read_entries(path: Path) -> list[TokenEntry]:
    """Every entry of a token file.

    Raises:
        UsageError: the file cannot be read, or a line is damaged (named by number, its
            content never shown: a mistyped line might be a token).
    """
    entries = []
    for number, line in enumerate(_read(path).splitlines(), start=1):
        try:
            entry = parse_line(line)
        except EntryError as error:
            raise UsageError(f"{path}, line {number}: {error.what}", error.advice) from None
        if entry is not None:
            entries.append(entry)
    return entries


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "not UTF-8 text"
        raise UsageError(f"cannot read token file {path}: {reason}", "check the path") from None


def append_entry(path: Path, entry: TokenEntry) -> None:
    """Add ``entry`` at the end of the file (created 0600 if missing)."""
    line = entry.line() + "\n"
    try:
        # 0600 for a new file: digests are not secrets, but nobody else needs to edit them.
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "r+b") as out:
            size = out.seek(0, os.SEEK_END)
            if size and os.pread(fd, 1, size - 1) != b"\n":
                line = "\n" + line  # the file's last line had no newline: keep lines apart
            out.write(line.encode())
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror}", "check the path") from None


def remove_entries(path: Path, digests: Iterable[str]) -> None:
    """Rewrite the file without the lines of ``digests``; every other line stays as it was.

    The new file replaces the old one in one step (a server reading it sees one or the other),
    with the old file's permissions.
    """
    gone = set(digests)
    kept = []
    for line in _read(path).splitlines(keepends=True):
        try:
            entry = parse_line(line)
        except ValueError:
            entry = None
        if entry is None or entry.digest not in gone:
            kept.append(line)
    try:
        replace_file(path, "".join(kept))
    except OSError as error:
        raise UsageError(f"cannot rewrite {path}: {error.strerror}", "check the path") from None
