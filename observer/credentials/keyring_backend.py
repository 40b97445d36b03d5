"""Which keyring backend the token store may use, and one line naming the fix when there is none.

Fail closed: when keyring has no usable backend (its ``fail.Keyring``, a chainer with nothing in it)
or only found a low-priority one on its own (keyring's convention: priority < 1 is "not
recommended"; ``keyrings.alt``'s plaintext file is 0.5), :func:`resolve_backend` raises
:class:`~observer.errors.TokenStoreError` naming the fixes. A plaintext backend is used only when
the user chose it explicitly (``PYTHON_KEYRING_BACKEND`` or keyring's config file).

A chosen backend that cannot load (a mistyped name, a package that is not installed, keyrings.alt's
``EncryptedKeyring`` without pycryptodome) is the same kind of one-line error, never keyring's
traceback.

keyrings.alt's encrypted file keeps its password on the backend object, and keyring makes a new
object for each store: :func:`using` hands the password typed once to every later object for the
same file, for the life of the process (a dashboard of five profiles asks once). Without a
terminal, getpass reads standard input with a ``GetPassWarning``: the warning is kept quiet, a
password piped in still works, and an empty input or a wrong password is one line saying so.
"""

from __future__ import annotations

import contextlib
import getpass
import io
import os
import threading
import warnings
from collections.abc import Iterator
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


REFERENCE = ("keyring-setting", "password reference")
REFERENCE_VALUE = "password reference value"
"""The entry keyrings.alt's encrypted file keeps to check its password, and its value."""
_unlocked: dict[str, str] = {}
"""An encrypted keyring file's path → the password typed for it in this process."""
_unlocking = threading.Lock()
"""One prompt at a time: a second store waits for the first unlock, then uses it."""


def _encrypted_file(backend: Any) -> str | None:
    """The file of an encrypted file backend (keyrings.alt's), else None."""
    if not hasattr(type(backend), "keyring_key"):
        return None
    return str(getattr(backend, "file_path", "")) or None


@contextlib.contextmanager
def using(backend: Any) -> Iterator[None]:
    """Around each call into ``backend``: an encrypted file is unlocked once per process, and
    its prompt gives no Python warning (see the module docstring)."""
    path = _encrypted_file(backend)
    if path is None:
        yield
        return
    asking = getpass.getpass
    with _unlocking, warnings.catch_warnings():
        warnings.simplefilter("ignore", getpass.GetPassWarning)
        getpass.getpass = _quietly(asking)  # keyrings.alt calls getpass.getpass(prompt)
        try:
            _unlock(backend, path)
            yield
        finally:
            getpass.getpass = asking
        if "keyring_key" in vars(backend):
            _unlocked[path] = backend.keyring_key


def _unlock(backend: Any, path: str) -> None:
    """Give ``backend`` its password: the one typed before in this process, else ask once and
    check it against the file's reference entry (keyrings.alt asks again after a wrong one, so
    a piped password would meet the end of its input). A new file is left to keyrings.alt,
    which asks for a new password twice."""
    if "keyring_key" in vars(backend) or not os.path.exists(path):
        return
    if path in _unlocked:
        backend.keyring_key = _unlocked[path]
        return
    backend.keyring_key = getpass.getpass(f"Password of the encrypted keyring file {path}: ")
    try:
        right = backend.get_password(*REFERENCE) == REFERENCE_VALUE
    except Exception:  # a wrong key decrypts to garbage: keyrings.alt asserts or fails its MAC
        right = False
    if not right:
        del backend.keyring_key
        raise TokenStoreError(
            f"the password of the encrypted keyring file {path} is wrong",
            "type it again; nothing was changed",
        )


def _quietly(asking: Any) -> Any:
    """``getpass.getpass`` that, without a terminal, reads standard input with no prompt and
    no "Password input may be echoed" (getpass writes both to the stream it is given)."""

    def ask(prompt: str = "Password: ") -> str:
        try:
            os.close(os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY))
        except OSError:
            return str(asking(prompt, stream=io.StringIO()))
        return str(asking(prompt))

    return ask


def asks_first(backend: Any) -> bool:
    """Whether reading from ``backend`` would ask the user for a password now (an encrypted
    file not yet unlocked in this process): shell completion must not."""
    path = _encrypted_file(backend)
    return path is not None and "keyring_key" not in vars(backend) and path not in _unlocked


def backend_failure(backend: Any, error: Exception, what: str, origin: str) -> TokenStoreError:
    """The one line for a call into ``backend`` that raised ``error`` (``what``: read, store,
    delete; ``origin``: whose token)."""
    if isinstance(error, TokenStoreError):
        return error
    path = _encrypted_file(backend)
    if path is not None and isinstance(error, EOFError):
        return TokenStoreError(
            f"the encrypted keyring file {path} is locked and there is no terminal to type its "
            "password",
            "run the command in a terminal, pipe the password on standard input, or give the "
            "token in OBSERVER_TOKEN",
        )
    return TokenStoreError(
        f"the keyring ({backend_name(backend)}) could not {what} the token for {origin}: "
        f"{type(error).__name__}",
        FIXES,
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
