"""Which keyring backend the token store may use, and one line naming the fix when there is none.

Fail closed: when keyring has no usable backend (its ``fail.Keyring``, a chainer with nothing in it)
or only found a low-priority one on its own (keyring's convention: priority < 1 is "not
recommended"; ``keyrings.alt``'s plaintext file is 0.5), :func:`resolve_backend` raises
:class:`~observer.errors.TokenStoreError` naming the fixes. A plaintext backend is used only when
the user chose it explicitly (``PYTHON_KEYRING_BACKEND`` or keyring's config file).

A chosen backend that cannot load (a mistyped name, a package that is not installed, keyrings.alt's
``EncryptedKeyring`` without pycryptodome) is the same kind of one-line error, never keyring's
traceback.
"""

from __future__ import annotations

import os
from typing import Any

from observer.errors import TokenStoreError

#: The environment variable keyring reads to choose a backend by its dotted class name.
BACKEND_VAR = "PYTHON_KEYRING_BACKEND"
#: The one file-based backend observer recommends: encrypted, and what the extra installs.
ENCRYPTED_FILE = "keyrings.alt.file.EncryptedKeyring"
#: How to get what :data:`ENCRYPTED_FILE` needs (keyrings.alt and pycryptodomex).
ENCRYPTED_FILE_INSTALL = (
    "pip install 'observer-tty[file-keyring]' (pipx: pipx inject observer-tty keyrings.alt "
    "pycryptodomex)"
)

FIXES = (
    "install and unlock a Secret Service (e.g. gnome-keyring or KeePassXC) or the OS keychain, "
    "or set OBSERVER_TOKEN in the environment for this process, "
    f"or use an encrypted keyring file: {ENCRYPTED_FILE_INSTALL}, then set "
    f"{BACKEND_VAR}={ENCRYPTED_FILE}"
)


def backend_name(backend: Any) -> str:
    """The dotted class name of ``backend``, as ``PYTHON_KEYRING_BACKEND`` spells it."""
    return f"{type(backend).__module__}.{type(backend).__name__}"


def resolve_backend() -> Any:
    """Return keyring's backend if it is safe to use, else raise :class:`TokenStoreError`.

    An explicit choice (``PYTHON_KEYRING_BACKEND`` or keyring's config file) is honoured as is.
    A detected backend must be a real one with priority >= 1.
    """
    try:
        import keyring
        from keyring.backends import chainer, fail
    except ImportError:
        raise TokenStoreError("the keyring package is not installed", FIXES) from None
    explicit = _explicit_backend()
    backend = explicit or keyring.get_keyring()
    if isinstance(backend, fail.Keyring):
        raise TokenStoreError("no usable keyring backend was found", FIXES)
    if isinstance(backend, chainer.ChainerBackend):
        # The chainer tries its members in turn: a locked Secret Service would silently hand the
        # token to a plaintext file. Use its best safe member alone, or none.
        safe = [b for b in backend.backends if getattr(b, "priority", 0) >= 1]
        if not safe:
            raise TokenStoreError("no usable keyring backend was found", FIXES)
        return safe[0]
    if explicit is None:
        priority = getattr(backend, "priority", 0)
        if priority < 1:
            raise TokenStoreError(
                f"the only keyring backend found is {backend_name(backend)}, which keyring rates "
                f"unsafe (priority {priority}); observer does not fall back to it silently",
                FIXES,
            )
    return backend


def _explicit_backend() -> Any:
    """The backend the user named, ``None`` when they named none; a name that fails is an error."""
    import keyring.core

    try:
        return keyring.core.load_env() or keyring.core.load_config()
    except Exception as error:  # keyring imports the named module and asks the class: anything goes
        raise TokenStoreError(*_load_failure(error)) from None


def _load_failure(error: Exception) -> tuple[str, str]:
    chosen = os.environ.get(BACKEND_VAR, "").strip()
    where = f"{BACKEND_VAR}={chosen}" if chosen else "named in keyring's keyringrc.cfg"
    undo = f"unset {BACKEND_VAR}" if chosen else "remove it from keyringrc.cfg"
    reason = " ".join(f"{type(error).__name__}: {error}".split())[:200]
    if chosen == ENCRYPTED_FILE or "pycryptodome" in reason:
        fix = f"install what it needs with {ENCRYPTED_FILE_INSTALL}, or {undo}"
    else:
        fix = (
            f"check the class name (e.g. {ENCRYPTED_FILE}) and that its package is installed, "
            f"or {undo}"
        )
    return f"the keyring backend {where} could not be loaded ({reason})", fix
