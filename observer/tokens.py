"""Bearer-token checks for the sandbox endpoint, holding no secret on the sandbox.

The server keeps only SHA-256 digests of the tokens it accepts (a token file of lines
``<watch|control> sha256:<hex>``) or a JWT public key. A stolen token file lets nobody in. Tokens
are compared in constant time (``hmac.compare_digest`` over every entry, no early exit), and no
token, digest or key ever appears in a log line or an error message.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from observer.errors import UsageError

Role = Literal["watch", "control"]
ROLES: Final = ("watch", "control")

_LINE = re.compile(r"^(watch|control)\s+sha256:([0-9a-f]{64})$")


def digest(token: str) -> str:
    """Return ``sha256:<hex>`` of ``token`` (UTF-8), as stored in a token file."""
    return "sha256:" + hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A fresh random bearer token (256 bits, URL-safe)."""
    return "obs_" + secrets.token_urlsafe(32)


@dataclass(frozen=True, slots=True)
class _Entry:
    role: Role
    digest: bytes


class TokenStore:
    """The digests a server accepts, each with the role it grants."""

    def __init__(self, entries: Iterable[tuple[Role, str]] = ()) -> None:
        self._entries: list[_Entry] = []
        for role, text in entries:
            if role not in ROLES or not re.fullmatch(r"sha256:[0-9a-f]{64}", text):
                raise UsageError("a token digest must be 'sha256:' and 64 lowercase hex digits")
            self._entries.append(_Entry(role, bytes.fromhex(text[7:])))

    @classmethod
    def from_tokens(cls, tokens: Iterable[tuple[Role, str]]) -> TokenStore:
        """A store for tokens held in memory (the in-process demo); only digests are kept."""
        return cls((role, digest(token)) for role, token in tokens)

    @classmethod
    def load(cls, path: Path) -> TokenStore:
        """Read a token file; raise :class:`UsageError` naming the bad line, never its content."""
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or "not UTF-8 text"
            raise UsageError(f"cannot read token file {path}: {reason} — check the path") from None
        entries: list[tuple[Role, str]] = []
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            match = _LINE.match(line)
            if match is None:
                raise UsageError(
                    f"{path}, line {number}: expected '<watch|control> sha256:<64 hex digits>'"
                    " — create entries with `observer token issue`"
                )
            entries.append((match.group(1), "sha256:" + match.group(2)))  # type: ignore[arg-type]
        return cls(entries)

    def __len__(self) -> int:
        return len(self._entries)

    def role_of(self, token: str) -> Role | None:
        """The role ``token`` grants, or ``None``. Takes the same time whichever entry matches."""
        candidate = hashlib.sha256(token.encode("utf-8", "surrogateescape")).digest()
        found: Role | None = None
        for entry in self._entries:
            # No early exit: every entry is compared, so timing does not tell which one matched.
            if hmac.compare_digest(candidate, entry.digest) and found != "control":
                found = entry.role
        return found


class JwtVerifier:
    """Verifies JWT bearer tokens with a public key (PyJWT, the ``jwt`` extra).

    The algorithm is pinned from the key type (RS256 for RSA, ES256/384/512 for EC by curve, EdDSA
    for Ed25519/Ed448), so a token cannot choose ``none`` or an HMAC with the public key as secret.
    ``exp`` and ``aud`` are required; ``iss`` when an issuer is given. The role comes from the claim
    ``role_claim``: ``control`` grants control, anything else grants watching only.
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
                "JWT support needs PyJWT — install it with `pip install 'observer-tty[jwt]'`"
            ) from None
        try:
            key = serialization.load_pem_public_key(public_key_pem)
        except (ValueError, TypeError):
            raise UsageError(
                "the JWT public key is not a PEM public key — pass the PEM file"
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

    def role_of(self, token: str) -> Role | None:
        """The role a valid token grants, or ``None`` (bad signature, expired, wrong audience...)."""
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
        return "control" if claims.get(self._role_claim) == "control" else "watch"


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
    raise UsageError("unsupported JWT public key type — use an RSA, P-256/384/521 or Ed25519 key")


class Authenticator:
    """Everything that can admit a bearer token: a digest store, a JWT verifier, or both."""

    def __init__(self, store: TokenStore | None = None, jwt: JwtVerifier | None = None) -> None:
        self.store = store
        self.jwt = jwt

    def role_of(self, token: str) -> Role | None:
        """The role ``token`` grants, or ``None`` if nothing accepts it."""
        if self.jwt is not None and token.count(".") == 2:
            role = self.jwt.role_of(token)
            if role is not None:
                return role
        if self.store is not None:
            return self.store.role_of(token)
        return None
