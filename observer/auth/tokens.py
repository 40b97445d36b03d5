"""Bearer-token checks for the sandbox endpoint, holding no secret on the sandbox.

The server keeps only SHA-256 digests of the tokens it accepts (a token file, see
:mod:`observer.auth.token_file`) or a JWT public key. A stolen token file lets nobody in. Tokens are
compared in constant time (``hmac.compare_digest`` over every entry, no early exit), and no token
or key ever appears in a log line or an error message: logs name a token by its label, or the
first 12 hex digits of its digest.

What a valid token proves is a :class:`Credential`: its role, whose it is (the key that per-token
connection limits count, and revocation finds), how the people in a session see it (its label),
the sessions it admits (its scope: a token file's ``identifiers=``, a JWT's ``identifiers``
claim) and its expiry. The server asks
:meth:`Authenticator.revocation` about each connection's credential whenever the token file
changes, and every second for expiries.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import os
import re
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from observer.auth.token_file import ROLES, Role, TokenEntry, read_entries
from observer.errors import UsageError
from observer.protocol.frames import IDENTIFIER
from observer.protocol.people_frames import clean_label

Clock = Callable[[], float]
"""Seconds since the epoch (``time.time``; tests pass their own)."""


def digest(token: str) -> str:
    """Return ``sha256:<hex>`` of ``token`` (UTF-8), as stored in a token file."""
    return "sha256:" + hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A fresh random bearer token (256 bits, URL-safe)."""
    return "obs_" + secrets.token_urlsafe(32)


@dataclass(frozen=True, slots=True)
class Credential:
    """What a valid token proved: the role it grants, whose it is, and until when."""

    role: Role
    key: str
    """Who holds it, for limits and revocation: the digest of a token-file token, ``jwt:`` and
    the subject (or the token's digest) of a JWT."""
    name: str
    """How logs name it: its label, or the start of its digest (never the token)."""
    expires: float | None = None
    """Seconds since the epoch after which it admits nobody."""
    label: str = ""
    """How the other people in a session see it: the token's label (an unlabelled one: ``token``
    and six hex digits of its digest), a JWT's ``name`` or ``sub`` claim (clean:
    :func:`~observer.protocol.people_frames.clean_label`), or its name."""
    scope: frozenset[str] | None = None
    """The session identifiers it admits (None: every one)."""

    def admits(self, identifier: str) -> bool:
        """Whether this credential may open (and list) session ``identifier``."""
        return self.scope is None or identifier in self.scope


def _seconds(value: dt.datetime | None) -> float | None:
    return None if value is None else value.timestamp()


class TokenDigests:
    """The digests a server accepts, each with the role it grants; reread when its file changes.

    Args:
        entries: ``(role, "sha256:<hex>")`` pairs or :class:`TokenEntry` values.
        path: the token file they came from (see :meth:`load` and :meth:`reload`).
    """

    def __init__(
        self, entries: Iterable[tuple[Role, str] | TokenEntry] = (), path: Path | None = None
    ) -> None:
        self.path = path
        self._signature = _signature(path) if path is not None else None
        self._entries: list[tuple[TokenEntry, bytes]] = []
        for item in entries:
            entry = item if isinstance(item, TokenEntry) else TokenEntry(*item)
            if entry.role not in ROLES or not re.fullmatch(r"sha256:[0-9a-f]{64}", entry.digest):
                raise UsageError("a token digest must be 'sha256:' and 64 lowercase hex digits")
            self._entries.append((entry, bytes.fromhex(entry.digest[7:])))

    @classmethod
    def from_tokens(cls, tokens: Iterable[tuple[Role, str]]) -> TokenDigests:
        """Digests of tokens held in memory (the in-process demo); the tokens are not kept."""
        return cls((role, digest(token)) for role, token in tokens)

    @classmethod
    def load(cls, path: Path) -> TokenDigests:
        """Read a token file; raise :class:`UsageError` naming the bad line, never its content."""
        signature = _signature(path)
        digests = cls(read_entries(path), path)
        digests._signature = signature  # what was read, even if the file changed meanwhile
        return digests

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def entries(self) -> list[TokenEntry]:
        """The accepted tokens, in file order."""
        return [entry for entry, _ in self._entries]

    def changed(self) -> bool:
        """Whether the file differs from what was read (its size, time or inode)."""
        return self.path is not None and _signature(self.path) != self._signature

    def check(self, token: str, now: float) -> Credential | None:
        """What ``token`` proves at ``now``, or ``None``. Takes the same time whichever entry
        matches (every entry is compared, no early exit)."""
        candidate = hashlib.sha256(token.encode("utf-8", "surrogateescape")).digest()
        found: TokenEntry | None = None
        for entry, value in self._entries:
            if hmac.compare_digest(candidate, value) and (found is None or found.role == "watch"):
                found = entry
        if found is None or found.expired(dt.datetime.fromtimestamp(now, dt.UTC)):
            return None
        return Credential(
            found.role,
            found.digest,
            found.name,
            _seconds(found.expires),
            clean_label(found.label or f"token {found.digest[7:13]}"),
            found.identifiers,
        )

    def role_of(self, token: str) -> Role | None:
        """The role ``token`` grants now, or ``None``."""
        credential = self.check(token, time.time())
        return credential.role if credential is not None else None

    def revocation(self, credential: Credential, now: float) -> str | None:
        """Why ``credential`` no longer admits anybody (``None``: it still does)."""
        entry = next((e for e, _ in self._entries if e.digest == credential.key), None)
        if entry is None:
            return "token revoked"
        if entry.role != credential.role:
            return "token's role changed"
        if entry.identifiers != credential.scope:
            return "token's identifiers changed"
        if entry.expired(dt.datetime.fromtimestamp(now, dt.UTC)):
            return "token expired"
        return None


def _signature(path: Path) -> tuple[int, int, int] | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size, status.st_ino


class JwtVerifier:
    """Verifies JWT bearer tokens with a public key (PyJWT, the ``jwt`` extra).

    The algorithm is pinned from the key type (RS256 for RSA, ES256/384/512 for EC by curve, EdDSA
    for Ed25519/Ed448), so a token cannot choose ``none`` or an HMAC with the public key as secret.
    ``exp`` and ``aud`` are required; ``iss`` when an issuer is given. The role comes from the claim
    ``role_claim``: ``control`` grants control, anything else grants watching only. The label is
    the ``name`` claim, else ``sub``; an ``identifiers`` claim (a list of session identifiers)
    scopes the token to those sessions, and a malformed one admits nobody.
    """

    def __init__(
        self,
        public_key_pem: bytes,
        audience: str,
        *,
        issuer: str | None = None,
        role_claim: str = "role",
    ) -> None:
        try:
            import jwt  # noqa: F401
            from cryptography.hazmat.primitives import serialization
        except ImportError:
            raise UsageError(
                "JWT support needs PyJWT", "install it with `pip install 'observer-tty[jwt]'`"
            ) from None
        try:
            key = serialization.load_pem_public_key(public_key_pem)
        except (ValueError, TypeError):
            raise UsageError(
                "the JWT public key is not a PEM public key", "pass the PEM file"
            ) from None
        self._key: Any = key
        self._algorithm = _algorithm_for(key)
        self._audience = audience
        self._issuer = issuer
        self._role_claim = role_claim

    @property
    def algorithm(self) -> str:
        """The one algorithm tokens must be signed with."""
        return self._algorithm

    def check(self, token: str) -> Credential | None:
        """What a valid token proves, or ``None`` (bad signature, expired, wrong audience...).

        Its key is its subject (``sub``), so that tokens issued again to one subject share its
        connection limit, or the token's own digest without one.
        """
        import jwt

        required = ["exp", "aud"] + (["iss"] if self._issuer else [])
        try:
            claims = jwt.decode(
                token,
                self._key,
                algorithms=[self._algorithm],
                audience=self._audience,
                issuer=self._issuer,
                options={"require": required},
            )
        except jwt.PyJWTError:
            return None
        expires = claims["exp"]
        # RFC 7519 §2: a NumericDate is a JSON number, fraction allowed; PyJWT also admits a
        # string of digits, which would then escape the live expiry check.
        if isinstance(expires, bool) or not isinstance(expires, int | float):
            return None
        role: Role = "control" if claims.get(self._role_claim) == "control" else "watch"
        subject = claims.get("sub")
        if isinstance(subject, str) and subject:
            key = name = "jwt:" + subject[:64]
        else:
            key = "jwt:" + digest(token)
            name = "jwt:" + key[11:23]
        try:
            scope = _scope_claim(claims)
        except ValueError:
            return None
        shown = next(
            (value for value in (claims.get("name"), subject) if isinstance(value, str) and value),
            name,
        )
        return Credential(role, key, name, float(expires), clean_label(shown), scope)

    def role_of(self, token: str) -> Role | None:
        """The role a valid token grants, or ``None``."""
        credential = self.check(token)
        return credential.role if credential is not None else None


def _scope_claim(claims: dict[str, Any]) -> frozenset[str] | None:
    """The ``identifiers`` claim as a scope (None without one).

    Raises:
        ValueError: the claim is malformed: a token meant to be scoped must not admit more
            than it says, so it admits nothing.
    """
    if "identifiers" not in claims:
        return None
    value = claims["identifiers"]
    if not isinstance(value, list) or not value:
        raise ValueError("identifiers")
    if not all(isinstance(item, str) and IDENTIFIER.fullmatch(item) for item in value):
        raise ValueError("identifiers")
    return frozenset(value)


def _algorithm_for(key: Any) -> str:
    from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, rsa

    if isinstance(key, rsa.RSAPublicKey):
        return "RS256"
    if isinstance(key, ec.EllipticCurvePublicKey):
        by_curve = {"secp256r1": "ES256", "secp384r1": "ES384", "secp521r1": "ES512"}
        if key.curve.name in by_curve:
            return by_curve[key.curve.name]
    if isinstance(key, ed25519.Ed25519PublicKey | ed448.Ed448PublicKey):
        return "EdDSA"
    raise UsageError("unsupported JWT public key type", "use an RSA, P-256/384/521 or Ed25519 key")


class Authenticator:
    """Everything that can admit a bearer token: the token digests, a JWT verifier, or both.

    Args:
        digests: the accepted digests (reread from their file by :meth:`reload`).
        jwt: the JWT verifier.
        clock: seconds since the epoch, for expiries.
    """

    def __init__(
        self,
        digests: TokenDigests | None = None,
        jwt: JwtVerifier | None = None,
        *,
        clock: Clock = time.time,
    ) -> None:
        self.digests = digests
        self.jwt = jwt
        self.clock = clock

    def check(self, token: str) -> Credential | None:
        """What ``token`` proves now, or ``None`` if nothing accepts it."""
        if self.jwt is not None and token.count(".") == 2:
            credential = self.jwt.check(token)
            if credential is not None:
                return credential
        if self.digests is not None:
            return self.digests.check(token, self.clock())
        return None

    def role_of(self, token: str) -> Role | None:
        """The role ``token`` grants, or ``None`` if nothing accepts it."""
        credential = self.check(token)
        return credential.role if credential is not None else None

    def revocation(self, credential: Credential) -> str | None:
        """Why a connection admitted with ``credential`` must end now (``None``: it need not):
        its token was revoked, its role changed, or it expired."""
        if credential.expires is not None and self.clock() >= credential.expires:
            return "token expired"
        if credential.key.startswith("jwt:") or self.digests is None:
            return None
        return self.digests.revocation(credential, self.clock())

    def reload(self, force: bool = False) -> TokenDigests | None:
        """Read the token file again if it changed (or ``force``); return the new digests, or
        ``None`` when nothing was read.

        Raises:
            UsageError: the file cannot be read or is damaged; the tokens read before stay.
        """
        if self.digests is None or self.digests.path is None:
            return None
        if not force and not self.digests.changed():
            return None
        path, signature = self.digests.path, _signature(self.digests.path)
        try:
            self.digests = TokenDigests.load(path)
        except UsageError:
            self.digests._signature = signature  # said once; tried again when it changes again
            raise
        return self.digests
