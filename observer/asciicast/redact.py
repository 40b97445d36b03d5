"""Streaming redaction of secrets in recorded text (output or input), before it reaches a file.

A secret is masked with as many ``*`` as it has characters, so the replayed screen keeps its layout.
What is recognised: the session's own tokens (exact strings passed in), ``Bearer <token>``, JWTs,
and common API-key shapes (GitHub, AWS access key ids, ``sk-`` keys, Slack, Google API keys).

Data arrives in chunks, and a secret can be split across two of them. The redactor therefore holds
back the trailing run of token-like characters (letters, digits, ``._~+/=-``, plus a ``Bearer``
before them) until a later chunk ends it or :meth:`Redactor.flush` is called; everything before
that run is final and returned at once.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable
from typing import Final

_GITHUB = re.compile(r"gh[pousr]_")

# (pattern, group to mask: 0 = the whole match, quick test). Shapes from each vendor's documented
# token format. The quick test passes on any text the pattern can match (what every match holds,
# found by a substring search that runs in C at memory speed): a pattern that starts with ``\b``
# walks the text in Python's regular expression engine, position by position, so only the
# patterns whose quick test passes are run (ordinary build output holds "gh" and "sk-" in words).
PATTERNS: Final[tuple[tuple[re.Pattern[str], int, Callable[[str], bool]], ...]] = (
    (
        re.compile(r"\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}"),  # JWT
        0,
        lambda text: "eyJ" in text,
    ),
    (
        re.compile(r"(?i)\bbearer\s+([A-Za-z0-9._~+/=-]{16,})"),  # RFC 6750 credentials
        1,
        lambda text: "bearer" in text.lower(),
    ),
    (
        re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}"),  # GitHub tokens
        0,
        lambda text: _GITHUB.search(text) is not None,
    ),
    (
        re.compile(r"\bgithub_pat_[A-Za-z0-9_]{22,}"),  # GitHub fine-grained tokens
        0,
        lambda text: "github_pat_" in text,
    ),
    (
        re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),  # AWS access key ids
        0,
        lambda text: "AKIA" in text or "ASIA" in text,
    ),
    (
        # \bsk-…, with the literal first: the engine then finds each "sk-" at memory speed (words
        # like "task-" and "disk-" hold it) where a leading \b tries every position.
        re.compile(r"sk-(?<=\bsk-)[A-Za-z0-9_-]{20,}"),  # sk- API keys
        0,
        lambda text: "sk-" in text,
    ),
    (re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"), 0, lambda text: "xox" in text),  # Slack
    (re.compile(r"\bAIza[0-9A-Za-z_-]{35}"), 0, lambda text: "AIza" in text),  # Google API keys
)

_SECRET_ALPHABET: Final = string.ascii_letters + string.digits + "._~+/=-"
_BEARER_BEFORE: Final = re.compile(r"(?i)\bbearer\s+\Z")
MAX_HOLD: Final = 8192
"""A run of token characters longer than this is redacted and released even if unfinished."""


def may_hold_shape(text: str) -> bool:
    """Whether some shape of :data:`PATTERNS` passes its quick test on ``text`` (most output
    holds none, and is not searched further)."""
    return any(quick(text) for _, _, quick in PATTERNS)


class Redactor:
    """Mask secrets in a stream of text chunks.

    Args:
        secrets: Exact strings to mask wherever they appear (e.g. the session's own token).
        shapes: Mask the common key shapes of :data:`PATTERNS` too (off: only ``secrets``).

    Attributes:
        count: Secrets masked so far.
    """

    def __init__(self, secrets: Iterable[str] = (), *, shapes: bool = True) -> None:
        exact = sorted({s for s in secrets if s}, key=len, reverse=True)
        self._exact = re.compile("|".join(map(re.escape, exact))) if exact else None
        self._patterns = PATTERNS if shapes else ()
        self._held = ""
        self.count = 0

    @property
    def holding(self) -> bool:
        """True if some text is held back waiting for the rest of a possible secret."""
        return bool(self._held)

    def feed(self, text: str) -> str:
        """Return the part of ``held + text`` that is final, with secrets masked."""
        buffer = self._held + text
        start = len(buffer.rstrip(_SECRET_ALPHABET))  # str.rstrip: linear, unlike a regex search
        bearer = _BEARER_BEFORE.search(buffer, max(0, start - 64), start)
        if bearer is not None:
            start = bearer.start()
        if len(buffer) - start > MAX_HOLD:
            start = len(buffer)
        self._held = buffer[start:]
        return self.redact(buffer[:start])

    def flush(self) -> str:
        """Return whatever is held back, masked (call before a marker, at exit and at close)."""
        held, self._held = self._held, ""
        return self.redact(held)

    def redact(self, text: str) -> str:
        """Mask every secret in ``text`` (no holding back) and count them."""
        if not text:
            return text
        if self._exact is not None:
            text = self._exact.sub(self._mask_whole, text)
        # A pattern can match only where its quick test passes, on the text as masked so far.
        for pattern, group, quick in self._patterns:
            if quick(text):
                text = pattern.sub(self._masker(group), text)
        return text

    def _mask_whole(self, match: re.Match[str]) -> str:
        self.count += 1
        return "*" * len(match.group(0))

    def _masker(self, group: int) -> Callable[[re.Match[str]], str]:
        def mask(match: re.Match[str]) -> str:
            self.count += 1
            whole = match.group(0)
            if group == 0:
                return "*" * len(whole)
            begin, end = match.span(group)
            offset = match.start(0)
            return whole[: begin - offset] + "*" * (end - begin) + whole[end - offset :]

        return mask
