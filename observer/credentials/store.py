"""Token store: the OS keyring, ``OBSERVER_TOKEN`` for CI, and nothing else.

Tokens live under keyring service ``observer`` with the endpoint's normalized origin as the user
name (``wss://host:443``, see :mod:`observer.protocol.endpoints`). ``OBSERVER_TOKEN`` in the environment
overrides the keyring for every endpoint.

Which keyring backend may be used (fail closed, never a silent plaintext file) is decided in
:mod:`observer.credentials.keyring_backend`; the non-secret list of origins with a token, for ``auth list``,
is :mod:`observer.credentials.origins_index`.

Tokens are wrapped in :class:`Secret`, whose ``repr``/``str`` never show the value, so a token can
not leak into an exception message, a log line or a debugger by accident.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from observer.credentials.keyring_backend import (
    backend_failure,
    resolve_backend,
    using,
)
from observer.credentials.origins_index import OriginsIndex
from observer.errors import TokenStoreError
from observer.protocol.endpoints import normalize_origin

SERVICE = "observer"
ENV_VAR = "OBSERVER_TOKEN"


class Secret:
    """A token whose value is shown only by :meth:`reveal` — never by ``repr``, ``str`` or ``format``."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """Return the token itself (only to put it in a request header)."""
        return self._value

    def __repr__(self) -> str:
        return "Secret(<hidden>)"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return repr(self)

    def __reduce__(self) -> Any:
        raise TypeError("a Secret is not picklable")


@dataclass(frozen=True, slots=True)
class TokenInfo:
    """What may be shown about a token: never the token itself.

    ``kind`` is ``jwt`` when the token decodes as a JSON Web Token (claims read without verifying
    the signature: only the server can verify), else ``opaque``.
    """

    origin: str
    source: Literal["keyring", "environment"]
    kind: Literal["jwt", "opaque"]
    audience: tuple[str, ...] = ()
    expires_at: dt.datetime | None = None
    subject: str | None = None

    def expired(self, now: dt.datetime) -> bool:
        """True when the JWT's ``exp`` is at or before ``now``."""
        return self.expires_at is not None and self.expires_at <= now

    def describe(self, now: dt.datetime) -> str:
        """One line for people, e.g. ``JWT, audience sandbox, expires 2026-01-01 10:00 UTC (in 2 h)``."""
        if self.kind == "opaque":
            return "opaque token"
        parts = ["JWT"]
        if self.audience:
            parts.append("audience " + ", ".join(self.audience))
        if self.expires_at is None:
            parts.append("no expiry")
        else:
            when = self.expires_at.strftime("%Y-%m-%d %H:%M UTC")
            delta = self.expires_at - now
            state = (
                f"expired {_human(-delta)} ago"
                if delta.total_seconds() <= 0
                else f"in {_human(delta)}"
            )
            parts.append(f"expires {when} ({state})")
        return ", ".join(parts)


def _human(delta: dt.timedelta) -> str:
    seconds = int(delta.total_seconds())
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds // size} {unit}"
    return f"{seconds} s"


def inspect_token(
    token: Secret, origin: str, source: Literal["keyring", "environment"]
) -> TokenInfo:
    """Decode ``token`` as a JWT without verifying it, for warnings; opaque tokens say so."""
    try:
        import jwt
    except ImportError:  # the optional extra observer-tty[jwt] is not installed
        return TokenInfo(origin, source, "opaque")
    try:
        claims = jwt.decode(token.reveal(), options={"verify_signature": False})
    except jwt.PyJWTError:
        return TokenInfo(origin, source, "opaque")
    if not isinstance(claims, dict):
        return TokenInfo(origin, source, "opaque")
    aud = claims.get("aud")
    audience = (aud,) if isinstance(aud, str) else tuple(a for a in aud or () if isinstance(a, str))
    exp = claims.get("exp")
    expires = dt.datetime.fromtimestamp(exp, dt.UTC) if isinstance(exp, int | float) else None
    sub = claims.get("sub") if isinstance(claims.get("sub"), str) else None
    return TokenInfo(origin, source, "jwt", audience, expires, sub)


class TokenStore:
    """Get, store and delete tokens per endpoint origin.

    Args:
        backend: a ``keyring.backend.KeyringBackend`` to use; ``None`` resolves keyring's
            configured or detected backend lazily (only when the keyring is needed, so
            ``OBSERVER_TOKEN`` works on machines without any keyring).
        index_path: the origins index file; default ``origins`` in observer's config directory.
        environ: the environment to read ``OBSERVER_TOKEN`` from (default ``os.environ``).
    """

    def __init__(
        self,
        backend: Any = None,
        *,
        index_path: Path | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self._backend = backend
        self._index = OriginsIndex(index_path)
        self._environ = os.environ if environ is None else environ
        self._lock = threading.Lock()

    # -- backend -------------------------------------------------------------------------------

    def backend(self) -> Any:
        """Return the usable keyring backend, or raise :class:`TokenStoreError` naming the fixes."""
        if self._backend is None:
            self._backend = resolve_backend()
        return self._backend

    def _call(self, what: str, origin: str, function: Any, *args: str) -> Any:
        backend = self.backend()
        with self._lock:
            try:
                with using(backend):
                    return function(backend, *args)
            except Exception as error:  # backends raise their own types (D-Bus, OS errors...)
                raise backend_failure(backend, error, what, origin) from None

    # -- tokens --------------------------------------------------------------------------------

    def environment_token(self) -> Secret | None:
        """The ``OBSERVER_TOKEN`` override, if set and not empty."""
        value = self._environ.get(ENV_VAR, "").strip()
        return Secret(value) if value else None

    def get(self, url: str) -> Secret | None:
        """The token for ``url``'s origin: ``OBSERVER_TOKEN`` if set, else the keyring's, else None."""
        origin = normalize_origin(url)
        override = self.environment_token()
        if override is not None:
            return override
        value = self._call("read", origin, lambda b, o: b.get_password(SERVICE, o), origin)
        return Secret(value) if value else None

    def set(self, url: str, token: str) -> str:
        """Store ``token`` for ``url``'s origin; return the origin."""
        origin = normalize_origin(url)
        token = token.strip()
        if not token:
            raise TokenStoreError(f"an empty token was given for {origin}", "nothing was stored")
        self._call("store", origin, lambda b, o, t: b.set_password(SERVICE, o, t), origin, token)
        self._index.update(add=origin)
        return origin

    def delete(self, url: str) -> bool:
        """Delete the token for ``url``'s origin; return False when there was none."""
        import keyring.errors

        origin = normalize_origin(url)

        def remove(backend: Any, name: str) -> bool:
            try:
                backend.delete_password(SERVICE, name)
            except keyring.errors.PasswordDeleteError:
                return False
            return True

        removed: bool = self._call("delete", origin, remove, origin)
        self._index.update(remove=origin)
        return removed

    def info(self, url: str) -> TokenInfo | None:
        """What can be shown about the token ``get(url)`` would use."""
        origin = normalize_origin(url)
        token = self.get(url)
        if token is None:
            return None
        source: Literal["keyring", "environment"] = (
            "environment" if self.environment_token() is not None else "keyring"
        )
        return inspect_token(token, origin, source)

    # -- async wrappers for the UI (keyring calls may block on an unlock prompt or D-Bus) --------

    async def get_async(self, url: str) -> Secret | None:
        """:meth:`get` in a worker thread."""
        return await asyncio.to_thread(self.get, url)

    async def set_async(self, url: str, token: str) -> str:
        """:meth:`set` in a worker thread."""
        return await asyncio.to_thread(self.set, url, token)

    async def delete_async(self, url: str) -> bool:
        """:meth:`delete` in a worker thread."""
        return await asyncio.to_thread(self.delete, url)

    async def info_async(self, url: str) -> TokenInfo | None:
        """:meth:`info` in a worker thread."""
        return await asyncio.to_thread(self.info, url)

    # -- the origins index -----------------------------------------------------------------------

    @property
    def index_path(self) -> Path:
        """The non-secret file listing origins that have a token."""
        return self._index.path

    def origins(self) -> list[str]:
        """Origins with a stored token, sorted (read from the index; no keyring access)."""
        return self._index.read()


def token_advice(origin: str, wanted: str = "", environ: Mapping[str, str] | None = None) -> str:
    """What to do about a token an endpoint refused: fix it where it came from.

    ``OBSERVER_TOKEN`` wins over the keyring, so when it is set, storing a new token with
    ``auth login`` would change nothing: the advice is to fix or unset the variable instead.

    Args:
        origin: the endpoint's origin.
        wanted: what the new token must be (``"a fresh token"``), or empty.
        environ: the environment (default ``os.environ``).
    """
    environ = os.environ if environ is None else environ
    if environ.get(ENV_VAR, "").strip():
        if wanted:
            return f"set {ENV_VAR} to {wanted}, or unset it to use the keyring"
        return f"fix or unset {ENV_VAR} (it overrides the keyring for every endpoint)"
    return f"run `observer auth login {origin}`" + (f" with {wanted}" if wanted else "")
